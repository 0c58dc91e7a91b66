// The collapsed drawing on hand-built models: what is a box, a frame, an op
// at each expansion; frames hold their contents; ports; weight bundles;
// one-op modules drawn as their op; the first view's budget; reveal.
#include <QtTest>

#include "core/ir/graph_index.h"
#include "core/modules/frame_junctions.h"
#include "core/modules/module_drawing.h"
#include "core/modules/module_inference.h"
#include "modules/hand_models.h"

using namespace irscope;
using layout::ItemKind;

namespace {

struct Drawn {
    test::Case c = test::llama(3, true);  // layer 0 dense, layers 1-2 MoE with 12 experts
    ir::GraphIndex index{c.graph};
    modules::ModuleTree tree = modules::inferModuleTree(c.graph, index);
    modules::ModuleDrawing drawing{c.graph, index, tree};
    modules::ModuleId id(const char* path) const { return tree.find(path); }
};

int count(const layout::LayoutResult& r, ItemKind kind) {
    int n = 0;
    for (const auto& it : r.items) n += it.kind == kind;
    return n;
}

const layout::PlacedItem* item(const layout::LayoutResult& r, ItemKind kind, const std::string& name) {
    for (const auto& it : r.items)
        if (it.kind == kind && it.name == name) return &it;
    return nullptr;
}

bool inside(const layout::Rect& inner, const layout::Rect& outer) {
    return inner.x >= outer.x - 1e-6 && inner.y >= outer.y - 1e-6 && inner.right() <= outer.right() + 1e-6 &&
           inner.bottom() <= outer.bottom() + 1e-6;
}

}  // namespace

