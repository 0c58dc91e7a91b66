// Edge-length descent (core/layout/length_descent.h) on hand-built layered
// graphs whose best coordinates are known, and on a real MoE fixture drawn
// badly on purpose: the total horizontal span falls, no box moves past its
// neighbour, and the order of every layer is untouched.
#include <QTest>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "core/layout/crossing_reduction.h"
#include "core/layout/layered_graph.h"
#include "core/layout/layering.h"
#include "core/layout/layout.h"
#include "core/layout/layout_graph_text.h"
#include "core/layout/length_descent.h"
#include "core/layout/long_edges.h"
#include "core/layout/separation.h"
#include "layout/hand_layered.h"
#include "layout/packed_fixture.h"

using namespace irscope::layout;
using namespace irscope::layout::detail;
using hand_layered::layered;

namespace {

double span(const LayeredGraph& g, const std::vector<double>& x) { return hand_layered::horizontalSpan(g, x); }

}  // namespace

class TestLengthDescent : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // a -> c -> d with c pushed 300 px aside: the descent straightens the
    // chain (which end moves is its choice; the span is 0 either way).
    void aStrayVertexStraightensItsChain() {
        const LayeredGraph g = layered({{0}, {1}, {2}}, {{0, 1}, {1, 2}});
        std::vector<double> x{0, 300, 0};
        const std::vector<double> room(g.width.begin(), g.width.end());
        QVERIFY(shortenEdges(g, room, LayoutOptions{}, x, 8) > 0);
        QCOMPARE(span(g, x), 0.0);
        QCOMPARE(x[0], x[1]);
        QCOMPARE(x[1], x[2]);
    }

    // a -> c, each held by an unconnected box beside it: a may go right
    // only to 40 (w at 100, less half of each width and the 20 px gap), c
    // left only to 260 (v at 200): the one best drawing.
    void theNeighboursRoomClampsTheMoves() {
        // layer 0: a(0) w(1); layer 1: v(2) c(3)
        const LayeredGraph g = layered({{0, 1}, {2, 3}}, {{0, 3}});
        std::vector<double> x{0, 100, 200, 300};
        const std::vector<double> room(g.width.begin(), g.width.end());
        shortenEdges(g, room, LayoutOptions{}, x, 8);
        QCOMPARE(x[0], 40.0);
        QCOMPARE(x[3], 260.0);
        QCOMPARE(x[1], 100.0);  // nothing pulls the walls
        QCOMPARE(x[2], 200.0);
    }

    // A straight run (b over c) 200 px aside from a above and d below
    // moves or is joined as one: it stays straight, and the span is 0.
    void aStraightRunStaysStraight() {
        const LayeredGraph g = layered({{0}, {1}, {2}, {3}}, {{0, 1}, {1, 2}, {2, 3}});
        std::vector<double> x{0, 200, 200, 0};
        const std::vector<double> room(g.width.begin(), g.width.end());
        shortenEdges(g, room, LayoutOptions{}, x, 8);
        QCOMPARE(x[1], x[2]);
        QCOMPARE(span(g, x), 0.0);
    }

    // Already at its shortest: nothing moves.
    void anOptimumIsLeftAlone() {
        const LayeredGraph g = layered({{0, 1}, {2, 3}}, {{0, 3}});
        std::vector<double> x{40, 100, 200, 260};
        const std::vector<double> room(g.width.begin(), g.width.end());
        QCOMPARE(shortenEdges(g, room, LayoutOptions{}, x, 8), 0);
        QCOMPARE(x[0], 40.0);
        QCOMPARE(x[3], 260.0);
    }

    // A real MoE decode step, every layer packed left (the worst start):
    // the descent shortens it by more than a quarter, keeps every gap and
    // changes no layer's order.
    void aPackedMoeGetsShorterAndKeepsItsGaps() {
        auto [g, room, x] = packed_fixture::packedLeft("tiny_moe");
        const LayoutOptions o;
        const std::vector<std::vector<int32_t>> order = g.layers;
        const double before = span(g, x);
        QVERIFY(shortenEdges(g, room, o, x, 8) > 0);
        const double after = span(g, x);
        QVERIFY2(after < 0.75 * before, qPrintable(QString("span %1 -> %2").arg(before).arg(after)));
        QVERIFY(g.layers == order);
        for (const auto& layer : g.layers)
            for (size_t i = 1; i < layer.size(); ++i)
                QVERIFY(x[layer[i]] - x[layer[i - 1]] >= separation(g, room, layer[i - 1], layer[i], o) - 1e-6);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestLengthDescent)
#include "test_length_descent.moc"
