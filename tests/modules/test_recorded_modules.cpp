// A .pt2's recorded module tree, drawn in the order the model runs: a
// parent's forward that computes each layer's rotary table and KV-cache
// concatenation, and scales the residual stream between layers, as
// nn_module_stack records it (those ops in the parent, not in the layers).
// Layer i+1 is wholly below layer i, as in the JSON of the same model; they
// were side by side, in reverse, with edges climbing back into the boxes.
#include <QtTest>

#include "core/ir/graph_index.h"
#include "core/modules/module_drawing.h"
#include "core/modules/module_inference.h"
#include "modules/ir_builder.h"

using namespace irscope;
using layout::ItemKind;

namespace {

// Three layers; per layer the parent computes `rot_i` (its rotary table) and
// `cat_i` (its cache concatenation), the layer runs norm, attention and the
// residual add, and the parent scales the result (`scale_i`). `shared` is a
// table every layer reads; `head` runs after the last layer.
struct ParentOps {
    ir::Graph graph;
    ParentOps() {
        test::IrBuilder b({"x", "pos", "past"});
        std::vector<std::pair<std::string, std::string>> where;  // node, recorded module
        auto op = [&](const std::string& name, const std::string& type, std::vector<std::string> from,
                      const std::string& module, std::vector<std::string> weights = {}) {
            b.op(name, type, from, weights);
            where.emplace_back(name, module);
            return name;
        };
        const std::string shared = op("shared", "aten.arange.default", {"pos"}, "");
        std::string h = "x";
        for (int i = 0; i < 3; ++i) {
            const std::string s = std::to_string(i), layer = "layers." + s;
            const std::string rot = op("rot_" + s, "aten.cos.default", {"pos"}, "");
            const std::string norm = op("norm_" + s, "aten.mul.Tensor", {h}, layer + ".input_layernorm",
                                        {layer + ".input_layernorm.weight"});
            const std::string q = op("q_" + s, "aten.linear.default", {norm, rot, shared}, layer + ".self_attn",
                                     {layer + ".self_attn.q.weight"});
            const std::string cat = op("cat_" + s, "aten.cat.default", {"past", q}, "");
            const std::string attn = op("attn_" + s, "aten.scaled_dot_product_attention.default", {q, cat}, layer);
            const std::string add = op("add_" + s, "aten.add.Tensor", {h, attn}, layer);
            h = op("scale_" + s, "aten.mul.Tensor", {add}, "");
        }
        const std::string final = op("final", "aten.mul.Tensor", {h}, "norm", {"norm.weight"});
        b.output(op("head", "aten.linear.default", {final}, "", {"lm_head.weight"}));
        graph = b.graph();
        for (const auto& [name, module] : where)
            for (auto& n : graph.nodes)
                if (n.name == name) n.exported.emplace().modulePath = module;
    }
};

const layout::PlacedItem* item(const layout::LayoutResult& r, ItemKind kind, const std::string& name) {
    for (const auto& it : r.items)
        if (it.kind == kind && it.name == name) return &it;
    return nullptr;
}

}  // namespace

class TestRecordedModules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parentOpsJoinTheLayerTheyRunFor() {
        ParentOps m;
        const ir::GraphIndex index(m.graph);
        const auto tree = modules::inferModuleTree(m.graph, index);
        auto moduleOf = [&](const char* node) {
            for (size_t i = 0; i < m.graph.nodes.size(); ++i)
                if (m.graph.nodes[i].name == node) return tree.module(tree.moduleOfNode(static_cast<int64_t>(i))).path;
            return std::string("?");
        };
        for (const char* s : {"0", "1", "2"}) {
            const std::string layer = std::string("layers.") + s;
            QCOMPARE(moduleOf(("rot_" + std::string(s)).c_str()), layer);  // made for it alone
            QCOMPARE(moduleOf(("cat_" + std::string(s)).c_str()), layer);
        }
        QCOMPARE(moduleOf("scale_0"), std::string("layers.0"));  // between layers: the producer's
        QCOMPARE(moduleOf("scale_1"), std::string("layers.1"));
        QCOMPARE(moduleOf("scale_2"), std::string(""));  // after the last layer: the model's
        QCOMPARE(moduleOf("shared"), std::string(""));   // every layer reads it
        QCOMPARE(moduleOf("head"), std::string(""));
        QCOMPARE(moduleOf("q_1"), std::string("layers.1.self_attn"));  // the record itself stands
        // The graph keeps what torch.export wrote.
        for (const auto& n : m.graph.nodes)
            if (n.name == "cat_1") QCOMPARE(*n.recordedModule(), std::string());
    }

    void layersAreStackedInTheOrderTheyRun_data() {
        QTest::addColumn<int>("depth");
        QTest::newRow("layers closed") << 1;
        QTest::newRow("layers open") << 2;
    }
    void layersAreStackedInTheOrderTheyRun() {
        QFETCH(int, depth);
        ParentOps m;
        const ir::GraphIndex index(m.graph);
        const auto tree = modules::inferModuleTree(m.graph, index);
        modules::ModuleDrawing drawing(m.graph, index, tree);
        drawing.expandToDepth(depth);
        const auto r = drawing.compose();
        const ItemKind kind = depth == 1 ? ItemKind::Module : ItemKind::Frame;
        for (int i = 0; i + 1 < 3; ++i) {
            const auto* a = item(r, kind, "layers." + std::to_string(i));
            const auto* b = item(r, kind, "layers." + std::to_string(i + 1));
            QVERIFY2(a && b, "both layers drawn");
            QVERIFY2(b->rect.y >= a->rect.bottom() - 1e-6,
                     qPrintable(QStringLiteral("layers.%1 at y=%2 is not below layers.%3 ending at %4")
                                    .arg(i + 1)
                                    .arg(b->rect.y)
                                    .arg(i)
                                    .arg(a->rect.bottom())));
        }
        QCOMPARE(r.stats.reversedEdges, int64_t(0));  // every edge flows down
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestRecordedModules)
#include "test_recorded_modules.moc"
