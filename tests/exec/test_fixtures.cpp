// End to end on IRs made by tests/data/make_ir_fixtures.py: every fixture runs
// and matches the outputs PyTorch computed by running the module eagerly;
// every node's result agrees with its TensorMeta; the meta-device form fails
// pre-flight listing the c_ constants and passes once they are supplied;
// intermediates match PyTorch's, and a planted wrong value is found first.
#include "exec_test_util.h"

#include "core/exec/engine/executor.h"
#include "core/exec/engine/session.h"
#include "core/exec/numerics/verify.h"
#include "core/io/tensor_file.h"

#include <QtTest/QtTest>
#include "test_support.h"

using namespace irscope;
using namespace irscope::exec;

using irscope::test::irPath;

namespace {}  // namespace

class TestFixtures : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matchesPyTorch_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("policy");
        for (const char* n : {"simple_mlp", "masked_linear", "gather_with_index", "buffer_vs_constant", "resnet_tiny",
                              "cnn_bn", "llama_block"})
            for (int p : {0, 1}) QTest::newRow((std::string(n) + (p ? "/free" : "/keep")).c_str()) << n << p;
    }
    void matchesPyTorch() {
        QFETCH(QString, name);
        QFETCH(int, policy);
        const std::string n = name.toStdString();
        ir::Graph g = ir::loadGraphFile(irPath(n + ".json"));
        Session s(g, policy ? RetentionPolicy::FreeAfterLastUse : RetentionPolicy::KeepAll);
        io::TensorMap inputs = io::readTensorFile(irPath(n + ".inputs.pt"));
        io::TensorMap weights = io::readTensorFile(irPath(n + ".weights.pt"));
        s.setWeights(weights);
        s.setInputs(inputs);
        QVERIFY(s.preflight().empty());
        RunResult r = s.runToEnd();
        QVERIFY2(r.reason == StopReason::Finished, r.error ? r.error->message.c_str() : "not finished");
        for (int64_t i = 0; i < s.nodeCount(); ++i) {
            auto d = s.diagnostics(i);
            QVERIFY2(d.empty(), (g.nodes[i].name + ": " + (d.empty() ? "" : d[0])).c_str());
        }
        io::TensorMap expected = io::readTensorFile(irPath(n + ".expected.pt"));
        auto cmp = compareOutputs(s, expected, Tolerance{1e-4, 1e-5});
        QCOMPARE(cmp.size(), g.graphOutputs.size());
        for (const auto& c : cmp)
            QVERIFY2(c.matched, (c.name + ": " + c.problem + " max abs diff " + std::to_string(c.maxAbsDiff)).c_str());
        // Loaded weights and inputs are never modified (ResNet has relu_/add_ on activations).
        io::TensorMap inputs2 = io::readTensorFile(irPath(n + ".inputs.pt"));
        for (const auto& e : inputs) QVERIFY(at::equal(e.tensor, *inputs2.find(e.name)));
        io::TensorMap weights2 = io::readTensorFile(irPath(n + ".weights.pt"));
        for (const auto& e : weights) QVERIFY(at::equal(e.tensor, *weights2.find(e.name)));
        if (policy) {
            // Only graph outputs survive (every intermediate was consumed).
            for (const auto& node : g.nodes)
                for (const auto& o : node.outputs) {
                    bool isOutput = std::any_of(g.graphOutputs.begin(), g.graphOutputs.end(),
                                                [&](const auto& m) { return m.name == o.name; });
                    if (!isOutput) QVERIFY2(!s.hasValue(o.name), o.name.c_str());
                }
        }
    }

    void metaFormNeedsConstants_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("missing");
        QTest::newRow("masked_linear") << "masked_linear" << QStringList{"c_mask"};
        QTest::newRow("gather_with_index") << "gather_with_index" << QStringList{"c_indices"};
        QTest::newRow("buffer_vs_constant") << "buffer_vs_constant" << QStringList{"c_offset"};
        // Non-persistent buffers (b_) come from "constants" too, like the lifted c_positions.
        QTest::newRow("llama_block") << "llama_block" << QStringList{"b_rope_cos", "b_rope_sin", "c_positions"};
    }
    void metaFormNeedsConstants() {
        QFETCH(QString, name);
        QFETCH(QStringList, missing);
        const std::string n = name.toStdString();
        ir::Graph g = ir::loadGraphFile(irPath(n + ".meta.json"));
        Session s(g);
        s.setWeights(io::readTensorFile(irPath(n + ".weights.pt")));
        s.setInputs(io::readTensorFile(irPath(n + ".inputs.pt")));
        auto pre = s.preflight();
        QStringList got;
        for (const auto& m : pre) {
            got << QString::fromStdString(m.name);
            QVERIFY(!m.nodes.empty());
        }
        got.sort();
        QCOMPARE(got, missing);
        // Running anyway stops before the first node that needs one, as at a
        // breakpoint: nothing failed, the node is still to run, and the stop
        // names the value (the CLI words it as torch_ir does).
        RunResult r = s.runToEnd();
        QCOMPARE(r.reason, StopReason::MissingValue);
        QVERIFY(!r.error);
        QVERIFY(r.missing);
        const int64_t stoppedAt = s.cursor();
        QCOMPARE(s.state(stoppedAt), NodeState::Pending);
        const std::string node = g.nodes[static_cast<size_t>(stoppedAt)].name;
        QCOMPARE(r.missing->nodes, std::vector<std::string>{node});
        bool listed = false;  // the value is one pre-flight named, needed by that node
        for (const auto& m : pre)
            if (m.name == r.missing->name) listed = std::find(m.nodes.begin(), m.nodes.end(), node) != m.nodes.end();
        QVERIFY(listed);
        if (n == "masked_linear") {
            QCOMPARE(node, std::string("mul"));
            QCOMPARE(r.missing->name, std::string("c_mask"));
            QCOMPARE(torchIrMissingMessage(r.missing->name, node),
                     std::string("Weight/input 'c_mask' not found in registry for node 'mul'."));
        }
        // With the constants supplied (by original name) it runs and matches.
        s.setConstants(io::readTensorFile(irPath(n + ".constants.pt")));
        QVERIFY(s.preflight().empty());
        r = s.runToEnd();
        QVERIFY2(r.reason == StopReason::Finished, r.error ? r.error->message.c_str() : "");
        for (const auto& c : compareOutputs(s, io::readTensorFile(irPath(n + ".expected.pt")), Tolerance{1e-4, 1e-5}))
            QVERIFY(c.matched);
    }

    void userConstantsOverrideIr() {
        ir::Graph g = ir::loadGraphFile(irPath("masked_linear.json"));
        Session s(g);
        s.setWeights(io::readTensorFile(irPath("masked_linear.weights.pt")));
        s.setInputs(io::readTensorFile(irPath("masked_linear.inputs.pt")));
        io::TensorMap c;
        c.insert("mask", at::zeros({4}));
        s.setConstants(c);
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        at::Tensor out;
        QVERIFY(s.value("mul", out));
        QVERIFY(at::equal(out, at::zeros({1, 4})));
    }

    void intermediatesAndFirstDivergence() {
        ir::Graph g = ir::loadGraphFile(irPath("llama_block.json"));
        Session s(g);
        s.setWeights(io::readTensorFile(irPath("llama_block.weights.pt")));
        s.setInputs(io::readTensorFile(irPath("llama_block.inputs.pt")));
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        auto good =
            compareIntermediates(s, io::readTensorFile(irPath("llama_block.intermediates.pt")), Tolerance{1e-4, 1e-5});
        QVERIFY2(!good.first, good.first ? good.first->nodeName.c_str() : "");
        QVERIFY(good.compared >= static_cast<int64_t>(g.nodes.size()));
        auto bad = compareIntermediates(s, io::readTensorFile(irPath("llama_block.intermediates_bad.pt")),
                                        Tolerance{1e-4, 1e-5});
        QVERIFY(bad.first);
        QFile f(QString::fromStdString(irPath("llama_block.intermediates_bad.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        auto planted = nlohmann::json::parse(f.readAll().toStdString());
        QCOMPARE(bad.first->nodeName, planted["node"].get<std::string>());
        QCOMPARE(bad.first->comparison.worstIndex, std::vector<int64_t>(4, 0));  // planted at flat index 0
        QVERIFY(std::abs(bad.first->comparison.maxAbsDiff - 1.0) < 1e-4);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestFixtures)
#include "test_fixtures.moc"
