// The values of subgraph calls at any depth, by execution position, against
// PyTorch's, within assert_close's tolerance (tests/data/nested/, make_nested_programs.py: each subgraph's
// GraphModule run by an fx.Interpreter inside PyTorch's own higher-order op,
// every value recorded under the same positions). Also: a run that frees its
// values still records what every call did (branches, body calls) at every
// depth, and a position names exactly one recorded call.
#include "nested_corpus.h"
#include "test_support.h"

#include <QDir>

#include <ATen/ATen.h>

#include "core/exec/engine/call_paths.h"
#include "core/exec/engine/session.h"
#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/tensor_file.h"
#include "core/ir/json_io.h"

#include <QtTest/QtTest>

namespace {

std::string nestedPath(const std::string& file) { return irscope::test::nestedFile(file); }
QStringList nestedCases() { return irscope::test::nestedPrograms(); }

struct NestedRun {
    irscope::ir::Graph graph;
    std::unique_ptr<irscope::exec::Session> session;
    NestedRun(const std::string& name, irscope::exec::RetentionPolicy policy) {
        const std::string path = nestedPath(name + ".pt2");
        graph = irscope::ir::loadGraphFile(path);
        session = std::make_unique<irscope::exec::Session>(graph, policy);
        session->setWeights(irscope::io::readTensorFile(path));
        irscope::io::ReadOptions inputs;
        irscope::io::selectInputsOf(path, inputs);
        session->setInputs(irscope::io::readTensorFile(path, inputs));
        const auto r = session->runToEnd();
        if (!session->finished()) throw std::runtime_error(name + " did not run to its end");
        (void)r;
    }
};

}  // namespace

class TestCallPaths : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void valuesArePyTorchs_data() {
        QTest::addColumn<QString>("name");
        for (const QString& n : nestedCases()) QTest::newRow(qPrintable(n)) << n;
    }
    void valuesArePyTorchs() {
        QFETCH(QString, name);
        const NestedRun run(name.toStdString(), irscope::exec::RetentionPolicy::KeepAll);
        irscope::io::TensorMap mine;
        irscope::exec::recordedCallValues(run.graph, run.session->executor(), mine);
        const auto torch = irscope::io::readTensorFile(nestedPath(name.toStdString() + ".calls.pt"));
        int compared = 0;
        for (const auto& e : torch) {
            if (e.name.find("_unused_") != std::string::npos) continue;  // an output irscope's graph has no node for
            const at::Tensor* v = mine.find(e.name);
            QVERIFY2(v, e.name.c_str());
            QCOMPARE(v->sizes().vec(), e.tensor.sizes().vec());
            QCOMPARE(v->scalar_type(), e.tensor.scalar_type());
            // Within assert_close's float32 defaults: the values were
            // recorded by PyTorch on the machine that made the fixture, and
            // CPU kernels differ in the last bit from one processor to
            // another (cli.pt2_programs compares bit for bit with PyTorch
            // run on the checking machine).
            const bool same = at::allclose(v->to(at::kDouble), e.tensor.to(at::kDouble), 1.3e-6, 1e-5);
            QVERIFY2(same, e.name.c_str());
            ++compared;
        }
        QVERIFY(compared >= 6);
    }

    // `irscope run` frees values; the record of every call stays.
    void structureWithoutValues() {
        const NestedRun run("branch_in_loop", irscope::exec::RetentionPolicy::FreeAfterLastUse);
        const auto runs = irscope::exec::higherOrderRuns(run.graph, run.session->executor());
        QStringList lines;
        for (const auto& r : runs)
            lines << QString::fromStdString(r.position.text() + " " + r.op + " " + r.branch.value_or("") +
                                            (r.iterations ? std::to_string(*r.iterations) : ""));
        QCOMPARE(lines,
                 (QStringList{"while_loop while_loop 3", "while_loop/while_loop_body_graph_0#1/cond cond true_graph_0",
                              "while_loop/while_loop_body_graph_0#2/cond cond false_graph_0",
                              "while_loop/while_loop_body_graph_0#3/cond cond false_graph_0"}));
        irscope::io::TensorMap values;
        irscope::exec::recordedCallValues(run.graph, run.session->executor(), values);
        QVERIFY(values.empty());
    }

    // A position names one recorded call at every level.
    void positionNamesOneCall() {
        const NestedRun run("loop_in_loop", irscope::exec::RetentionPolicy::KeepAll);
        std::string why;
        const auto p = irscope::ir::parsePosition(
            "while_loop/while_loop_body_graph_0#2/while_loop/while_loop_body_graph_0#3/cos", why);
        QVERIFY2(p, why.c_str());
        const auto r = irscope::ir::resolvePosition(run.graph, *p, why);
        QVERIFY2(r, why.c_str());
        const auto* call = irscope::exec::callAt(run.session->executor(), *r, why);
        QVERIFY2(call, why.c_str());
        QCOMPARE(call->iteration, int64_t{2});
        const auto torch = irscope::io::readTensorFile(nestedPath("loop_in_loop.calls.pt"));
        const at::Tensor* expected = torch.find(p->text());
        QVERIFY(expected);
        QVERIFY(call->values.count("cos"));
        QVERIFY(at::allclose(call->values.at("cos"), *expected));
        // The third outer call was never made.
        const auto beyond = irscope::ir::parsePosition("while_loop/while_loop_body_graph_0#3/while_loop", why);
        const auto rb = irscope::ir::resolvePosition(run.graph, *beyond, why);
        QVERIFY(rb);
        QVERIFY(!irscope::exec::callAt(run.session->executor(), *rb, why));
        QVERIFY2(why.find("2 times") != std::string::npos, why.c_str());
    }

    void positionText() {
        std::string why;
        const auto p = irscope::ir::parsePosition("cond/true_graph_0/while_loop/while_loop_body_graph_0#2/tanh", why);
        QVERIFY(p);
        QCOMPARE(p->frames.size(), size_t{2});
        QCOMPARE(p->frames[0].call, int64_t{0});
        QCOMPARE(p->frames[1].call, int64_t{2});
        QCOMPARE(p->node, std::string("tanh"));
        QCOMPARE(p->text(), std::string("cond/true_graph_0/while_loop/while_loop_body_graph_0#2/tanh"));
        QVERIFY(irscope::ir::parsePosition("tanh", why)->topLevel());
        QVERIFY(!irscope::ir::parsePosition("a//b", why));
        QVERIFY(!irscope::ir::parsePosition("a/b#x/c", why));
        QVERIFY(!irscope::ir::parsePosition("a/b", why));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestCallPaths)
#include "test_call_paths.moc"
