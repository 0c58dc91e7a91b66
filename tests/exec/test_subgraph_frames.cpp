// Stepping into higher-order ops of real torch.export programs
// (tests/data/programs/): a while_loop whose body halves and shifts a tensor
// five times (acc <- acc * 0.5 + 1) and a cond. Step Into enters the loop's
// first call; steps reveal each node's value in turn; the calls alternate
// condition and body, iteration by iteration; any iteration can be chosen
// and holds the values that iteration computed (checked against the same
// recurrence computed here with torch); a breakpoint inside the body stops
// once per iteration, then the run finishes; Step Into a cond enters the
// branch its predicate took; a run that frees values records no calls.
#include "exec_test_util.h"
#include "test_support.h"

#include "core/exec/debugger/debugger.h"
#include "core/exec/engine/session.h"
#include "core/io/tensor_file.h"
#include "core/ir/json_io.h"

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;

namespace {

struct LoopProgram {
    ir::Graph graph = ir::loadGraphFile(irscope::test::dataPath("programs/while_loop_count.pt2"));
    int64_t loop = -1;
    LoopProgram() {
        for (size_t i = 0; i < graph.nodes.size(); ++i)
            if (!graph.nodes[i].subgraphs.empty()) loop = static_cast<int64_t>(i);
    }
    int32_t subgraphNamed(const char* prefix) const {
        const auto& subs = graph.nodes[static_cast<size_t>(loop)].subgraphs;
        for (size_t s = 0; s < subs.size(); ++s)
            if (subs[s].name.find(prefix) != std::string::npos) return static_cast<int32_t>(s);
        return -1;
    }
    // The body node computing acc * 0.5 + 1.0 (the last one that is not i + 1).
    std::string accNode() const {
        const auto& body = *graph.nodes[static_cast<size_t>(loop)].subgraphs[subgraphNamed("body_graph")].graph;
        return body.graphOutputs.back().name;
    }
    int64_t innerIndex(const std::string& tensor) const {
        const auto& body = *graph.nodes[static_cast<size_t>(loop)].subgraphs[subgraphNamed("body_graph")].graph;
        for (size_t j = 0; j < body.nodes.size(); ++j)
            if (body.nodes[j].outputs.front().name == tensor) return static_cast<int64_t>(j);
        return -1;
    }
};

// A value as the panels see it: exported through the debugger's own lookup, read back.
at::Tensor shownValue(const Debugger& d, const std::string& qualified) {
    const std::string file = QDir::temp().filePath("irscope_subgraph_frames.pt").toStdString();
    d.tensors().exportTensor(qualified, file);
    const io::TensorMap m = io::readTensorFile(file);
    return m.entries().front().tensor;
}

at::Tensor recurrence(const at::Tensor& x, int times) {
    at::Tensor acc = x.clone();
    for (int k = 0; k < times; ++k) acc = acc * 0.5 + 1.0;
    return acc;
}

}  // namespace

class TestSubgraphFrames : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stepIntoALoopWalksItsCallsNodeByNode() {
        LoopProgram p;
        QVERIFY(p.loop >= 0);
        Debugger d(p.graph);
        d.values().load(ValueFile::Inputs, irscope::test::dataPath("programs/while_loop_count.pt2"));
        while (d.cursor() < p.loop) QVERIFY(!d.step().failed);
        const RunStatus in = d.frames().stepInto();
        QVERIFY2(!in.failed, in.message.c_str());
        auto f = d.frames().frame();
        QVERIFY(f);
        QCOMPARE(f->node, p.loop);
        QCOMPARE(f->call, size_t(0));
        QCOMPARE(f->subgraph, p.subgraphNamed("cond_graph"));
        QCOMPARE(f->cursor, int64_t(0));
        QCOMPARE(f->calls, size_t(11));  // 6 conditions, 5 bodies
        QCOMPARE(f->iterationsOfIt, int64_t(6));
        QVERIFY2(in.message.find("cond_graph_0' (iteration 1 of 6)") != std::string::npos, in.message.c_str());
        // The loop itself ran: the cursor is past it.
        QCOMPARE(d.cursor(), p.loop + 1);

