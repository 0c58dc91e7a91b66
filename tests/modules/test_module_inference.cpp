// Module inference on hand-built graphs whose right answer is written down
// op by op (what each op's nn.Module forward would be): the weight rule, the
// chain rule (RMSNorm), the neighbour rule (attention glue, residual adds,
// the MLP activation), a shared RoPE table, ModuleLists, an MoE stack.
#include <QtTest>

#include <map>

#include "core/ir/graph_index.h"
#include "core/modules/module_inference.h"
#include "modules/hand_models.h"

using namespace irscope;
using irscope::test::IrBuilder;

namespace {

using irscope::test::Case;
using irscope::test::llama;

std::string moduleOf(const modules::ModuleTree& t, const ir::Graph& g, const std::string& node) {
    for (size_t n = 0; n < g.nodes.size(); ++n)
        if (g.nodes[n].name == node) return t.module(t.moduleOfNode(static_cast<int64_t>(n))).path;
    return "<no such node>";
}

}  // namespace

class TestModuleInference : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyOpOfADenseLlamaLandsInItsModule() {
        const Case c = llama(3, false);
        const ir::GraphIndex index(c.graph);
        const auto tree = modules::inferModuleTree(c.graph, index);
        QCOMPARE(c.truth.size(), c.graph.nodes.size());
        for (const auto& [node, module] : c.truth)
            QCOMPARE(QString::fromStdString(node + " -> " + moduleOf(tree, c.graph, node)),
                     QString::fromStdString(node + " -> " + module));
    }

    void moeRouterAndExpertStackLandInTheMoeBlock() {
        const Case c = llama(3, true);
        const ir::GraphIndex index(c.graph);
        const auto tree = modules::inferModuleTree(c.graph, index);
        for (const auto& [node, module] : c.truth)
            QCOMPARE(QString::fromStdString(node + " -> " + moduleOf(tree, c.graph, node)),
                     QString::fromStdString(node + " -> " + module));
        const auto experts = tree.find("layers.1.mlp.experts");
        QVERIFY(experts > 0);
        QVERIFY(tree.module(experts).isList);
        QCOMPARE(tree.module(experts).opCount, int64_t(0));  // a ModuleList holds no ops
        QCOMPARE(tree.module(experts).weightCount, int64_t(12));
    }

    void repeatedLayersGetTheSameContents() {
        const Case c = llama(4, false);
        const ir::GraphIndex index(c.graph);
        const auto tree = modules::inferModuleTree(c.graph, index);
        const auto layers = tree.find("layers");
        QVERIFY(tree.module(layers).isList);
        QCOMPARE(tree.module(layers).children.size(), size_t(4));
        for (auto l : tree.module(layers).children) {
            QCOMPARE(tree.module(l).opCount, int64_t(19));     // 5 norm + 9 attention + 3 MLP + 2 adds
            QCOMPARE(tree.module(l).nodes.size(), size_t(2));  // the two residual adds
        }
        // Counts add up and every node is in exactly one module.
        int64_t direct = 0;
        for (const auto& m : tree.modules()) direct += static_cast<int64_t>(m.nodes.size());
        QCOMPARE(direct, static_cast<int64_t>(c.graph.nodes.size()));
        QCOMPARE(tree.module(modules::kRootModule).opCount, static_cast<int64_t>(c.graph.nodes.size()));
        QCOMPARE(tree.module(modules::kRootModule).weightCount, static_cast<int64_t>(c.graph.weights.size()));
        QCOMPARE(tree.module(modules::kRootModule).parameterCount, static_cast<int64_t>(16 * c.graph.weights.size()));
    }

    void resnetBlocksHoldTheirReluAddRelu() {
        // torchvision's BasicBlock.forward: conv1, bn1, relu, conv2, bn2, [downsample], add, relu;
        // ResNet.forward: conv1, bn1, relu, maxpool, layer1..4, avgpool, flatten, fc.
        const auto g = ir::loadGraphFile(std::string(IRSCOPE_TEST_DATA) + "/ir/resnet_tiny.json");
        const ir::GraphIndex index(g);
        const auto tree = modules::inferModuleTree(g, index);
        auto direct = [&](const char* path) {
            std::vector<std::string> names;
            for (int64_t n : tree.module(tree.find(path)).nodes) names.push_back(g.nodes[static_cast<size_t>(n)].name);
            return names;
        };
        using V = std::vector<std::string>;
        QCOMPARE(direct(""), (V{"relu_", "max_pool2d_with_indices", "getitem_1", "mean", "_reshape_alias"}));
        QCOMPARE(direct("layer1.0"), (V{"relu__1", "add_", "relu__2"}));
        QCOMPARE(direct("layer2.0"), (V{"relu__3", "add__1", "relu__4"}));
        QCOMPARE(direct("layer4.0"), (V{"relu__7", "add__3", "relu__8"}));
        QCOMPARE(direct("bn1"), (V{"_native_batch_norm_legit_no_training", "getitem"}));  // the getitem of its tuple
        QCOMPARE(direct("layer2.0.downsample.0"), (V{"convolution_5"}));
        QCOMPARE(direct("fc"), (V{"linear"}));
    }

    void aGraphWithoutWeightsStaysAtTheRoot() {
        IrBuilder b;
        b.output(b.op("b", "aten.relu.default", {b.op("a", "aten.neg.default", {"x"})}));
        const auto g = b.graph();
        const ir::GraphIndex index(g);
        const auto tree = modules::inferModuleTree(g, index);
        QCOMPARE(tree.size(), size_t(1));
        QCOMPARE(tree.module(0).nodes, (std::vector<int64_t>{0, 1}));
    }

    void inferenceIsDeterministic() {
        const Case c = llama(3, true);
        const ir::GraphIndex index(c.graph);
        const auto a = modules::inferModuleTree(c.graph, index);
        const auto b = modules::inferModuleTree(c.graph, index);
        QCOMPARE(a.nodeModules(), b.nodeModules());
        QCOMPARE(a.size(), b.size());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestModuleInference)
#include "test_module_inference.moc"
