// Network simplex (core/layout/network_simplex.h) against optima found
// without it: hand-solved systems, and small random ones solved by trying
// every integer assignment in a range that holds every optimum (an optimal
// solution of difference constraints lies on a tree of tight constraints,
// so each value is a sum of minimum lengths from the first node).
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/layout/network_simplex.h"

using irscope::layout::detail::DifferenceConstraint;
using irscope::layout::detail::solveNetworkSimplex;

namespace {

int64_t cost(const std::vector<DifferenceConstraint>& c, const std::vector<int64_t>& r) {
    int64_t s = 0;
    for (const auto& k : c) s += k.weight * (r[k.head] - r[k.tail]);
    return s;
}

bool feasible(const std::vector<DifferenceConstraint>& c, const std::vector<int64_t>& r) {
    return std::all_of(c.begin(), c.end(), [&](const auto& k) { return r[k.head] - r[k.tail] >= k.minLength; });
}

// The least cost over every assignment with r[0] = 0 and the others in
// [-bound, bound] (costs do not change when every value moves together).
int64_t bruteForceOptimum(const std::vector<DifferenceConstraint>& c, int32_t n, int64_t bound) {
    std::vector<int64_t> r(n, 0);
    int64_t best = std::numeric_limits<int64_t>::max();
    for (int v = 1; v < n; ++v) r[v] = -bound;
    for (;;) {
        if (feasible(c, r)) best = std::min(best, cost(c, r));
        int v = 1;
        while (v < n && r[v] == bound) r[v++] = -bound;
        if (v == n) break;
        ++r[v];
    }
    return best;
}

// A feasible start for constraints along increasing node ids: longest paths.
std::vector<int64_t> longestPaths(const std::vector<DifferenceConstraint>& c, int32_t n) {
    std::vector<int64_t> r(n, 0);
    for (int pass = 0; pass < n; ++pass)
        for (const auto& k : c) r[k.head] = std::max(r[k.head], r[k.tail] + k.minLength);
    return r;
}

}  // namespace

