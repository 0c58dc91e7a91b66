// Span placement (core/layout/span_placement.h): with the order fixed, x
// coordinates of least weighted horizontal span. On hand-built graphs the
// optimum is found by trying every placement on a grid that holds it (all
// boxes are 40 px wide with 20 px gaps, so an optimal placement has every
// box a multiple of 60 px from the first); on a real MoE step it is no
// longer than the run descent's, keeps every gap and every layer's order.
#include <QTest>

#include <cmath>
#include <fstream>
#include <limits>
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
#include "core/layout/span_placement.h"
#include "layout/hand_layered.h"
#include "layout/packed_fixture.h"

using namespace irscope::layout;
using namespace irscope::layout::detail;
using hand_layered::layered;

namespace {

// dot's weights, as the placement uses them.
double weightedSpan(const LayeredGraph& g, const std::vector<double>& x) {
    return hand_layered::horizontalSpan(g, x, /*dotWeights=*/true);
}

bool keepsGaps(const LayeredGraph& g, const std::vector<double>& room, const std::vector<double>& x) {
    for (const auto& layer : g.layers)
        for (size_t i = 1; i < layer.size(); ++i)
            if (x[layer[i]] - x[layer[i - 1]] < separation(g, room, layer[i - 1], layer[i], LayoutOptions{}) - 1e-6)
                return false;
    return true;
}

// The least weighted span over placements with vertex 0 at 0 and every
// other at a multiple of 60 px in [-steps, steps] * 60, gaps kept.
double gridOptimum(const LayeredGraph& g, const std::vector<double>& room, int steps) {
    const int32_t vc = g.vertexCount();
    std::vector<int> k(vc, -steps);
    k[0] = 0;
    double best = std::numeric_limits<double>::infinity();
    std::vector<double> x(vc);
    for (;;) {
        for (int32_t v = 0; v < vc; ++v) x[v] = 60.0 * k[v];
        if (keepsGaps(g, room, x)) best = std::min(best, weightedSpan(g, x));
        int32_t v = 1;
        while (v < vc && k[v] == steps) k[v++] = -steps;
        if (v == vc) break;
        ++k[v];
    }
    return best;
}

}  // namespace