class TestModuleDrawing : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void depthOneShowsTheModelsChildren() {
        Drawn d;
        d.drawing.expandToDepth(1);
        const auto r = d.drawing.compose();
        // The ModuleList opens with the model: three layer boxes in a "layers" frame;
        // the final norm is a box; embedding and lm_head (one op each) are their ops.
        QCOMPARE(count(r, ItemKind::Frame), 1);
        QVERIFY(item(r, ItemKind::Frame, "layers"));
        QCOMPARE(count(r, ItemKind::Module), 4);
        for (const char* m : {"layers.0", "layers.1", "layers.2", "norm"}) QVERIFY2(item(r, ItemKind::Module, m), m);
        QVERIFY(item(r, ItemKind::Op, "embed"));
        QVERIFY(item(r, ItemKind::Op, "logits"));
        QCOMPARE(count(r, ItemKind::Op), 2);
        QCOMPARE(d.drawing.visibleItems(), int64_t(6));
        // The layer box says what it is.
        const auto* l1 = item(r, ItemKind::Module, "layers.1");
        QCOMPARE(l1->lines.size(), size_t(2));
        QCOMPARE(l1->lines[1], std::string("layer · 23 ops · 17 weights"));  // 5 norm, 9 attention, 7 MoE, 2 adds
        const auto* frame = item(r, ItemKind::Frame, "layers");
        for (const char* m : {"layers.0", "layers.1", "layers.2"})
            QVERIFY(inside(item(r, ItemKind::Module, m)->rect, frame->rect));
    }

    void openingALayerFramesItsContentsWithPorts() {
        Drawn d;
        d.drawing.expandToDepth(1);
        d.drawing.setExpanded(d.id("layers.0"), true);
        const auto r = d.drawing.compose();
        const auto* frame = item(r, ItemKind::Frame, "layers.0");
        QVERIFY(frame);
        for (const char* m : {"layers.0.input_layernorm", "layers.0.self_attn", "layers.0.mlp"}) {
            const auto* box = item(r, ItemKind::Module, m);
            QVERIFY2(box, m);
            QVERIFY2(inside(box->rect, frame->rect), m);
        }
        const auto* add1 = item(r, ItemKind::Op, "add1_0");
        QVERIFY(add1);
        QVERIFY(inside(add1->rect, frame->rect));
        // The embedding output enters layers.0 through one port inside its frame.
        // (The "layers" frame has one too: the value enters the list, then the layer.)
        int portsInLayer = 0;
        for (const auto& it : r.items)
            if (it.kind == ItemKind::Port && it.name == "embed" && inside(it.rect, frame->rect)) ++portsInLayer;
        QCOMPARE(portsInLayer, 1);
        // ... drawn as a junction, not as a second box of the value: one
        // line from the embedding op into "layers", on into "layers.0", to
        // its readers. Every port is a labelless dot; exactly one edge ends
        // at its centre (no arrowhead there) and every edge it feeds starts there.
        int ports = 0;
        for (size_t p = 0; p < r.items.size(); ++p) {
            const auto& port = r.items[p];
            if (port.kind != ItemKind::Port) continue;
            ++ports;
            QVERIFY2(port.lines.empty(), port.name.c_str());
            QCOMPARE(port.rect.width, modules::kJunctionSize);
            const auto dot = port.rect.center();
            int into = 0, outOf = 0;
            for (const auto& e : r.edges) {
                if (e.target == static_cast<int32_t>(p)) {
                    ++into;
                    QVERIFY(e.points.back().x == dot.x && e.points.back().y == dot.y);
                }
                if (e.source == static_cast<int32_t>(p)) {
                    ++outOf;
                    QVERIFY(e.points.front().x == dot.x && e.points.front().y == dot.y);
                }
            }
            QVERIFY2(into == 1 && outOf >= 1, port.name.c_str());
        }
        QVERIFY(ports >= 2);  // "embed" enters "layers" and "layers.0"
        QCOMPARE(r.items[0].kind, ItemKind::GraphInput);
        // Frames come before what they hold (drawn behind it).
        int frameIndex = -1, boxIndex = -1;
        for (size_t i = 0; i < r.items.size(); ++i) {
            if (r.items[i].name == "layers.0" && r.items[i].kind == ItemKind::Frame) frameIndex = static_cast<int>(i);
            if (r.items[i].name == "layers.0.mlp") boxIndex = static_cast<int>(i);
        }
        QVERIFY(frameIndex >= 0 && frameIndex < boxIndex);
        // Edges stay within the drawing and connect existing items.
        for (const auto& e : r.edges) {
            QVERIFY(e.source >= 0 && e.source < static_cast<int32_t>(r.items.size()));
            QVERIFY(e.target >= 0 && e.target < static_cast<int32_t>(r.items.size()));
        }
        // Closing it again gives the first picture back, bit for bit.
        d.drawing.setExpanded(d.id("layers.0"), false);
        const auto again = d.drawing.compose();
        Drawn fresh;
        fresh.drawing.expandToDepth(1);
        const auto ref = fresh.drawing.compose();
        QCOMPARE(again.items.size(), ref.items.size());
        for (size_t i = 0; i < ref.items.size(); ++i) QVERIFY(again.items[i].rect == ref.items[i].rect);
    }

    void everythingOpenDrawsEveryOpOnce() {
        Drawn d;
        d.drawing.expandAll();
        const auto r = d.drawing.compose();
        std::vector<int> seen(d.c.graph.nodes.size(), 0);
        for (const auto& it : r.items)
            if (it.kind == ItemKind::Op) ++seen[static_cast<size_t>(it.irIndex)];
        for (size_t n = 0; n < seen.size(); ++n) QVERIFY2(seen[n] == 1, d.c.graph.nodes[n].name.c_str());
        QCOMPARE(count(r, ItemKind::Module), 0);
        for (int64_t n = 0; n < static_cast<int64_t>(d.c.graph.nodes.size()); ++n) QVERIFY(d.drawing.isNodeVisible(n));
    }

    void expertWeightsOfAStackAreOneBundle() {
        Drawn d;
        d.drawing.expandAll();
        const auto r = d.drawing.compose();
        int bundles = 0;
        for (const auto& it : r.items) {
            if (it.kind != ItemKind::Parameter || it.count == 1) continue;
            ++bundles;
            QCOMPARE(it.count, 12);
            QVERIFY(it.lines[0] == "12 × layers.1.mlp.experts.{0..11}.up_proj.weight" ||
                    it.lines[0] == "12 × layers.2.mlp.experts.{0..11}.up_proj.weight");
            QCOMPARE(it.lines[1], std::string("4x4"));
        }
        QCOMPARE(bundles, 2);
        // Nothing else of the 24 expert weights is drawn on its own.
        for (const auto& it : r.items) QVERIFY(it.name.find("experts") == std::string::npos || it.count == 12);
    }

    // One level of structure at a glance, though all 61 ops would fit: the
    // model's children, its three layers and the final norm as boxes.
    void theFirstViewShowsOneLevel() {
        Drawn d;
        d.drawing.expandInitial(150);
        QVERIFY(d.drawing.isExpanded(d.id("layers")));  // a list opens with its parent
        for (const char* layer : {"layers.0", "layers.1", "layers.2"})
            QVERIFY2(!d.drawing.isExpanded(d.id(layer)), layer);
        QCOMPARE(d.drawing.visibleItems(), int64_t(6));
        d.drawing.expandInitial(4);  // over the budget: the model's children all the same
        QCOMPARE(d.drawing.visibleItems(), int64_t(6));
    }

    // A wrapper of one child (a causal LM around its decoder) opens on the way
    // to the first level that shows structure.
    void theFirstViewOpensAWrapper() {
        test::Case c = test::llama(3, true);
        const auto wrapped = [](std::string& name) {
            if (name.rfind("lm_head", 0) != 0) name = "model." + name;
        };
        for (auto& w : c.graph.weights) wrapped(w.name);
        for (auto& [placeholder, original] : c.graph.weightNameMapping) wrapped(original);
        ir::GraphIndex index{c.graph};
        const modules::ModuleTree tree = modules::inferModuleTree(c.graph, index);
        modules::ModuleDrawing drawing{c.graph, index, tree};
        drawing.expandInitial(150);
        QVERIFY(tree.find("model") != modules::kNoModule);
        QVERIFY(drawing.isExpanded(tree.find("model")));
        QVERIFY(!drawing.isExpanded(tree.find("model.layers.0")));
    }

    void revealOpensThePathToANode() {
        Drawn d;
        d.drawing.expandToDepth(1);
        int64_t mm = -1;
        for (size_t n = 0; n < d.c.graph.nodes.size(); ++n)
            if (d.c.graph.nodes[n].name == "mm_2") mm = static_cast<int64_t>(n);
        QVERIFY(!d.drawing.isNodeVisible(mm));
        QCOMPARE(d.drawing.visibleModuleOf(mm), d.id("layers.2"));
        QVERIFY(d.drawing.reveal(mm));
        QVERIFY(d.drawing.isNodeVisible(mm));
        QCOMPARE(d.drawing.visibleModuleOf(mm), d.id("layers.2.self_attn"));
        QVERIFY(!d.drawing.reveal(mm));
        const auto r = d.drawing.compose();
        QVERIFY(item(r, ItemKind::Op, "mm_2"));
        QVERIFY(item(r, ItemKind::Module, "layers.1"));  // the other layers stay closed
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestModuleDrawing)
#include "test_module_drawing.moc"
