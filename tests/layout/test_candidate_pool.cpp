// The candidate pool of the crossing reduction (core/layout/candidate_pool.h):
// orders come back in sweep order whichever thread measured them; an order
// that cannot win, the twin of one measured and one added unweighed are not
// measured; waiting
// orders are measured fewest crossings first; two threads measuring at once
// (std::thread) measure every order exactly once, each with its own length.
#include <QTest>

#include <atomic>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

#include "common/suite_registry.h"
#include "core/layout/candidate_pool.h"
#include "core/layout/layered_graph.h"

using namespace irscope::layout::detail;

namespace {

// An order of one layer holding the single vertex `id`, with `crossings`.
SweptOrder order(int32_t id, int64_t crossings) {
    SweptOrder o;
    o.crossings = crossings;
    o.order = {id};
    return o;
}

// A graph the pool can set an order on: enough vertices for any id used here.
LayeredGraph graphFor(int32_t vertices) {
    LayeredGraph g;
    g.type.assign(vertices, VertexType::Item);
    g.layer.assign(vertices, 0);
    g.width.assign(vertices, 40);
    g.height.assign(vertices, 20);
    g.up = Adjacency(vertices, {});
    g.down = Adjacency(vertices, {});
    g.layers = {{0}};  // one layer of one vertex: the shape of every order here
    return g;
}

int32_t onlyVertex(const LayeredGraph& g) { return g.layers.at(0).at(0); }

// A length of `px` for every order, noting in `measured` each order measured.
OrderLength recording(std::vector<int32_t>& measured, double px) {
    return [&measured, px](const LayeredGraph& g) {
        measured.push_back(onlyVertex(g));
        return px;
    };
}

}  // namespace

class TestCandidatePool : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ordersComeBackByStartThenSweep() {
        CandidatePool pool(nullptr);
        pool.add(1, order(10, 0));
        pool.add(0, order(20, 0));
        pool.add(1, order(11, 0));
        pool.add(0, order(21, 0));
        std::vector<SweptOrder> all = pool.orders(/*withMirror=*/true);
        QCOMPARE(all.size(), size_t{4});
        QCOMPARE(all[0].order[0], 20);
        QCOMPARE(all[1].order[0], 21);
        QCOMPARE(all[2].order[0], 10);
        QCOMPARE(all[3].order[0], 11);

        CandidatePool first(nullptr);
        first.add(1, order(10, 0));
        first.add(0, order(20, 3));
        QVERIFY(!first.anyUncrossed(0));
        QVERIFY(first.anyUncrossed(1));
        const std::vector<SweptOrder> mine = first.orders(/*withMirror=*/false);
        QCOMPARE(mine.size(), size_t{1});
        QCOMPARE(mine[0].order[0], 20);
    }

    // Lengths of 100 px: an order with a crossing (5,000 px) cannot beat an
    // uncrossed one once that is measured, so it is never measured.
    void anOrderThatCannotWinIsNotMeasured() {
        std::vector<int32_t> measured;
        const OrderLength length = recording(measured, 100.0);
        CandidatePool pool(&length);
        pool.add(0, order(1, 1));
        pool.add(0, order(2, 0));
        LayeredGraph g = graphFor(3);
        pool.measureWaiting(g);
        QCOMPARE(measured, (std::vector<int32_t>{2}));
        const std::vector<SweptOrder> all = pool.orders(true);
        QCOMPARE(all[0].cost, std::numeric_limits<double>::infinity());
        QCOMPARE(all[1].cost, 100.0);

        // An order that could tie the best (its crossings cost exactly as
        // much, its length may be 0) is measured: left out, it could not
        // win a tie on sweep order, and the thread measuring first would
        // decide the drawing.
        measured.clear();
        const OrderLength flat = recording(measured, 0.0);
        CandidatePool ties(&flat);
        ties.add(1, order(1, 1));
        ties.measureWaiting(g);
        ties.add(0, order(2, 1));
        ties.measureWaiting(g);
        QCOMPARE(measured, (std::vector<int32_t>{1, 2}));
        for (const SweptOrder& o : ties.orders(true)) QCOMPARE(o.cost, kCrossingWorth);
    }

    // Lengths large enough that nothing is ruled out: measured fewest
    // crossings first, and a twin of an order measured is skipped.
    void fewestCrossingsFirstAndTwinsOnce() {
        std::vector<int32_t> measured;
        const OrderLength length = recording(measured, 1e6);
        CandidatePool pool(&length);
        pool.add(0, order(3, 3));
        pool.add(1, order(1, 1));
        pool.add(0, order(2, 2));
        pool.add(1, order(1, 1));  // the twin of the second
        LayeredGraph g = graphFor(4);
        pool.measureWaiting(g);
        QCOMPARE(measured, (std::vector<int32_t>{1, 2, 3}));
        const std::vector<SweptOrder> all = pool.orders(true);
        QCOMPARE(all[0].cost, 3 * kCrossingWorth + 1e6);  // start 0: ids 3, 2; start 1: 1, its twin
        QCOMPARE(all[1].cost, 2 * kCrossingWorth + 1e6);
        QCOMPARE(all[2].cost, 1 * kCrossingWorth + 1e6);
        QCOMPARE(all[3].cost, std::numeric_limits<double>::infinity());
    }

    // An order added unweighed (a start weighs only its fewest-crossings
    // orders) is never measured, and still comes back in sweep order.
    void anOrderAddedUnweighedIsNeverMeasured() {
        std::vector<int32_t> measured;
        const OrderLength length = recording(measured, 1e6);
        CandidatePool pool(&length);
        pool.add(0, order(1, 0), /*weigh=*/false);
        pool.add(0, order(2, 5));
        LayeredGraph g = graphFor(3);
        pool.measureWaiting(g);
        QCOMPARE(measured, (std::vector<int32_t>{2}));
        const std::vector<SweptOrder> all = pool.orders(true);
        QCOMPARE(all[0].order[0], 1);
        QCOMPARE(all[0].cost, std::numeric_limits<double>::infinity());
        QCOMPARE(all[1].cost, 5 * kCrossingWorth + 1e6);
    }

    // Two threads drain one pool, each on its own graph: every order is
    // measured once, with the length of its own order.
    void twoThreadsMeasureEveryOrderOnce() {
        constexpr int32_t kOrders = 64;
        std::vector<std::atomic<int>> times(kOrders);
        const OrderLength length = [&](const LayeredGraph& g) {
            const int32_t id = onlyVertex(g);
            times[id].fetch_add(1);
            return 1000.0 + id;
        };
        CandidatePool pool(&length);
        for (int32_t i = 0; i < kOrders; ++i) pool.add(i % 2, order(i, 0));
        LayeredGraph mine = graphFor(kOrders), theirs = graphFor(kOrders);
        std::thread other([&] { pool.measureWaiting(theirs); });
        pool.measureWaiting(mine);
        other.join();
        for (int32_t i = 0; i < kOrders; ++i) QCOMPARE(times[i].load(), 1);
        for (const SweptOrder& o : pool.orders(true)) QCOMPARE(o.cost, 1000.0 + o.order[0]);
    }
};

IRSCOPE_TEST_APPLESS_MAIN(TestCandidatePool)
#include "test_candidate_pool.moc"
