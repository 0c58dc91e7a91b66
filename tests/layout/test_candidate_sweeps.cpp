// The crossing reduction's candidates shared by two threads
// (core/layout/crossing_reduction.cpp): the candidate sweeps and the
// measuring fall to whichever thread is free (std::async inside
// reduceCrossings), and the order chosen must not depend on how they fell;
// a cancelled layout, or a measure that throws on either thread, must end
// reduceCrossings with that exception, not leave the other thread waiting
// for orders that never come.
#include <QTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/suite_registry.h"
#include "core/layout/barycenter_sweeps.h"
#include "core/layout/crossing_count.h"
#include "core/layout/crossing_reduction.h"
#include "core/layout/layering.h"
#include "core/layout/layout.h"
#include "core/layout/layout_graph_text.h"
#include "core/layout/long_edges.h"
#include "core/layout/progress.h"

using namespace irscope::layout;
using namespace irscope::layout::detail;

namespace {

// A two-layer MoE decode step (router, top-k, expert loop, weights), as the
// engine sees it: about 300 vertices with 17 crossings in dot's drawing, so
// it is swept on two threads and its candidates differ.
LayeredGraph moeStep() {
    std::ifstream in(std::string(IRSCOPE_TEST_DATA) + "/layout/moe_decode_2layer.layout");
    const LayoutGraph graph = layoutGraphFromText(in);
    return buildLayeredGraph(graph, assignLayers(graph), LayoutOptions{});
}

// A stand-in for the drawn length: how far each edge runs sideways, in
// positions. Any function of the order serves; this one tells orders apart.
double positionSpan(const LayeredGraph& g) {
    double span = 0;
    for (int32_t v = 0; v < g.vertexCount(); ++v)
        for (int32_t w : g.down[v]) span += std::abs(g.pos[v] - g.pos[w]) * 40.0;
    return span;
}

// A ladder of `columns` chains, `rows` deep, each row also feeding the
// chain seven columns on: thousands of vertices, past the thorough budget
// but still weighed, so each candidate sweeps for milliseconds and
// reports progress within its first sweep.
LayeredGraph ladder(int columns, int rows) {
    LayoutGraph graph;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c) {
            LayoutNode n;
            n.name = "op";
            n.width = 60;
            n.height = 30;
            graph.addNode(n);
            if (r > 0) {
                const int32_t v = r * columns + c;
                graph.addEdge({v - columns, v, EdgeStyle::Solid, "", -1});
                graph.addEdge({(r - 1) * columns + (c + 7) % columns, v, EdgeStyle::Solid, "", -1});
            }
        }
    return buildLayeredGraph(graph, assignLayers(graph), LayoutOptions{});
}

struct Calls {
    std::atomic<int> here{0}, beside{0};
};

}  // namespace

class TestCandidateSweeps : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (std::thread::hardware_concurrency() < 2) QSKIP("one core: reduceCrossings starts no second thread");
        const LayeredGraph g = moeStep();
        QVERIFY(g.vertexCount() >= kParallelVertices);
    }

    void sameOrderHoweverTheWorkFalls() {
        // The reference: no delays. Then the main thread slow to measure (the
        // other takes the measuring and what is left of the sweeps), then the
        // other thread slow: the work falls differently each time, and the
        // order chosen must be the same.
        const int sweeps = LayoutOptions{}.crossingSweeps;
        const std::thread::id main = std::this_thread::get_id();
        LayeredGraph reference = moeStep();
        const int64_t referenceCrossings =
            reduceCrossings(reference, sweeps, nullptr, [](const LayeredGraph& o) { return positionSpan(o); });
        QCOMPARE(countAllCrossings(reference), referenceCrossings);
        QVERIFY(referenceCrossings > 0);
        for (bool slowHere : {true, false}) {
            Calls calls;
            LayeredGraph g = moeStep();
            const int64_t crossings = reduceCrossings(g, sweeps, nullptr, [&](const LayeredGraph& o) {
                const bool here = std::this_thread::get_id() == main;
                ++(here ? calls.here : calls.beside);
                if (here == slowHere) std::this_thread::sleep_for(std::chrono::milliseconds(5));
                return positionSpan(o);
            });
            QCOMPARE(crossings, referenceCrossings);
            QCOMPARE(g.layers, reference.layers);
            // The slow thread measured at most one order at a time while the
            // other was free: the other measured at least one.
            QVERIFY(slowHere ? calls.beside > 0 : calls.here > 0);
        }
    }

    void aMeasureThatFailsBesideEndsTheRun() {
        // The main thread's measure waits (up to 2 s) until the other thread
        // has measured, and that one throws: reduceCrossings passes its
        // exception on instead of returning or waiting for it.
        const std::thread::id main = std::this_thread::get_id();
        std::atomic<bool> besideCalled{false};
        LayeredGraph g = moeStep();
        QVERIFY_THROWS_EXCEPTION(
            std::runtime_error, reduceCrossings(g, LayoutOptions{}.crossingSweeps, nullptr, [&](const LayeredGraph& o) {
                if (std::this_thread::get_id() != main) {
                    besideCalled = true;
                    throw std::runtime_error("measure failed beside");
                }
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
                while (!besideCalled && std::chrono::steady_clock::now() < until)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                return positionSpan(o);
            }));
        QVERIFY(besideCalled);
    }

    void aCancelledLayoutStopsTheOtherThread() {
        // Cancelled (progress answers "stop") in this thread's first sweep,
        // while the other thread sweeps its own candidates and would then
        // wait for this one's: the other stops too, and LayoutCancelled
        // comes out rather than a hang.
        LayeredGraph g = ladder(30, 300);
        QVERIFY(g.vertexCount() > 8000);
        std::atomic<int> reports{0};
        const LayoutProgress stop = [&](double, const char*) {
            ++reports;
            return false;
        };
        Progress progress(&stop);
        QVERIFY_THROWS_EXCEPTION(LayoutCancelled,
                                 reduceCrossings(g, LayoutOptions{}.crossingSweeps, &progress,
                                                 [](const LayeredGraph& o) { return positionSpan(o); }));
        QCOMPARE(reports.load(), 1);
    }

    void aMeasureThatFailsHereEndsTheRun() {
        // The main thread's first measure throws (as a cancelled layout's
        // progress does): the other thread, which may be waiting for this
        // one's orders, stops too, and the exception comes out. The other
        // thread measures slowly, so this one gets an order to measure.
        const std::thread::id main = std::this_thread::get_id();
        LayeredGraph g = moeStep();
        QVERIFY_THROWS_EXCEPTION(
            std::runtime_error, reduceCrossings(g, LayoutOptions{}.crossingSweeps, nullptr, [&](const LayeredGraph& o) {
                if (std::this_thread::get_id() == main) throw std::runtime_error("measure failed here");
                // Slow beside, so orders are left for this thread to measure.
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                return positionSpan(o);
            }));
    }
};

IRSCOPE_TEST_APPLESS_MAIN(TestCandidateSweeps)
#include "test_candidate_sweeps.moc"
