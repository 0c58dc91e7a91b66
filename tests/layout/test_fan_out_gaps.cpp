// Fan-out gaps (core/layout/fan_out_gaps.h) as the layering applies them:
// an op whose weight-fed consumers would share the layer below it gets one
// layer more on those edges, and only then. Hand-built graphs shaped like
// the models it is for: a LayerNorm feeding q, k and v projections with
// weights and biases (a ViT block), a norm feeding two projections, an
// encoder output read by cross-attention projections at different depths.
#include <QTest>

#include <cstdint>
#include <vector>

#include "core/layout/layering.h"
#include "core/layout/layout.h"
#include "layout/hand_built_graph.h"

using namespace irscope::layout;
using namespace irscope::layout::detail;
using hand_built_graph::addEdge;
using hand_built_graph::box;

namespace {

// A layer_norm reading `from`.
int32_t normOf(LayoutGraph& g, int32_t from) {
    const int32_t norm = g.addNode(box("layer_norm"));
    addEdge(g, from, norm);
    return norm;
}

// A linear reading `from`, with a weight and a bias.
int32_t projection(LayoutGraph& g, int32_t from, const char* name) {
    const int32_t lin = g.addNode(box(name));
    addEdge(g, from, lin);
    for (const char* w : {"weight", "bias"}) {
        const int32_t p = g.addNode(box(w, ItemKind::Parameter));
        addEdge(g, p, lin, EdgeStyle::Dashed);
    }
    return lin;
}

}  // namespace

class TestFanOutGaps : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void attentionProjectionsMoveDownALayer() {
        // x -> norm -> q, k, v (each with weight and bias) -> sdpa.
        LayoutGraph g;
        const int32_t x = g.addNode(box("x", ItemKind::GraphInput));
        const int32_t norm = normOf(g, x);
        const int32_t sdpa = g.addNode(box("sdpa"));
        std::vector<int32_t> qkv;
        for (const char* name : {"q", "k", "v"}) {
            qkv.push_back(projection(g, norm, name));
            addEdge(g, qkv.back(), sdpa);
        }
        const Layering l = assignLayers(g);
        QVERIFY(l.gaps.any());
        for (int32_t p : qkv) {
            QCOMPARE(l.layer[p], l.layer[norm] + 2);
            QCOMPARE(l.gaps(norm, p), 2);
        }
        QCOMPARE(l.gaps(x, norm), 1);
        // The projections' weights sit in the layer the gap opened.
        for (int32_t v = 0; v < static_cast<int32_t>(g.nodes.size()); ++v)
            if (g.nodes[v].kind == ItemKind::Parameter) QCOMPARE(l.layer[v], l.layer[norm] + 1);
        // The settled layering keeps the gap.
        const Layering settled = settleLayering(g, l);
        for (int32_t p : qkv) QCOMPARE(settled.layer[p], settled.layer[norm] + 2);
    }

    void twoConsumersKeepTheirLayer_data() {
        QTest::addColumn<bool>("readTwice");
        QTest::newRow("two projections") << false;
        QTest::newRow("one of them reading twice") << true;
    }

    void twoConsumersKeepTheirLayer() {
        // Two weight-fed consumers: each one's weights go on its outer side
        // and nothing crosses, so no gap. A consumer reading the norm twice
        // (as x * x would) is still one: three edges, no gap.
        QFETCH(bool, readTwice);
        LayoutGraph g;
        const int32_t x = g.addNode(box("x", ItemKind::GraphInput));
        const int32_t norm = normOf(g, x);
        const int32_t a = projection(g, norm, "gate");
        if (readTwice) addEdge(g, norm, a);
        const int32_t b = projection(g, norm, "up");
        const Layering l = assignLayers(g);
        QVERIFY(!l.gaps.any());
        QCOMPARE(l.layer[a], l.layer[norm] + 1);
        QCOMPARE(l.layer[b], l.layer[norm] + 1);
    }

    void consumersAtDifferentDepthsGetNoGap() {
        // An encoder output read by three cross-attention projections, each
        // beside a decoder chain that reaches it at a different depth: only
        // the first is one layer below the output, so its edges cross
        // nothing there and none of them is lengthened.
        LayoutGraph g;
        const int32_t src = g.addNode(box("src", ItemKind::GraphInput));
        const int32_t memory = g.addNode(box("encoder_norm"));
        addEdge(g, src, memory);
        const int32_t tgt = g.addNode(box("tgt", ItemKind::GraphInput));
        int32_t stream = g.addNode(box("embed"));
        addEdge(g, tgt, stream);
        std::vector<int32_t> projections;
        for (const char* name : {"k0", "k1", "k2"}) {
            const int32_t k = projection(g, memory, name);
            const int32_t attn = g.addNode(box("attention"));
            addEdge(g, stream, attn);
            addEdge(g, k, attn);
            const int32_t ff = g.addNode(box("feed_forward"));
            addEdge(g, attn, ff);
            const int32_t add = g.addNode(box("add"));
            addEdge(g, ff, add);
            addEdge(g, attn, add);
            stream = add;
            projections.push_back(k);
        }
        const Layering l = assignLayers(g);
        QVERIFY(!l.gaps.any());
        for (int32_t k : projections) QCOMPARE(l.gaps(memory, k), 1);
        // Each projection sits just above the attention it feeds.
        QVERIFY(l.layer[projections[1]] > l.layer[projections[0]]);
        QVERIFY(l.layer[projections[2]] > l.layer[projections[1]]);
    }

    void drawingOfAViTBlockHasNoCrossings() {
        // The whole block, drawn: norm (with its own weight and bias) into
        // q, k, v with weights and biases, attention, output projection and
        // the residual add. dot draws it with two crossings.
        LayoutGraph g;
        const int32_t x = g.addNode(box("x", ItemKind::GraphInput));
        const int32_t norm = normOf(g, x);
        for (const char* w : {"norm_weight", "norm_bias"}) {
            const int32_t p = g.addNode(box(w, ItemKind::Parameter));
            addEdge(g, p, norm, EdgeStyle::Dashed);
        }
        const int32_t sdpa = g.addNode(box("sdpa"));
        for (const char* name : {"q", "k", "v"}) addEdge(g, projection(g, norm, name), sdpa);
        const int32_t out = projection(g, sdpa, "o_proj");
        const int32_t add = g.addNode(box("add"));
        addEdge(g, x, add);
        addEdge(g, out, add);
        const LayoutResult r = computeLayout(g);
        QCOMPARE(r.stats.crossings, 0);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestFanOutGaps)
#include "test_fan_out_gaps.moc"
