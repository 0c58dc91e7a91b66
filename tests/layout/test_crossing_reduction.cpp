// Crossing reduction internals on hand-built layered graphs whose optimum is
// known: the side a weight (satellite) takes next to its anchor, and the
// adjacent-exchange (transpose) pass, including whether it settled.
#include <QTest>

#include <initializer_list>
#include <utility>
#include <vector>

#include "core/layout/crossing_count.h"
#include "core/layout/crossing_reduction.h"
#include "core/layout/layered_graph.h"
#include "core/layout/layering.h"
#include "core/layout/layout.h"
#include "core/layout/long_edges.h"
#include "layout/hand_built_graph.h"
#include "layout/hand_layered.h"

using namespace irscope::layout;
using namespace irscope::layout::detail;
using hand_built_graph::addEdge;
using hand_built_graph::box;
using hand_layered::layered;

namespace {

double centerX(const LayoutResult& r, int32_t i) { return r.items[i].rect.center().x; }

}  // namespace

class TestCrossingReduction : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void weightWhoseBestSideIsLeft() {
        // x -> a; a feeds two linears, each with its own weight. The weights
        // sit in a's layer. With both weights right of a (the old rule), the
        // left linear's weight edge crosses a's edge to the right linear; the
        // optimum, 0, puts that weight on a's left.
        LayoutGraph g;
        const int32_t x = g.addNode(box("x", ItemKind::GraphInput));
        const int32_t a = g.addNode(box("a"));
        const int32_t l0 = g.addNode(box("linear0")), l1 = g.addNode(box("linear1"));
        const int32_t w0 = g.addNode(box("w0", ItemKind::Parameter)), w1 = g.addNode(box("w1", ItemKind::Parameter));
        addEdge(g, x, a);
        addEdge(g, a, l0);
        addEdge(g, w0, l0, EdgeStyle::Dashed);
        addEdge(g, a, l1);
        addEdge(g, w1, l1, EdgeStyle::Dashed);
        const auto r = computeLayout(g);
        QCOMPARE(r.stats.crossings, 0);
        QCOMPARE(r.items[w0].layer, r.items[a].layer);
        QCOMPARE(r.items[w1].layer, r.items[a].layer);
        // Whichever linear is drawn left gets its weight on a's left.
        const bool l0Left = centerX(r, l0) < centerX(r, l1);
        const int32_t leftW = l0Left ? w0 : w1, rightW = l0Left ? w1 : w0;
        QVERIFY(centerX(r, leftW) < centerX(r, a));
        QVERIFY(centerX(r, rightW) > centerX(r, a));
        QCOMPARE(centerX(r, x), centerX(r, a));  // the main chain stays straight
    }

    void qkvProjectionsDoNotCross() {
        // A norm output feeding q, k, v linears, one weight each. With the
        // linears one layer below the norm, beside the weights, the middle
        // weight would cross one of the norm's edges whatever the order;
        // one layer further down (fan_out_gaps.h) the norm's edges bend
        // between the weights and nothing crosses.
        LayoutGraph g;
        const int32_t x = g.addNode(box("x", ItemKind::GraphInput));
        const int32_t n = g.addNode(box("norm"));
        addEdge(g, x, n);
        std::vector<int32_t> linears, weights;
        for (const char* name : {"q", "k", "v"}) {
            const int32_t lin = g.addNode(box(name));
            const int32_t w = g.addNode(box("w", ItemKind::Parameter));
            addEdge(g, n, lin);
            addEdge(g, w, lin, EdgeStyle::Dashed);
            linears.push_back(lin);
            weights.push_back(w);
        }
        const auto r = computeLayout(g);
        QCOMPARE(r.stats.crossings, 0);
        for (size_t i = 0; i < linears.size(); ++i) {
            QCOMPARE(r.items[linears[i]].layer, r.items[n].layer + 2);
            QCOMPARE(r.items[weights[i]].layer, r.items[n].layer + 1);
        }
    }

    void twoWeightFedConsumersKeepOneLayer() {
        // Two consumers with weights: each one's weight goes on its outer
        // side, nothing crosses, so no layer is added.
        LayoutGraph g;
        const int32_t n = g.addNode(box("norm"));
        std::vector<int32_t> linears;
        for (const char* name : {"q", "k"}) {
            const int32_t lin = g.addNode(box(name));
            const int32_t w = g.addNode(box("w", ItemKind::Parameter));
            addEdge(g, n, lin);
            addEdge(g, w, lin, EdgeStyle::Dashed);
            linears.push_back(lin);
        }
        const auto r = computeLayout(g);
        QCOMPARE(r.stats.crossings, 0);
        for (int32_t lin : linears) QCOMPARE(r.items[lin].layer, r.items[n].layer + 1);
    }

    void tiedWeightsSplitAroundTheActivation() {
        // A single consumer: both sides cost 0, so the split is the most
        // even one (a weight on each side, as dot draws it, keeps the
        // satellites' edges short), in the op's input order: weight
        // left, then the activation, then the bias.
        LayoutGraph g;
        const int32_t x = g.addNode(box("x", ItemKind::GraphInput));
        const int32_t a = g.addNode(box("relu"));
        const int32_t lin = g.addNode(box("linear"));
        const int32_t w = g.addNode(box("p_w", ItemKind::Parameter));
        const int32_t b = g.addNode(box("p_b", ItemKind::Parameter));
        addEdge(g, x, a);
        addEdge(g, a, lin);
        addEdge(g, w, lin, EdgeStyle::Dashed);
        addEdge(g, b, lin, EdgeStyle::Dashed);
        const auto r = computeLayout(g);
        QCOMPARE(r.stats.crossings, 0);
        QVERIFY(centerX(r, w) < centerX(r, a));
        QVERIFY(centerX(r, a) < centerX(r, b));
    }

    void reportedCountMatchesRecount() {
        // reduceCrossings' result is the crossing count of the order it leaves.
        LayoutGraph g;
        std::vector<int32_t> v;
        for (int i = 0; i < 80; ++i) v.push_back(g.addNode(box("n")));
        for (int i = 0; i < 80; ++i) {
            if (i + 1 < 80) addEdge(g, v[i], v[i + 1]);
            if (i + 3 < 80 && i % 4 == 0) addEdge(g, v[i], v[i + 3]);
            if (i + 2 < 80 && i % 3 == 1) addEdge(g, v[i], v[i + 2]);
            if (i % 5 == 2) addEdge(g, g.addNode(box("w", ItemKind::Parameter)), v[i], EdgeStyle::Dashed);
        }
        const LayoutOptions o;
        LayeredGraph lg = buildLayeredGraph(g, assignLayers(g), o);
        const int64_t reported = reduceCrossings(lg, o.crossingSweeps);
        QCOMPARE(reported, countAllCrossings(lg));
        for (const auto& l : lg.layers)
            for (size_t i = 0; i < l.size(); ++i) QCOMPARE(lg.pos[l[i]], static_cast<int32_t>(i));
        // And it is deterministic.
        const auto r1 = computeLayout(g);
        const auto r2 = computeLayout(g);
        QCOMPARE(r1.stats.crossings, reported);
        QCOMPARE(r1.stats.crossings, r2.stats.crossings);
        for (size_t i = 0; i < r1.items.size(); ++i) QCOMPARE(r1.items[i].rect, r2.items[i].rect);
    }

    void transposeFixesAnX() {
        // Two layers, a -> d and b -> c, drawn crossed: one exchange removes it.
        auto g = layered({{0, 1}, {2, 3}}, {{0, 3}, {1, 2}});
        QCOMPARE(countAllCrossings(g), 1);
        const std::vector<int32_t> plain(4, -1);
        QCOMPARE(transposePass(g, plain, 8), 1);
        QCOMPARE(countAllCrossings(g), 0);
        for (const auto& l : g.layers)
            for (size_t i = 0; i < l.size(); ++i) QCOMPARE(g.pos[l[i]], static_cast<int32_t>(i));
    }

    void exchangeSaysWhetherItSettled() {
        // The crossed X again: the pass removes the crossing and stops
        // because nothing more gains, so it has settled, and a last pass on
        // its result finds nothing to do (the crossing reduction then skips
        // that pass and keeps the measured coordinates).
        auto g = layered({{0, 1}, {2, 3}}, {{0, 3}, {1, 2}});
        const std::vector<int32_t> plain(4, -1);
        std::vector<int64_t> gap = layerGaps(g);
        TransposeScratch scratch;
        const ExchangeOutcome done = transposeWithGaps(g, plain, 8, /*allowTies=*/false, gap, scratch);
        QCOMPARE(done.gained, 1);
        QVERIFY(done.settled);
        const auto after = g.layers;
        QCOMPARE(transposePass(g, plain, 8), 0);
        QCOMPARE(g.layers, after);
        // Without a visit to spare, a layer with crossings beside it is left
        // as it is: not settled, and the crossing is still there.
        auto cut = layered({{0, 1}, {2, 3}}, {{0, 3}, {1, 2}});
        gap = layerGaps(cut);
        const ExchangeOutcome stopped = transposeWithGaps(cut, plain, 0, /*allowTies=*/false, gap, scratch);
        QCOMPARE(stopped.gained, 0);
        QVERIFY(!stopped.settled);
        QCOMPARE(countAllCrossings(cut), 1);
        // Nothing crossed: settled without a visit.
        auto clean = layered({{0, 1}, {2, 3}}, {{0, 2}, {1, 3}});
        gap = layerGaps(clean);
        QVERIFY(transposeWithGaps(clean, plain, 0, /*allowTies=*/false, gap, scratch).settled);
    }

    void transposePropagatesAcrossLayers() {
        // layer 0: a b c; layer 1: d e f; layer 2: g h i. a->f, b->e, c->d
        // (fully reversed, 3 crossings) and d->g, e->h, f->i (parallel). The
        // best order of layer 1 alone is d e f reversed, which moves the
        // crossings one gap down; layer 2 must then follow. Optimum: 0.
        auto g = layered({{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}, {{0, 5}, {1, 4}, {2, 3}, {3, 6}, {4, 7}, {5, 8}});
        QCOMPARE(countAllCrossings(g), 3);
        const std::vector<int32_t> plain(9, -1);
        const int64_t gained = transposePass(g, plain, 8);
        QCOMPARE(countAllCrossings(g), 3 - gained);
        QCOMPARE(countAllCrossings(g), 0);
    }

    void transposeKeepsGroupsAndTies() {
        // Layer 0: a w b, w a weight satellite of a (group of a), b plain.
        // Layer 1: c d. a->c, w->d, b->c: (w,d) x (b,c) is the one crossing.
        // Exchanging w and b would remove it but splits a's group; the pass
        // moves b past the whole group instead (b a w: no crossing). With
        // all three plain it takes the single exchange.
        auto g = layered({{0, 1, 2}, {3, 4}}, {{0, 3}, {1, 4}, {2, 3}}, {1});
        QCOMPARE(countAllCrossings(g), 1);
        const std::vector<int32_t> group{0, 0, -1, -1, -1};
        QCOMPARE(transposePass(g, group, 8), 1);
        QCOMPARE(g.layers[0], (std::vector<int32_t>{2, 0, 1}));
        QCOMPARE(countAllCrossings(g), 0);
        auto free = layered({{0, 1, 2}, {3, 4}}, {{0, 3}, {1, 4}, {2, 3}}, {1});
        const std::vector<int32_t> plain(5, -1);
        QCOMPARE(transposePass(free, plain, 8), 1);
        QCOMPARE(free.layers[0], (std::vector<int32_t>{0, 2, 1}));
        // A tie (equal crossings either way) is left as it is: K2,2 has one
        // crossing in every order.
        auto t = layered({{0, 1}, {2, 3}}, {{0, 2}, {0, 3}, {1, 2}, {1, 3}});
        const auto before = t.layers;
        QCOMPARE(countAllCrossings(t), 1);
        QCOMPARE(transposePass(t, std::vector<int32_t>(4, -1), 8), 0);
        QCOMPARE(countAllCrossings(t), 1);
        QCOMPARE(t.layers, before);
        // With ties allowed it may reorder, but never adds a crossing.
        QCOMPARE(transposePass(t, std::vector<int32_t>(4, -1), 8, /*allowTies=*/true), 0);
        QCOMPARE(countAllCrossings(t), 1);
    }

    void transposeTiesLeaveAPlateau() {
        // layer 0: c d      c->a, d->b: parallel
        // layer 1: a b
        // layer 2: q p      a->p, b->q: one crossing in the middle gap
        // layer 3: x y      q->x, p->y: parallel
        // Exchanging a and b, or q and p, is a tie (the crossing moves to
        // the gap above or below), after which one more exchange removes
        // it. Strict exchange stops at 1; with ties allowed the pass
        // reaches the optimum, 0.
        const int32_t a = 0, b = 1, p = 2, q = 3, x = 4, y = 5, c = 6, d = 7;
        auto strict = layered({{c, d}, {a, b}, {q, p}, {x, y}}, {{c, a}, {d, b}, {a, p}, {b, q}, {q, x}, {p, y}});
        const std::vector<int32_t> group(8, -1);
        auto ties = strict;
        QCOMPARE(countAllCrossings(strict), 1);
        QCOMPARE(transposePass(strict, group, 8), 0);
        QCOMPARE(countAllCrossings(strict), 1);
        QCOMPARE(transposePass(ties, group, 8, /*allowTies=*/true), 1);
        QCOMPARE(countAllCrossings(ties), 0);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestCrossingReduction)
#include "test_crossing_reduction.moc"
