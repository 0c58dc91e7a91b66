// The debugger at any depth, on control flow nested two levels
// (tests/data/nested/, made by make_nested_programs.py on PyTorch 2.13: a
// branch in a loop's body, a loop or a scan in a branch, a branch in a branch,
// a branch in map's body, a loop in a loop). For each program:
//   - F11 everywhere walks every call at every depth, node by node: each
//     inner node's value, as the Tensor dock reads it the moment it ran, is
//     the one PyTorch's own higher-order ops computed in that call (the
//     fixture's .calls.pt, keyed by execution position), and every value
//     PyTorch computed in an op's call is reached;
//   - a node one step later is "not run yet" in its call (no value);
//   - a breakpoint on a node two levels deep stops once per call that
//     reaches it, in order, and the run then finishes;
//   - Step Out leaves one level;
//   - a position with calls (loop_in_loop's "#2/…#3/cos") is stood at, and a
//     call the program did not make is refused.
#include "exec_test_util.h"
#include "nested_corpus.h"
#include "test_support.h"

#include <QDir>

#include <set>

#include <ATen/ATen.h>

#include "core/exec/debugger/debugger.h"
#include "core/io/tensor_file.h"
#include "core/ir/execution_position.h"
#include "core/ir/json_io.h"

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;

namespace {

using irscope::test::nestedFile;
using irscope::test::nestedPrograms;

struct NestedDebug {
    ir::Graph graph;
    std::unique_ptr<Debugger> d;
    explicit NestedDebug(const std::string& name) : graph(ir::loadGraphFile(nestedFile(name + ".pt2"))) {
        d = std::make_unique<Debugger>(graph);
        d->values().load(ValueFile::Weights, nestedFile(name + ".pt2"));
        d->values().load(ValueFile::Inputs, nestedFile(name + ".pt2"));
    }
};

// What the panels show for a qualified name: exported through the debugger's own lookup, read back.
std::optional<at::Tensor> shownNestedValue(const Debugger& d, const std::string& qualified) {
    if (!d.tensors().hasValue(qualified)) return std::nullopt;
    const std::string file = QDir::temp().filePath("irscope_nested_frames.pt").toStdString();
    d.tensors().exportTensor(qualified, file);
    return io::readTensorFile(file).entries().front().tensor;
}

// The position of a tensor made in the innermost frame's call, with every
// call numbered as the fixture writes it ("while_loop/while_loop_body_graph_0#2/cond/false_graph_0/sub").
std::string positionWithCalls(const ir::Graph& program, const std::vector<SubgraphFrame>& stack,
                              const std::string& tensor) {
    std::string out;
    const ir::Graph* g = &program;
    for (const auto& f : stack) {
        const auto& op = g->nodes[static_cast<size_t>(f.node)];
        const auto& sub = op.subgraphs[static_cast<size_t>(f.subgraph)];
        out.append(op.name);
        out.push_back('/');
        out.append(sub.name);
        if (ir::callsRepeatedly(op)) {
            out.push_back('#');
            out.append(std::to_string(f.iteration + 1));
        }
        out.push_back('/');
        g = sub.graph.get();
    }
    out.append(tensor);
    return out;
}

// A position's frames as a subgraph path, without calls.
std::string framesPath(const ir::ExecutionPosition& p) {
    std::string path;
    for (const auto& step : p.frames) {
        if (!path.empty()) path.push_back('/');
        path.append(step.node);
        path.push_back('/');
        path.append(step.subgraph);
    }
    return path;
}

const ir::Graph* innermostGraph(const ir::Graph& program, const std::vector<SubgraphFrame>& stack) {
    return ir::subgraphAtPath(program, stack.back().path);
}

// The positions of the fixture whose tensor is an op's output (not a
// subgraph's input), two or more levels deep.
std::set<std::string> deepOpOutputs(const ir::Graph& program, const io::TensorMap& calls) {
    std::set<std::string> out;
    for (const auto& e : calls) {
        std::string why;
        const auto p = ir::parsePosition(e.name, why);
        if (!p || p->frames.size() < 2) continue;
        const auto r = ir::resolvePosition(program, *p, why);
        if (!r || r->node < 0) continue;
        for (const auto& o : r->graph->nodes[static_cast<size_t>(r->node)].outputs)
            if (o.name == p->node) out.insert(e.name);
    }
    return out;
}

}  // namespace

