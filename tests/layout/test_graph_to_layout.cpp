// Building the layout input from torch_ir fixtures: one item per input, op,
// weight use and output, torch_ir's labels, dashed weight edges.
#include <QTest>

#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"
#include "core/layout/graph_to_layout.h"
#include "core/layout/layout.h"
#include "layout/layout_checks.h"

using namespace irscope;
using namespace irscope::layout;

namespace {
ir::Graph load(const char* name) { return ir::loadGraphFile(std::string(IRSCOPE_TEST_DATA) + "/ir/" + name); }
int countKind(const LayoutGraph& g, ItemKind k) {
    int n = 0;
    for (const auto& node : g.nodes) n += node.kind == k;
    return n;
}
const LayoutNode* byName(const LayoutGraph& g, const std::string& name) {
    for (const auto& node : g.nodes)
        if (node.name == name) return &node;
    return nullptr;
}
}  // namespace

class TestGraphToLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bufferVsConstant() {
        // x -> linear(p_linear_weight, p_linear_bias) -> mul(b_scale) -> add(c_offset) -> output
        const auto graph = load("buffer_vs_constant.json");
        const ir::GraphIndex index(graph);
        const auto g = buildLayoutGraph(graph, index);
        QCOMPARE(g.nodes.size(), size_t(9));
        QCOMPARE(countKind(g, ItemKind::GraphInput), 1);
        QCOMPARE(countKind(g, ItemKind::Op), 3);
        QCOMPARE(countKind(g, ItemKind::Parameter), 2);
        QCOMPARE(countKind(g, ItemKind::Buffer), 1);
        QCOMPARE(countKind(g, ItemKind::Constant), 1);
        QCOMPARE(countKind(g, ItemKind::Output), 1);
        QCOMPARE(g.edges.size(), size_t(8));
        int dashed = 0;
        for (const auto& e : g.edges) {
            const bool weight = isWeightItem(g.nodes[e.source].kind);
            QCOMPARE(e.style == EdgeStyle::Dashed, weight);
            dashed += weight;
        }
        QCOMPARE(dashed, 4);

        const auto* linear = byName(g, "linear");
        QVERIFY(linear);
        QCOMPARE(linear->lines, (std::vector<std::string>{"linear", "1x4"}));
        QCOMPARE(linear->family, OpFamily::ConvLinear);
        QCOMPARE(byName(g, "mul")->lines, (std::vector<std::string>{"mul.Tensor", "1x4"}));
        QCOMPARE(byName(g, "mul")->family, OpFamily::Elementwise);
        QCOMPARE(byName(g, "x")->lines, (std::vector<std::string>{"Input: x", "1x4"}));
        QCOMPARE(byName(g, "p_linear_weight")->lines, (std::vector<std::string>{"p_linear_weight", "4x4"}));
        QCOMPARE(byName(g, "c_offset")->kind, ItemKind::Constant);
        QCOMPARE(byName(g, "p_linear_weight")->irIndex, 0);  // weights[0] is linear.weight
        // The x -> linear edge carries the shape; its target input is 0.
        const auto& first = g.edges[0];
        QCOMPARE(g.nodes[first.source].name, std::string("x"));
        QCOMPARE(first.label, std::string("1x4"));
        QCOMPARE(first.targetInput, 0);
        // Sizes: the default estimate is 7.2 px a character, 10 px padding, +10 slant off ops.
        QCOMPARE(linear->width, 63.2);          // "linear": 6 * 7.2 + 2 * 10
        QCOMPARE(byName(g, "x")->width, 87.6);  // "Input: x": 8 * 7.2 + 2 * 10 + 10
        QCOMPARE(linear->height, 42.0);         // 2 lines * 15 + 2 * 6
    }

    void noWeights() {
        const auto graph = load("buffer_vs_constant.json");
        const ir::GraphIndex index(graph);
        GraphLayoutOptions o;
        o.includeWeights = false;
        const auto g = buildLayoutGraph(graph, index, o);
        QCOMPARE(g.nodes.size(), size_t(5));
        QCOMPARE(g.edges.size(), size_t(4));
        for (const auto& e : g.edges) QVERIFY(e.style == EdgeStyle::Solid);
    }

    void customTextWidth() {
        const auto graph = load("buffer_vs_constant.json");
        const ir::GraphIndex index(graph);
        GraphLayoutOptions o;
        o.textWidth = [](std::string_view s) { return 10.0 * static_cast<double>(s.size()); };
        const auto g = buildLayoutGraph(graph, index, o);
        // "mul.Tensor" is 10 characters: 100 + 2 * 10 padding.
        QCOMPARE(byName(g, "mul")->width, 120.0);
        // Two lines of 15 px plus 2 * 6 px padding.
        QCOMPARE(byName(g, "mul")->height, 42.0);
    }

    void getitemLabelShowsIndex() {
        // op_type is the Python repr "<built-in function getitem>"; the
        // drawing says which output is taken: "getitem [i]" from attrs.index.
        // (core/ir keeps shortOpName() as torch_ir's mermaid writes it.)
        const auto graph = load("cnn_bn.json");
        const ir::GraphIndex index(graph);
        const auto g = buildLayoutGraph(graph, index);
        QCOMPARE(byName(g, "getitem")->lines, (std::vector<std::string>{"getitem [0]", "2x6x10x10"}));
        QCOMPARE(byName(g, "getitem_1")->lines, (std::vector<std::string>{"getitem [0]", "2x6x5x5"}));
        QCOMPARE(byName(g, "getitem_2")->lines, (std::vector<std::string>{"getitem [1]", "2x6x5x5"}));
        QCOMPARE(byName(g, "getitem")->width, 11 * 7.2 + 2 * 10);  // sized for the new label
        // Without an integer index (validation flags it) the label is plain "getitem".
        ir::Graph broken = graph;
        for (auto& node : broken.nodes)
            if (node.name == "getitem_2") node.attrs.erase("index");
        const ir::GraphIndex brokenIndex(broken);
        QCOMPARE(byName(buildLayoutGraph(broken, brokenIndex), "getitem_2")->lines.front(), std::string("getitem"));
    }

    void fixturesOneWeightItemPerUse() {
        // tiny ResNet and the Llama block lay out with every weight one layer
        // above its consumer and no overlaps.
        for (const char* file : {"resnet_tiny.json", "llama_block.json", "cnn_bn.json", "masked_linear.json"}) {
            const auto graph = load(file);
            const ir::GraphIndex index(graph);
            const auto g = buildLayoutGraph(graph, index);
            size_t uses = 0;
            for (size_t j = 0; j < graph.nodes.size(); ++j)
                for (size_t i = 0; i < graph.nodes[j].inputs.size(); ++i)
                    uses += index.source(j, i).kind == ir::ValueSource::Kind::Weight;
            QCOMPARE(size_t(countKind(g, ItemKind::Parameter) + countKind(g, ItemKind::Buffer) +
                            countKind(g, ItemKind::Constant) + countKind(g, ItemKind::OtherWeight)),
                     uses);
            const auto r = computeLayout(g);
            QString why;
            QVERIFY2(layout_checks::noOverlaps(r, &why), qPrintable(QString(file) + ": " + why));
            QVERIFY2(layout_checks::edgesPointDown(r, &why), qPrintable(QString(file) + ": " + why));
            for (const auto& e : r.edges)
                if (isWeightItem(r.items[e.source].kind))
                    QCOMPARE(r.items[e.source].layer + 1, r.items[e.target].layer);
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestGraphToLayout)
#include "test_graph_to_layout.moc"
