// Layer settling (core/layout/layer_settling.h): the layering of least total
// edge span, reached from a feasible one. Hand-built graphs where the answer
// is worked out on paper (a group that only gains when it moves together,
// an output that stays, a node fed by a weight), and small random graphs
// against the least span found by trying every layering.
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "core/layout/adjacency.h"
#include "core/layout/layer_settling.h"

using namespace irscope::layout::detail;

namespace {

using Edges = std::vector<std::pair<int32_t, int32_t>>;

struct Dag {
    int32_t n = 0;
    Edges edges;
    std::vector<char> weight;

    Adjacency preds() const {
        Edges up;
        for (const auto& [a, b] : edges) up.emplace_back(b, a);
        return Adjacency(n, up);
    }
    Adjacency succs() const { return Adjacency(n, edges); }

    std::vector<int32_t> settled(std::vector<int32_t> layer) const {
        if (weight.empty()) {
            const std::vector<char> none(n, 0);
            settleLayers(preds(), succs(), none, FanOutGaps{}, layer);
        } else {
            settleLayers(preds(), succs(), weight, FanOutGaps{}, layer);
        }
        return layer;
    }

    bool isWeight(int32_t v) const { return !weight.empty() && weight[v]; }

    // Summed span of the edges between nodes that are not weights.
    int64_t span(const std::vector<int32_t>& layer) const {
        int64_t s = 0;
        for (const auto& [a, b] : edges)
            if (!isWeight(a) && !isWeight(b)) s += layer[b] - layer[a];
        return s;
    }
};

bool edgesPointDown(const Dag& d, const std::vector<int32_t>& layer) {
    return std::all_of(d.edges.begin(), d.edges.end(), [&](const auto& e) {
        return d.isWeight(e.first) || d.isWeight(e.second) || layer[e.second] - layer[e.first] >= 1;
    });
}

}  // namespace

class TestLayerSettling : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // s feeds a main chain a1..a4 to t and a side group: r fans out to p1
    // and p2, which meet in m; r and m both feed t. Alone, no node of the
    // group gains by moving down (m has two edges above and one below, p1
    // and p2 are held by m, r by p1 and p2), so sinking leaves it at 1-3.
    // Together it has one edge above (s -> r) and two below (r -> t,
    // m -> t): one layer down saves one layer of span, and a second would
    // push m onto t. Span: 16 where it was, 15 settled.
    void aGroupMovesWhereNoNodeAloneGains() {
        Dag d;
        d.n = 10;
        d.edges = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5},                   // s a1 a2 a3 a4 t
                   {0, 6}, {6, 7}, {6, 8}, {7, 9}, {8, 9}, {9, 5}, {6, 5}};  // r p1 p2 m
        const std::vector<int32_t> sunk{0, 1, 2, 3, 4, 5, 1, 2, 2, 3};
        QCOMPARE(d.span(sunk), int64_t{16});
        const std::vector<int32_t> layer = d.settled(sunk);
        QCOMPARE(layer, (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 2, 3, 3, 4}));
        QCOMPARE(d.span(layer), int64_t{15});
    }

    // A tie goes down: s -> c -> t beside the chain s -> a1 -> a2 -> t; c
    // may sit at 1 or 2 at the same span, and sits at 2, beside what it
    // feeds.
    void aTieSinks() {
        Dag d;
        d.n = 5;
        d.edges = {{0, 1}, {1, 2}, {2, 3}, {0, 4}, {4, 3}};
        const std::vector<int32_t> layer = d.settled({0, 1, 2, 3, 1});
        QCOMPARE(layer[4], 2);
        QCOMPARE(d.span(layer), int64_t{6});
    }

    // k feeds an output o and the chain's end t; moving k and o down
    // costs nothing (s -> k grows as k -> t shrinks), but an output stays
    // where it was put, just below what it shows, so k stays too.
    void anOutputStays() {
        Dag d;
        d.n = 6;
        d.edges = {{0, 1}, {1, 2}, {2, 3}, {0, 4}, {4, 5}, {4, 3}};  // s a1 a2 t, k o
        const std::vector<int32_t> layer = d.settled({0, 1, 2, 3, 1, 2});
        QCOMPARE(layer[5], 2);
        QCOMPARE(layer[4], 1);
    }

    // e is fed by a weight w only: it keeps a layer above it for w (layer 1
    // at least), and its own edges pull it down beside t.
    void aNodeFedByAWeightKeepsRoomForIt() {
        Dag d;
        d.n = 5;
        d.weight = {1, 0, 0, 0, 0};
        d.edges = {{0, 1}, {1, 4}, {2, 3}, {3, 4}};  // w -> e -> t, s -> a -> t
        const std::vector<int32_t> layer = d.settled({0, 1, 0, 1, 2});
        QCOMPARE(layer[1], 1);
        QCOMPARE(layer[2], 0);
        QCOMPARE(layer[4], 2);

        // Fed by the weight alone and read only far below: still layer 1 at
        // least, and no lower than its consumer allows.
        Dag deep;
        deep.n = 6;
        deep.weight = {1, 0, 0, 0, 0, 0};
        deep.edges = {{0, 1}, {1, 5}, {2, 3}, {3, 4}, {4, 5}};
        const std::vector<int32_t> l2 = deep.settled({0, 1, 0, 1, 2, 3});
        QVERIFY(l2[1] >= 1);
        QCOMPARE(l2[5] - l2[1], 1);
        QVERIFY(edgesPointDown(deep, l2));
    }

    // Random DAGs of 3-6 nodes against every layering in [0, 6]: the
    // settled span is the least of those where every edge points down and
    // no output is lower than it started; the settled layering is one of
    // them, with its top layer 0.
    void randomGraphsReachTheLeastSpan() {
        std::mt19937 rng(7);
        for (int round = 0; round < 60; ++round) {
            Dag d;
            d.n = 3 + static_cast<int32_t>(rng() % 4);
            for (int32_t b = 1; b < d.n; ++b)
                for (int32_t a = 0; a < b; ++a)
                    if (rng() % 100 < 45) d.edges.emplace_back(a, b);
            // Longest path from the sources: a feasible start.
            std::vector<int32_t> start(d.n, 0);
            for (const auto& [a, b] : d.edges) start[b] = std::max(start[b], start[a] + 1);  // edges sorted by b
            std::vector<char> output(d.n, 1);
            for (const auto& [a, b] : d.edges) output[a] = 0;

            const std::vector<int32_t> layer = d.settled(start);
            QVERIFY(edgesPointDown(d, layer));
            QCOMPARE(*std::min_element(layer.begin(), layer.end()), 0);
            for (int32_t v = 0; v < d.n; ++v)
                if (output[v]) QVERIFY2(layer[v] <= start[v], "an output moved down");

            int64_t best = std::numeric_limits<int64_t>::max();
            std::vector<int32_t> r(d.n, 0);
            for (;;) {
                bool ok = edgesPointDown(d, r);
                for (int32_t v = 0; v < d.n && ok; ++v) ok = !output[v] || r[v] <= start[v];
                if (ok) best = std::min(best, d.span(r));
                int32_t v = 0;
                while (v < d.n && r[v] == 6) r[v++] = 0;
                if (v == d.n) break;
                ++r[v];
            }
            QCOMPARE(d.span(layer), best);
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestLayerSettling)
#include "test_layer_settling.moc"