        // The condition's only node has no value until it is stepped over.
        const auto& cond = *p.graph.nodes[static_cast<size_t>(p.loop)].subgraphs[f->subgraph].graph;
        const std::string loopName = p.graph.nodes[static_cast<size_t>(p.loop)].name;
        const std::string condValue = SubgraphFrames::qualifiedName(
            loopName, p.graph.nodes[static_cast<size_t>(p.loop)].subgraphs[f->subgraph].name,
            cond.nodes.front().outputs.front().name);
        QVERIFY(!d.tensors().summary(condValue));
        d.step();
        QVERIFY(d.tensors().summary(condValue));
        QCOMPARE(d.frames().frame()->cursor, int64_t(1));

        // The next step starts the first body call.
        d.step();
        f = d.frames().frame();
        QCOMPARE(f->call, size_t(1));
        QCOMPARE(f->subgraph, p.subgraphNamed("body_graph"));
        QCOMPARE(f->iteration, int64_t(0));
        QCOMPARE(f->cursor, int64_t(0));
        const std::string acc = SubgraphFrames::qualifiedName(
            loopName, p.graph.nodes[static_cast<size_t>(p.loop)].subgraphs[f->subgraph].name, p.accNode());
        QVERIFY(!d.tensors().summary(acc));
        const int64_t accAt = p.innerIndex(p.accNode());
        QVERIFY(accAt >= 0);
        for (int64_t k = 0; k <= accAt; ++k) d.step();
        const auto got = d.tensors().summary(acc);
        QVERIFY(got);

        // Its value is the first iteration's: x * 0.5 + 1 (exported to a file and read back).
        at::Tensor x;
        QVERIFY(d.session().value("x", x));
        QVERIFY(at::allclose(shownValue(d, acc), recurrence(x, 1)));