class TestNestedFrames : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void corpusIsThere() { QVERIFY2(nestedPrograms().size() >= 6, "tests/data/nested/: run make_nested_programs.py"); }

    void stepIntoEveryCallAtEveryDepth_data() {
        QTest::addColumn<QString>("name");
        for (const QString& n : nestedPrograms()) QTest::newRow(qPrintable(n)) << n;
    }
    void stepIntoEveryCallAtEveryDepth() {
        QFETCH(QString, name);
        NestedDebug n(name.toStdString());
        Debugger& d = *n.d;
        const io::TensorMap calls = io::readTensorFile(nestedFile(name.toStdString() + ".calls.pt"));
        const std::set<std::string> deep = deepOpOutputs(n.graph, calls);
        QVERIFY2(!deep.empty(), "the fixture records values two levels deep");
        std::set<std::string> reached;
        size_t deepest = 0, checkedUnrun = 0;
        for (int guard = 0; guard < 10000; ++guard) {
            const RunStatus st = d.frames().stepInto();
            QVERIFY2(!st.failed, st.message.c_str());
            const auto stack = d.frames().stack();
            if (stack.empty()) {
                if (d.cursor() >= d.nodeCount()) break;
                continue;
            }
            deepest = std::max(deepest, stack.size());
            const SubgraphFrame& f = stack.back();
            const ir::Graph* g = innermostGraph(n.graph, stack);
            QVERIFY2(g, f.path.c_str());
            // The node just run: its value is PyTorch's in this call.
            if (f.cursor > 0 && f.cursor <= static_cast<int64_t>(g->nodes.size())) {
                const auto& ran = g->nodes[static_cast<size_t>(f.cursor - 1)];
                if (ran.subgraphs.empty() && !ran.outputs.empty()) {
                    const std::string key = positionWithCalls(n.graph, stack, ran.outputs[0].name);
                    if (const at::Tensor* want = calls.find(key)) {
                        const auto shown = shownNestedValue(d, f.path + "/" + ran.outputs[0].name);
                        QVERIFY2(shown, key.c_str());
                        QVERIFY2(at::allclose(shown->to(at::kDouble), want->to(at::kDouble), 1.3e-6, 1e-5),
                                 key.c_str());
                        reached.insert(key);
                    }
                }
            }
            // The node at the cursor has not run in this call: no value yet.
            if (f.cursor < static_cast<int64_t>(g->nodes.size())) {
                const auto& next = g->nodes[static_cast<size_t>(f.cursor)];
                if (next.subgraphs.empty() && !next.outputs.empty() && f.iteration == 0) {
                    QVERIFY2(!d.tensors().hasValue(f.path + "/" + next.outputs[0].name),
                             (f.path + "/" + next.outputs[0].name).c_str());
                    ++checkedUnrun;
                }
            }
        }
        QVERIFY2(d.cursor() >= d.nodeCount() && !d.frames().frame(), "F11 ran the program to its end");
        QVERIFY2(deepest >= 2, "stepped into an op inside a subgraph");
        QVERIFY(checkedUnrun > 0);
        for (const auto& key : deep) QVERIFY2(reached.count(key), ("never reached: " + key).c_str());
    }

    void breakpointTwoLevelsDeepStopsOncePerCall_data() { stepIntoEveryCallAtEveryDepth_data(); }
    void breakpointTwoLevelsDeepStopsOncePerCall() {
        QFETCH(QString, name);
        NestedDebug n(name.toStdString());
        Debugger& d = *n.d;
        const io::TensorMap calls = io::readTensorFile(nestedFile(name.toStdString() + ".calls.pt"));
        const std::set<std::string> deep = deepOpOutputs(n.graph, calls);
        QVERIFY(!deep.empty());
        // The first deep value's node, and the calls PyTorch made of it, in order.
        std::string why;
        const auto first = ir::parsePosition(*deep.begin(), why);
        QVERIFY2(first, why.c_str());
        const std::string subgraph = framesPath(*first);
        std::vector<std::string> expected;
        for (const auto& e : calls) {
            const auto p = ir::parsePosition(e.name, why);
            if (!p || p->node != first->node || p->frames.size() != first->frames.size()) continue;
            if (framesPath(*p) == subgraph) expected.push_back(e.name);
        }
        const auto resolved = ir::resolvePosition(n.graph, *first, why);
        QVERIFY2(resolved, why.c_str());
        d.frames().setSubgraphBreakpoint({subgraph, resolved->node}, true);
        std::vector<std::string> stops;
        for (int guard = 0; guard < 100; ++guard) {
            const RunStatus st = d.runToEnd();
            QVERIFY2(!st.failed, st.message.c_str());
            if (st.reason != StopReason::Breakpoint) break;
            const auto stack = d.frames().stack();
            QVERIFY(stack.size() >= 2);
            QCOMPARE(stack.back().path, subgraph);
            QCOMPARE(stack.back().cursor, resolved->node);
            QVERIFY2(!d.tensors().hasValue(subgraph + "/" + first->node), "stopped before the node");
            stops.push_back(positionWithCalls(n.graph, stack, first->node));
        }
        QCOMPARE(stops, expected);
        QVERIFY(d.cursor() >= d.nodeCount());
    }

    void stepOutLeavesOneLevel() {
        NestedDebug n("branch_in_loop");
        Debugger& d = *n.d;
        for (int guard = 0; guard < 200 && d.frames().stack().size() < 2; ++guard)
            QVERIFY(!d.frames().stepInto().failed);
        const auto inner = d.frames().stack();
        QCOMPARE(inner.size(), size_t(2));
        QCOMPARE(inner.back().path.rfind("while_loop/while_loop_body_graph_0/cond/", 0), size_t(0));
        const RunStatus out = d.frames().stepOut();
        QVERIFY2(out.message.find("in 'while_loop/while_loop_body_graph_0'") != std::string::npos, out.message.c_str());
        const auto outer = d.frames().stack();
        QCOMPARE(outer.size(), size_t(1));
        QCOMPARE(outer.back().path, std::string("while_loop/while_loop_body_graph_0"));
        QCOMPARE(outer.back().cursor, inner.front().cursor);  // after the cond, which ran
        d.frames().stepOut();
        QVERIFY(!d.frames().frame());
    }

    void standsAtAPositionWithCalls() {
        NestedDebug n("loop_in_loop");
        Debugger& d = *n.d;
        QVERIFY(!d.runToEnd().failed);
        std::string why;
        const std::string text = "while_loop/while_loop_body_graph_0#2/while_loop/while_loop_body_graph_0#3/cos";
        const auto p = ir::parsePosition(text, why);
        const auto r = p ? ir::resolvePosition(n.graph, *p, why) : std::nullopt;
        QVERIFY2(r, why.c_str());
        const RunStatus st = d.frames().standAt(*r);
        QVERIFY2(st.message.find("iteration 3 of") != std::string::npos, st.message.c_str());
        const auto stack = d.frames().stack();
        QCOMPARE(stack.size(), size_t(2));
        QCOMPARE(stack[0].iteration, int64_t(1));
        QCOMPARE(stack[1].iteration, int64_t(2));
        const io::TensorMap calls = io::readTensorFile(nestedFile("loop_in_loop.calls.pt"));
        const at::Tensor* want = calls.find(text);
        QVERIFY(want);
        const auto shown = shownNestedValue(d, stack.back().path + "/cos");
        QVERIFY(shown);
        QVERIFY(at::allclose(shown->to(at::kDouble), want->to(at::kDouble), 1.3e-6, 1e-5));
        const auto beyond =
            ir::parsePosition("while_loop/while_loop_body_graph_0#2/while_loop/while_loop_body_graph_0#99/cos", why);
        const auto rb = ir::resolvePosition(n.graph, *beyond, why);
        QVERIFY(rb);
        const RunStatus no = d.frames().standAt(*rb);
        QVERIFY2(no.message.find("did not make that call") != std::string::npos, no.message.c_str());
        QCOMPARE(d.frames().stack().size(), size_t(2));  // where it stood
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestNestedFrames)
#include "test_nested_frames.moc"
