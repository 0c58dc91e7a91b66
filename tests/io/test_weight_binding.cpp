// Binding a state_dict (written by PyTorch) to an IR's weights.
#include "core/io/tensor_file.h"
#include "core/io/weight_binding.h"
#include "tensor_test_util.h"

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::io;
using namespace irscope::io::test;

namespace {

// The IR torch_ir would write for tests/data/tensors/make_tensor_fixtures.py's Mlp.
ir::Graph mlpGraph() {
    ir::Graph g;
    g.modelName = "Mlp";
    auto weight = [&](const std::string& placeholder, const std::string& name, ir::Shape shape, std::string dtype) {
        g.weights.push_back({name, std::move(shape), std::move(dtype), {}, 0});
        g.weightNameMapping.emplace_back(placeholder, name);
    };
    weight("p_fc1_weight", "fc1.weight", {8, 4}, "float32");
    weight("p_fc1_bias", "fc1.bias", {8}, "float32");
    weight("p_bn_weight", "bn.weight", {8}, "float32");
    weight("p_bn_bias", "bn.bias", {8}, "float32");
    weight("b_bn_running_mean", "bn.running_mean", {8}, "float32");
    weight("b_bn_running_var", "bn.running_var", {8}, "float32");
    weight("b_bn_num_batches_tracked", "bn.num_batches_tracked", {}, "int64");
    weight("p_fc2_weight", "fc2.weight", {3, 8}, "float32");
    weight("p_fc2_bias", "fc2.bias", {3}, "float32");
    return g;
}

}  // namespace

class TestWeightBinding : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fullMatch() {
        TensorMap sd = readTensorFile(fixture("mlp_state_dict.pt"));
        WeightBinding b = bindWeights(mlpGraph(), sd);
        QVERIFY(b.complete());
        QCOMPARE(b.problems.size(), size_t(0));
        QCOMPARE(b.bound.size(), size_t(9));
        QCOMPARE(QString::fromStdString(b.bound[0].key), QString("fc1.weight"));
        QCOMPARE(b.bound[0].placeholders, std::vector<std::string>{"p_fc1_weight"});
        QVERIFY(b.bound[0].tensor.is_same(*sd.find("fc1.weight")));
    }

    void nestedCheckpointBindsAfterSelect() {
        ReadOptions options;
        options.select = "state_dict";
        QVERIFY(bindWeights(mlpGraph(), readTensorFile(fixture("checkpoint.pt"), options)).complete());
        // Without select the names carry the prefix: nothing matches.
        WeightBinding raw = bindWeights(mlpGraph(), readTensorFile(fixture("checkpoint.pt")));
        QCOMPARE(raw.count(WeightProblem::Kind::Missing), size_t(9));
    }

    void problemsNameBothSides() {
        TensorMap sd = readTensorFile(fixture("mlp_state_dict.pt"));
        ir::Graph g = mlpGraph();
        g.weights[0].shape = {8, 5};             // fc1.weight: shape mismatch
        g.weights[8].dtype = "torch.float16";    // fc2.bias: dtype mismatch
        g.weights[1].name = "fc1.bias_renamed";  // missing, and fc1.bias becomes unexpected
        g.weightNameMapping[1].second = "fc1.bias_renamed";
        WeightBinding b = bindWeights(g, sd);
        QVERIFY(!b.complete());
        QCOMPARE(b.count(WeightProblem::Kind::Missing), size_t(1));
        QCOMPARE(b.count(WeightProblem::Kind::ShapeMismatch), size_t(1));
        QCOMPARE(b.count(WeightProblem::Kind::DTypeMismatch), size_t(1));
        QCOMPARE(b.count(WeightProblem::Kind::Unexpected), size_t(1));
        const std::string file = fixture("mlp_state_dict.pt");
        QStringList messages;
        for (const auto& p : b.problems) messages << QString::fromStdString(p.message);
        QCOMPARE(messages.at(0), QString("p_fc1_bias (state_dict key 'fc1.bias_renamed'): missing from the tensor file "
                                         "(the IR expects [8] float32)"));
        QCOMPARE(messages.at(1),
                 QString::fromStdString("p_fc1_weight (state_dict key 'fc1.weight'): shape [8, 5] in the IR, "
                                        "[8, 4] in " +
                                        file));
        QCOMPARE(messages.at(2),
                 QString::fromStdString("p_fc2_bias (state_dict key 'fc2.bias'): dtype float16 in the IR, "
                                        "float32 in " +
                                        file + " (shapes [3] and [3])"));
        QCOMPARE(messages.at(3), QString::fromStdString("state_dict key 'fc1.bias' ([8] float32, in " + file +
                                                        ") matches no weight of the IR"));
        QCOMPARE(b.problems[1].irShape, (ir::Shape{8, 5}));
        QCOMPARE(b.problems[1].fileShape, (std::vector<int64_t>{8, 4}));
    }

    void placeholderKeysAndConstants() {
        TensorMap file;
        file.insert("p_w", at::ones({2}));  // saved by placeholder name
        ir::Graph g;
        g.weights.push_back({"w", {2}, "float32", {}, 0});
        g.weights.push_back({"mask", {2}, "bool", {}, 0});
        g.weightNameMapping = {{"p_w", "w"}, {"c_mask", "mask"}};
        g.constants.emplace_back("mask", ir::ConstantValue{"bool", {2}, {1, 0}, {}, {}});
        WeightBinding b = bindWeights(g, file);
        QVERIFY(b.complete());
        QCOMPARE(b.bound.size(), size_t(1));
        QCOMPARE(b.fromConstants, std::vector<std::string>{"mask"});
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestWeightBinding)
#include "test_weight_binding.moc"
