// GraphIndex on hand-checked graphs: producers, consumers, kinds, by-name lookup.
#include <QtTest>

#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"
#include "test_support.h"

using namespace irscope;
using irscope::test::dataPath;
using Kind = ir::ValueSource::Kind;

class TestGraphIndex : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void resolvesProducersAndWeights() {
        const auto g = ir::loadGraphFile(dataPath("seeds/MaskedLinear.json"));
        const ir::GraphIndex index(g);
        QCOMPARE(*index.nodeIndex("mul"), int64_t(1));
        QVERIFY(!index.nodeIndex("nope"));
        QVERIFY(index.source(0, 0).kind == Kind::GraphInput);
        QVERIFY(index.source(0, 1).kind == Kind::Weight);
        QCOMPARE(index.source(0, 1).index, int64_t(0));  // weights[0] = linear.weight
        QVERIFY(index.source(1, 0).kind == Kind::NodeOutput);
        QCOMPARE(index.source(1, 0).index, int64_t(0));
        QCOMPARE(index.source(1, 1).index, int64_t(2));  // c_mask -> mask -> weights[2]
        QCOMPARE(index.consumersOf(0, 0).size(), size_t(1));
        QCOMPARE(index.consumersOf(0, 0)[0].node, int64_t(1));
        QCOMPARE(index.consumersOfGraphInput(0).size(), size_t(1));
        QCOMPARE(index.producerNodes(1), (std::vector<int64_t>{0}));
        QCOMPARE(index.consumerNodes(0), (std::vector<int64_t>{1}));
        QCOMPARE(index.usesOfWeight(2).size(), size_t(1));
        QCOMPARE(*index.originalName("c_mask"), std::string("mask"));
        QCOMPARE(index.placeholdersOf("mask"), (std::vector<std::string>{"c_mask"}));
        QVERIFY(index.constant("mask") != nullptr);
    }

    void classifiesTensorKinds() {
        const std::string text =
            "{\"graph_inputs\": [{\"name\": \"x\", \"shape\": [1]}], \"graph_outputs\": [], \"weights\": [],"
            " \"weight_name_mapping\": {\"p_w\": \"w\", \"b_rm\": \"rm\", \"c_k\": \"k\", \"odd\": \"o\"},"
            " \"nodes\": [{\"name\": \"a\", \"op_type\": \"aten.relu.default\", \"inputs\": [], \"outputs\": "
            "[{\"name\": \"a\", \"shape\": [1]}]}]}";
        const auto g = ir::parseGraph(text, "k.json");
        const ir::GraphIndex index(g);
        QVERIFY(index.kindOf("p_w") == ir::TensorKind::Parameter);
        QVERIFY(index.kindOf("b_rm") == ir::TensorKind::Buffer);
        QVERIFY(index.kindOf("c_k") == ir::TensorKind::Constant);
        QVERIFY(index.kindOf("odd") == ir::TensorKind::OtherWeight);
        QVERIFY(index.kindOf("x") == ir::TensorKind::GraphInput);
        QVERIFY(index.kindOf("a") == ir::TensorKind::Activation);
        QVERIFY(index.kindOf("zzz") == ir::TensorKind::Unknown);
    }

    void resolvesByNameWithoutProducerFields() {
        // Older files: no producer_node anywhere; inputs are found by tensor name.
        const std::string text =
            "{\"graph_inputs\": [{\"name\": \"x\", \"shape\": [2]}], \"graph_outputs\": [{\"name\": \"s_1\", "
            "\"shape\": [1]}],"
            " \"weights\": [{\"name\": \"w\", \"shape\": [2]}], \"weight_name_mapping\": {\"p_w\": \"w\"},"
            " \"nodes\": ["
            "{\"name\": \"s\", \"op_type\": \"aten.split.Tensor\", \"inputs\": [{\"name\": \"x\", \"shape\": [2]}],"
            "  \"outputs\": [{\"name\": \"s_0\", \"shape\": [1]}, {\"name\": \"s_1\", \"shape\": [1]}]},"
            "{\"name\": \"m\", \"op_type\": \"aten.mul.Tensor\", \"inputs\": [{\"name\": \"s_1\", \"shape\": [1]},"
            "  {\"name\": \"p_w\", \"shape\": [2]}], \"outputs\": [{\"name\": \"m\", \"shape\": [2]}]}]}";
        const auto g = ir::parseGraph(text, "n.json");
        const ir::GraphIndex index(g);
        QVERIFY(index.source(0, 0).kind == Kind::GraphInput);
        QVERIFY(index.source(1, 0).kind == Kind::NodeOutput);
        QCOMPARE(index.source(1, 0).index, int64_t(0));
        QCOMPARE(index.source(1, 0).outputIndex, int64_t(1));
        QVERIFY(index.source(1, 1).kind == Kind::Weight);
        QCOMPARE(index.consumersOf(0, 1).size(), size_t(1));
        QCOMPARE(index.consumersOf(0, 0).size(), size_t(0));
        QCOMPARE(index.producerOfTensor("s_1")->second, int64_t(1));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestGraphIndex)
#include "test_graph_index.moc"