class TestNetworkSimplex : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // b - a >= 2, c - b >= 3 (weight 1 each), c - a >= 1 (weight 5): the
    // cost is 6 (c - a), and c - a is at least 5.
    void aHandSolvedChain() {
        const std::vector<DifferenceConstraint> c{{0, 1, 2, 1}, {1, 2, 3, 1}, {0, 2, 1, 5}};
        std::vector<int64_t> r{0, 10, 40};
        const auto report = solveNetworkSimplex(c, r, 1'000'000);
        QVERIFY(report.optimal);
        QVERIFY(feasible(c, r));
        QCOMPARE(cost(c, r), int64_t{30});
        QCOMPARE(r[2] - r[0], int64_t{5});
    }

    // |x_a - x_b| through an auxiliary node below both (the x placement's
    // construction): a pulled towards b until the separation from a
    // neighbour stops it. Nodes: n(0) left of a(1) by 10 at least; s(2)
    // below a and b(3); b fixed 100 right of n by a weight-heavy link.
    void anAbsoluteValueThroughAnAuxiliaryNode() {
        const std::vector<DifferenceConstraint> c{
            {0, 1, 10, 0},    // a at least 10 right of n
            {2, 1, 0, 1},     // s <= a
            {2, 3, 0, 1},     // s <= b: 1 (a - s) + 1 (b - s) = |a - b|
            {0, 3, 100, 50},  // b - n >= 100, costly to stretch
        };
        std::vector<int64_t> r{0, 10, 10, 100};
        QVERIFY(solveNetworkSimplex(c, r, 1'000'000).optimal);
        QVERIFY(feasible(c, r));
        QCOMPARE(r[3] - r[0], int64_t{100});
        QCOMPARE(r[1] - r[0], int64_t{100});  // a moved under b
        QCOMPARE(cost(c, r), int64_t{50 * 100});
    }

    // Parts with no constraint between them are solved each on its own.
    void disconnectedPartsAreEachOptimal() {
        const std::vector<DifferenceConstraint> c{{0, 1, 3, 2}, {2, 3, 4, 1}};
        std::vector<int64_t> r{0, 50, 7, 90};
        QVERIFY(solveNetworkSimplex(c, r, 1'000'000).optimal);
        QCOMPARE(r[1] - r[0], int64_t{3});
        QCOMPARE(r[3] - r[2], int64_t{4});
    }

    // Random systems on 5 nodes: the solver's cost equals the brute-force
    // optimum, from a feasible but poor start.
    void randomSystemsMatchBruteForce() {
        std::mt19937 rng(20261129);
        for (int round = 0; round < 60; ++round) {
            const int32_t n = 5;
            std::vector<DifferenceConstraint> c;
            // A chain keeps the system connected; extra forward constraints
            // (tail < head, so no cycle) make it interesting.
            for (int32_t v = 1; v < n; ++v)
                c.push_back({v - 1, v, static_cast<int64_t>(rng() % 3), static_cast<int64_t>(rng() % 4)});
            for (int k = 0; k < 5; ++k) {
                const auto a = static_cast<int32_t>(rng() % n), b = static_cast<int32_t>(rng() % n);
                if (a == b) continue;
                c.push_back(
                    {std::min(a, b), std::max(a, b), static_cast<int64_t>(rng() % 4), static_cast<int64_t>(rng() % 5)});
            }
            std::vector<int64_t> r = longestPaths(c, n);
            int64_t shift = 0;  // slack to take up: growing along the ids, so nothing is violated
            for (int32_t v = 1; v < n; ++v) r[v] += (shift += static_cast<int64_t>(rng() % 5));
            QVERIFY(feasible(c, r));
            std::vector<int64_t> balanced = r;
            QVERIFY(solveNetworkSimplex(c, r, 1'000'000).optimal);
            QVERIFY(feasible(c, r));
            // Every optimum has values within the summed minimum lengths (at most 3 * 9).
            const int64_t expected = bruteForceOptimum(c, n, 27);
            QCOMPARE(cost(c, r), expected);
            // Balancing moves only what costs nothing to move, within its room.
            QVERIFY(solveNetworkSimplex(c, balanced, 1'000'000, /*balance=*/true).optimal);
            QVERIFY(feasible(c, balanced));
            QCOMPARE(cost(c, balanced), expected);
        }
    }

    // Out of budget: the solution it leaves is still feasible, and it says
    // so. Many copies of the auxiliary-node system above, each needing a
    // pivot: a budget of a few steps cannot do them all.
    void aStoppedRunIsFeasible() {
        std::vector<DifferenceConstraint> c;
        std::vector<int64_t> start;
        const int copies = 200;
        for (int k = 0; k < copies; ++k) {
            const int32_t n = 4 * k;
            c.push_back({n, n + 1, 10, 0});
            c.push_back({n + 2, n + 1, 0, 1});
            c.push_back({n + 2, n + 3, 0, 1});
            c.push_back({n, n + 3, 100, 50});
            start.insert(start.end(), {0, 10, 10, 100});
        }
        std::vector<int64_t> r = start;
        const auto stopped = solveNetworkSimplex(c, r, 5);
        QVERIFY(!stopped.optimal);
        QVERIFY(feasible(c, r));
        r = start;
        const auto full = solveNetworkSimplex(c, r, 100'000'000);
        QVERIFY(full.optimal);
        QCOMPARE(cost(c, r), int64_t{copies} * 50 * 100);
        QVERIFY(full.pivots >= copies);
    }

    // A constraint from a node to itself: ignored when it holds (it would
    // count twice in the node's cut values), refused when it never can.
    void selfLoopsAreIgnoredOrRefused() {
        std::vector<DifferenceConstraint> c{{0, 1, 2, 1}, {1, 1, 0, 7}, {1, 2, 3, 1}, {0, 2, 1, 5}};
        std::vector<int64_t> r{0, 10, 40};
        QVERIFY(solveNetworkSimplex(c, r, 1'000'000).optimal);
        QCOMPARE(r[2] - r[0], int64_t{5});  // as without the self-loop (aHandSolvedChain)
        c.push_back({2, 2, 1, 1});
        r = {0, 10, 40};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solveNetworkSimplex(c, r, 1'000'000));
    }

    // Balance: a node tied between two places (any place between costs the
    // same) is put back where the start had it, within its room.
    void balancedTiesKeepTheStart() {
        // s(0) <= a(1), s <= b(2), t(3) <= a, t <= c(4): a between b and c,
        // which sit 100 apart (held by a costly link). Any a in [b, c] costs 100.
        const std::vector<DifferenceConstraint> c{
            {0, 1, 0, 1}, {0, 2, 0, 1}, {3, 1, 0, 1}, {3, 4, 0, 1}, {2, 4, 100, 1000}};
        std::vector<int64_t> r{0, 50, 0, 50, 100};  // a centred, s and t at their least
        QVERIFY(solveNetworkSimplex(c, r, 1'000'000, /*balance=*/true).optimal);
        QCOMPARE(r[4] - r[2], int64_t{100});
        QCOMPARE(r[1] - r[2], int64_t{50});
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestNetworkSimplex)
#include "test_network_simplex.moc"