class TestSpanPlacement : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void smallGraphsReachTheGridOptimum_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("diamond") << 0;
        QTest::newRow("crossed pair pulled apart") << 1;
        QTest::newRow("three-way fork and join") << 2;
        QTest::newRow("a branch that must push its neighbour") << 3;
    }

    void smallGraphsReachTheGridOptimum() {
        QFETCH(int, which);
        LayeredGraph g;
        std::vector<double> x;
        switch (which) {
        case 0:  // a -> b, c -> d
            g = layered({{0}, {1, 2}, {3}}, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
            x = {300, 0, 60, 420};
            break;
        case 1:  // a b / c d with a -> d, b -> c, drawn far apart
            g = layered({{0, 1}, {2, 3}}, {{0, 3}, {1, 2}});
            x = {0, 60, 300, 420};
            break;
        case 2:  // a -> b, c, e -> f
            g = layered({{0}, {1, 2, 3}, {4}}, {{0, 1}, {0, 2}, {0, 3}, {1, 4}, {2, 4}, {3, 4}});
            x = {0, 0, 60, 120, 360};
            break;
        default:  // a -> c; b -> d, with c left of d: b's chain sits where c must move
            g = layered({{0, 1}, {2, 3}, {4, 5}}, {{0, 3}, {1, 2}, {2, 4}, {3, 5}});
            x = {0, 60, 240, 300, 0, 360};
            break;
        }
        const std::vector<double> room(g.width.begin(), g.width.end());
        QVERIFY(keepsGaps(g, room, x));
        const auto order = g.layers;
        const auto report = placeForLeastSpan(g, room, LayoutOptions{}, x, 1'000'000);
        QVERIFY(report.solver.optimal);
        QVERIFY(report.applied);
        QVERIFY(keepsGaps(g, room, x));
        QVERIFY(g.layers == order);
        QCOMPARE(weightedSpan(g, x), gridOptimum(g, room, 5));
    }

    // A column of boxes stays one straight column even where bending it
    // would save a little (kRigidRun): a 7-box chain with a side input
    // pulling its middle box aside.
    void aLongColumnStaysStraight() {
        // chain 0..6; side input 7 (beside 1) feeding 2
        const LayeredGraph g =
            layered({{0}, {1, 7}, {2}, {3}, {4}, {5}, {6}}, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {7, 2}});
        std::vector<double> x{0, 0, 0, 0, 0, 0, 0, 60};
        const std::vector<double> room(g.width.begin(), g.width.end());
        QVERIFY(placeForLeastSpan(g, room, LayoutOptions{}, x, 1'000'000).solver.optimal);
        for (int32_t v = 1; v <= 6; ++v) QCOMPARE(x[v], x[0]);
        QVERIFY(keepsGaps(g, room, x));
    }

    // A placement no shorter in plain pixels than the start is not applied
    // (dot's weights may trade a long edge's slant between its segments,
    // or the solver pick another placement of equal span): x stays exactly
    // as it came. A diamond already at its least span.
    void aStartAlreadyAtTheLeastSpanIsKept() {
        const LayeredGraph g = layered({{0}, {1, 2}, {3}}, {{0, 1}, {0, 2}, {1, 3}, {2, 3}});
        std::vector<double> x{30, 0, 60, 30};
        const std::vector<double> start = x;
        const std::vector<double> room(g.width.begin(), g.width.end());
        const auto report = placeForLeastSpan(g, room, LayoutOptions{}, x, 1'000'000);
        QVERIFY(report.solver.optimal);
        QVERIFY(!report.applied);
        QVERIFY(x == start);
    }

    // The solver reports its pivots' work as progress, and a "cancel"
    // answer stops it (LayoutCancelled), as in every other phase: on a graph
    // of 20,000 vertices it can run for half a second.
    void theSolverReportsProgressAndCancels() {
        int calls = 0;
        double last = 0;
        bool monotone = true;
        const LayoutProgress count = [&](double f, const char*) {
            monotone = monotone && f >= last;
            last = f;
            ++calls;
            return true;
        };
        {
            auto [g, room, x] = packed_fixture::packedLeft("tiny_moe");
            Progress progress(&count);
            progress.phase("coordinates", 0, 1);
            const int before = calls;
            QVERIFY(placeForLeastSpan(g, room, LayoutOptions{}, x, 100'000'000, &progress).solver.optimal);
            QVERIFY2(calls > before, qPrintable(QString("%1 reports").arg(calls - before)));
            QVERIFY(monotone);
        }
        int seen = 0;
        const LayoutProgress cancel = [&](double, const char*) { return seen++ == 0; };  // all but the phase's start
        auto [g, room, x] = packed_fixture::packedLeft("tiny_moe");
        Progress progress(&cancel);
        progress.phase("coordinates", 0, 1);
        QVERIFY_THROWS_EXCEPTION(LayoutCancelled,
                                 placeForLeastSpan(g, room, LayoutOptions{}, x, 100'000'000, &progress));
        QCOMPARE(seen, 2);
    }

    // A real MoE decode step, every layer packed left: the placement is no
    // longer than the run descent's, and keeps the order and every gap.
    void aPackedMoeIsNoLongerThanTheDescent() {
        const auto [g, room, packed] = packed_fixture::packedLeft("tiny_moe");
        const LayoutOptions o;
        const auto order = g.layers;
        std::vector<double> descended = packed, placed = packed;
        shortenEdges(g, room, o, descended, 8);
        QVERIFY(placeForLeastSpan(g, room, o, placed, 100'000'000).solver.optimal);
        QVERIFY2(
            weightedSpan(g, placed) <= weightedSpan(g, descended),
            qPrintable(QString("placed %1, descent %2").arg(weightedSpan(g, placed)).arg(weightedSpan(g, descended))));
        QVERIFY(g.layers == order);
        QVERIFY(keepsGaps(g, room, placed));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestSpanPlacement)
#include "test_span_placement.moc"