        // Stepping out leaves the frame; the run goes on after the loop.
        d.frames().stepOut();
        QVERIFY(!d.frames().frame());
    }

    void everyIterationCanBeChosen() {
        LoopProgram p;
        Debugger d(p.graph);
        d.values().load(ValueFile::Inputs, irscope::test::dataPath("programs/while_loop_count.pt2"));
        QVERIFY(!d.runToEnd().failed);
        const auto calls = d.frames().subgraphCalls(p.loop);
        QCOMPARE(calls.size(), size_t(11));
        at::Tensor x;
        QVERIFY(d.session().value("x", x));
        const auto& loopNode = p.graph.nodes[static_cast<size_t>(p.loop)];
        const std::string acc = SubgraphFrames::qualifiedName(
            loopNode.name, loopNode.subgraphs[p.subgraphNamed("body_graph")].name, p.accNode());
        int bodies = 0;
        for (size_t c = 0; c < calls.size(); ++c) {
            if (calls[c].subgraph != p.subgraphNamed("body_graph")) continue;
            QCOMPARE(calls[c].iteration, int64_t(bodies));
            QVERIFY(d.frames().selectCall(p.loop, c));
            // The first choice enters the loop there; later ones are looked
            // at while the frame stays where it entered.
            const auto f = d.frames().frame();
            QCOMPARE(f->viewedCall ? f->viewedIteration : f->iteration, int64_t(bodies));
            if (bodies > 0) QCOMPARE(f->iteration, int64_t(0));
            ++bodies;
            QVERIFY2(at::allclose(shownValue(d, acc), recurrence(x, bodies)),
                     qPrintable(QString("iteration %1").arg(bodies)));
        }
        QCOMPARE(bodies, 5);
        QVERIFY(!d.frames().selectCall(p.loop, 11));
        QVERIFY(!d.frames().selectCall(0, 0));  // not a higher-order op
    }

    void aBreakpointInTheBodyStopsOncePerIteration() {
        LoopProgram p;
        Debugger d(p.graph);
        d.values().load(ValueFile::Inputs, irscope::test::dataPath("programs/while_loop_count.pt2"));
        const auto& loopNode = p.graph.nodes[static_cast<size_t>(p.loop)];
        const SubgraphBreakpoint b{
            SubgraphFrames::subgraphPath("", loopNode.name, loopNode.subgraphs[p.subgraphNamed("body_graph")].name),
            p.innerIndex(p.accNode())};
        d.frames().setSubgraphBreakpoint(b, true);
        QVERIFY(d.frames().hasSubgraphBreakpoint(b));
        for (int k = 0; k < 5; ++k) {
            const RunStatus st = d.runToEnd();
            QCOMPARE(st.reason, StopReason::Breakpoint);
            const auto f = d.frames().frame();
            QVERIFY2(f, st.message.c_str());
            QCOMPARE(f->iteration, int64_t(k));
            QCOMPARE(f->cursor, b.inner);
            const std::string expected = "(iteration " + std::to_string(k + 1) + " of 5)";
            QVERIFY2(st.message.find(expected) != std::string::npos, st.message.c_str());
        }
        const RunStatus last = d.runToEnd();
        QCOMPARE(last.reason, StopReason::Finished);
        QVERIFY(!d.frames().frame());
        QVERIFY(d.finished());
        d.frames().setSubgraphBreakpoint(b, false);
        QVERIFY(d.frames().subgraphBreakpoints().empty());
    }

    // A run that frees values (`irscope run`, or the debugger told to) records
    // no calls: stepping into the loop then runs it as one step.
    void aRunThatFreesValuesRecordsNoCalls() {
        LoopProgram p;
        Debugger d(p.graph, RetentionPolicy::FreeAfterLastUse);
        d.values().load(ValueFile::Inputs, irscope::test::dataPath("programs/while_loop_count.pt2"));
        while (d.cursor() < p.loop) QVERIFY(!d.step().failed);
        QVERIFY(!d.frames().stepInto().failed);
        QVERIFY(!d.frames().frame());
        QCOMPARE(d.cursor(), p.loop + 1);
        QVERIFY(d.frames().subgraphCalls(p.loop).empty());
        QCOMPARE(d.nodeInfo(p.loop).iterations, int64_t(5));  // it ran all the same
    }

    void stepIntoACondEntersTheBranchTaken() {
        const ir::Graph graph = ir::loadGraphFile(irscope::test::dataPath("programs/cond_branches.pt2"));
        int64_t cond = -1;
        for (size_t i = 0; i < graph.nodes.size(); ++i)
            if (!graph.nodes[i].subgraphs.empty()) cond = static_cast<int64_t>(i);
        for (const char* inputs : {"programs/cond_branches.pt2", "programs/cond_branches.inputs_b.pt"}) {
            Debugger d(graph);
            d.values().load(ValueFile::Weights, irscope::test::dataPath("programs/cond_branches.pt2"));
            d.values().load(ValueFile::Inputs, irscope::test::dataPath(inputs));
            while (d.cursor() < cond) QVERIFY(!d.step().failed);
            QVERIFY(!d.frames().stepInto().failed);
            const auto f = d.frames().frame();
            QVERIFY(f);
            QCOMPARE(f->calls, size_t(1));
            QCOMPARE(f->subgraph, d.nodeInfo(cond).takenSubgraph);
            QCOMPARE(f->subgraph, std::string(inputs).find("inputs_b") == std::string::npos ? 0 : 1);
            // Past its last node the frame is left.
            const auto& branch = *graph.nodes[static_cast<size_t>(cond)].subgraphs[f->subgraph].graph;
            for (size_t k = 0; k < branch.nodes.size(); ++k) QVERIFY(d.frames().frame());
            for (size_t k = 0; k <= branch.nodes.size(); ++k) d.step();
            QVERIFY(!d.frames().frame());
            QCOMPARE(d.cursor(), cond + 1);
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestSubgraphFrames)
#include "test_subgraph_frames.moc"
