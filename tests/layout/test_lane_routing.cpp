// Lane routing (core/layout/lane_routing.h): a lane of bend points through
// the middle of a two-column block goes round it, which no one-layer
// exchange does (its first step gains nothing), and never between an
// anchor and its satellite; on random layered graphs with lanes and
// groups, the crossings it reports removed are the crossings counted
// afterwards.
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "core/layout/adjacency.h"
#include "core/layout/adjacent_exchange.h"
#include "core/layout/crossing_count.h"
#include "core/layout/lane_routing.h"
#include "core/layout/layered_graph.h"
#include "layout/hand_layered.h"

using namespace irscope::layout::detail;
using hand_layered::layered;
using hand_layered::randomGroups;
using hand_layered::RandomItems;
using hand_layered::randomItems;

using hand_layered::groupsTogether;
using hand_layered::sameVerticesInStep;

class TestLaneRouting : public QObject {
    Q_OBJECT

    // p feeds two columns x1-x3 and y1-y3 that meet in q; a lane s -> t
    // (bend points d1-d3) runs between the columns, crossing p -> y1 above
    // and y3 -> q below; each y has a satellite z on its right (one group).
    // Going round the block's right crosses nothing; moving one bend point
    // alone gains nothing (it crosses the column's edge beside it instead).
    static LayeredGraph laneThroughABlock(std::vector<int32_t>& group) {
        //  ids: p 0, s 1 | x1 2, d1 3, y1 4, z1 5 | x2 6, d2 7, y2 8, z2 9 | x3 10, d3 11, y3 12, z3 13 | q 14, t 15
        LayeredGraph g = layered(
            {{0, 1}, {2, 3, 4, 5}, {6, 7, 8, 9}, {10, 11, 12, 13}, {14, 15}},
            {{0, 2}, {0, 4}, {1, 3}, {2, 6}, {3, 7}, {4, 8}, {6, 10}, {7, 11}, {8, 12}, {10, 14}, {11, 15}, {12, 14}},
            {}, {3, 7, 11});
        group.assign(g.vertexCount(), -1);
        for (auto [y, z] : {std::pair{4, 5}, {8, 9}, {12, 13}}) group[y] = group[z] = y;
        return g;
    }

private Q_SLOTS:
    void aLaneGoesRoundABlock() {
        std::vector<int32_t> group;
        LayeredGraph g = laneThroughABlock(group);
        QCOMPARE(countAllCrossings(g), int64_t{2});
        LayeredGraph exchanged = g;
        QCOMPARE(transposePass(exchanged, group, 8), int64_t{0});

        QCOMPARE(rerouteLanes(g, group, 3, 1 << 20), int64_t{2});
        QCOMPARE(countAllCrossings(g), int64_t{0});
        // Past the satellite, not between it and its anchor (as free there).
        QCOMPARE(g.layers[1], (std::vector<int32_t>{2, 4, 5, 3}));
        QCOMPARE(g.layers[2], (std::vector<int32_t>{6, 8, 9, 7}));
        QCOMPARE(g.layers[3], (std::vector<int32_t>{10, 12, 13, 11}));
        QVERIFY(sameVerticesInStep(g, g.layers));
    }

    // A bend point that anchors satellites (here d2, with a vertex beside it
    // in its group) keeps its lane where it is: moving it alone would split
    // the group.
    void aLaneWithAnAnchorStays() {
        LayeredGraph g = layered(
            {{0, 1}, {2, 3, 4, 5}, {6, 7, 16, 8, 9}, {10, 11, 12, 13}, {14, 15}},
            {{0, 2}, {0, 4}, {1, 3}, {2, 6}, {3, 7}, {4, 8}, {6, 10}, {7, 11}, {8, 12}, {10, 14}, {11, 15}, {12, 14}},
            {}, {3, 7, 11});
        std::vector<int32_t> group(g.vertexCount(), -1);
        for (auto [y, z] : {std::pair{4, 5}, {8, 9}, {12, 13}, {7, 16}}) group[y] = group[z] = y;
        const std::vector<std::vector<int32_t>> before = g.layers;
        QCOMPARE(rerouteLanes(g, group, 3, 1 << 20), int64_t{0});
        QCOMPARE(g.layers, before);
        QVERIFY(groupsTogether(g, group));
    }

    // Without the work to fill its tables, a lane stays.
    void noWorkNoMove() {
        std::vector<int32_t> group;
        LayeredGraph g = laneThroughABlock(group);
        QCOMPARE(rerouteLanes(g, group, 3, 10), int64_t{0});
        QCOMPARE(countAllCrossings(g), int64_t{2});
    }

    // Random graphs of 3-8 layers: items, and lanes of bend points from an
    // item to an item two or more layers down; some items grouped with a
    // neighbour. What the routing reports removed is what a full count
    // finds removed; groups stay whole; layers keep their vertices.
    void reportedGainIsCounted() {
        std::mt19937 rng(5);
        int64_t total = 0;
        for (int round = 0; round < 300; ++round) {
            const int layerCount = 3 + static_cast<int>(rng() % 6);
            RandomItems random = randomItems(rng, layerCount, 5, 25);
            std::vector<std::vector<int32_t>>& layers = random.layers;
            std::vector<std::pair<int32_t, int32_t>>& edges = random.edges;
            const int32_t items = random.count;
            int32_t next = items;
            std::vector<int32_t> dummies;
            for (int k = 0; k < 4; ++k) {  // lanes
                const int top = static_cast<int>(rng() % layerCount);
                const int bottom = top + 2 + static_cast<int>(rng() % 3);
                if (bottom >= layerCount) continue;
                auto anItem = [&](int l) {  // not a bend point of an earlier lane
                    for (;;) {
                        const int32_t v = layers[l][rng() % layers[l].size()];
                        if (v < items) return v;
                    }
                };
                int32_t above = anItem(top);
                for (int l = top + 1; l < bottom; ++l) {
                    const int32_t d = next++;
                    dummies.push_back(d);
                    auto& layer = layers[l];
                    layer.insert(layer.begin() + static_cast<long>(rng() % (layer.size() + 1)), d);
                    edges.emplace_back(above, d);
                    above = d;
                }
                edges.emplace_back(above, anItem(bottom));
            }
            LayeredGraph g = layered(layers, edges, {}, dummies);
            const std::vector<int32_t> group =
                randomGroups(rng, layers, next, 25, [&g](int32_t left, int32_t right, const std::vector<int32_t>& gr) {
                    return !g.isDummy(left) && !g.isDummy(right) && gr[right] < 0;
                });
            g.layers = layers;
            g.updatePositions();

            const int64_t before = countAllCrossings(g);
            const int64_t gained = rerouteLanes(g, group, 3, 1 << 20);
            QVERIFY(gained >= 0);
            QCOMPARE(countAllCrossings(g), before - gained);
            QVERIFY(groupsTogether(g, group));
            QVERIFY(sameVerticesInStep(g, layers));
            total += gained;
        }
        QVERIFY(total > 0);  // not vacuous: lanes do move
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestLaneRouting)
#include "test_lane_routing.moc"
