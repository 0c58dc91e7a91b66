// Chain exchange (core/layout/chain_exchange.h): a crossing a one-layer
// exchange cannot move (its first step gains nothing) moves down two
// parallel chains to where it costs one edge instead of two; and on random
// layered graphs with satellite groups the crossings it reports removed are
// the crossings counted afterwards, with every group kept together.
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "core/layout/adjacency.h"
#include "core/layout/adjacent_exchange.h"
#include "core/layout/chain_exchange.h"
#include "core/layout/crossing_count.h"
#include "core/layout/layered_graph.h"
#include "layout/hand_layered.h"

using namespace irscope::layout::detail;
using hand_layered::layered;
using hand_layered::randomGroups;
using hand_layered::RandomItems;
using hand_layered::randomItems;

using hand_layered::groupsTogether;
using hand_layered::sameVerticesInStep;

class TestChainExchange : public QObject {
    Q_OBJECT

    // Layer 1: an op m with its weight w beside it (one group), fed from
    // all three vertices of layer 0, and a lane's vertex s on the right,
    // fed from the rightmost of them. Layer 2: the lane's next op t with its own weight b
    // beside it (one group), left of q, which m and w feed: s -> t crosses
    // both m -> q and w -> q. Below, t and q run on as two parallel chains
    // to layer 4; in layer 5 the lane must end left of the column (its end
    // also takes an edge from u, at the far left of layer 4). No one-layer
    // exchange gains: moving s left costs its two crossings above, moving
    // [t b] right costs two below. Exchanging layers 2 and 3 together moves
    // the crossing to the gap below, where it crosses one edge.
    static LayeredGraph laneBesideAColumn(std::vector<int32_t>& group) {
        LayeredGraph g = layered({{13, 14, 15}, {0, 1, 2}, {3, 4, 5}, {6, 7}, {12, 8, 9}, {10, 11}},
                                 {{13, 0},
                                  {14, 0},
                                  {15, 0},
                                  {15, 2},
                                  {0, 5},
                                  {1, 5},
                                  {2, 3},
                                  {3, 6},
                                  {4, 6},
                                  {5, 7},
                                  {6, 8},
                                  {7, 9},
                                  {8, 10},
                                  {9, 11},
                                  {12, 10}},
                                 {1, 4});
        group.assign(g.vertexCount(), -1);
        group[0] = group[1] = 0;
        group[3] = group[4] = 3;
        return g;
    }

private Q_SLOTS:
    void aCrossingMovesDownToASingleEdge() {
        std::vector<int32_t> group;
        LayeredGraph g = laneBesideAColumn(group);
        QCOMPARE(countAllCrossings(g), int64_t{2});
        LayeredGraph exchanged = g;
        QCOMPARE(transposePass(exchanged, group, 8), int64_t{0});  // no single layer gains

        QCOMPARE(chainExchangePass(g, group, 8, 4), int64_t{1});
        QCOMPARE(countAllCrossings(g), int64_t{1});
        QCOMPARE(g.layers[1], (std::vector<int32_t>{0, 1, 2}));
        QCOMPARE(g.layers[2], (std::vector<int32_t>{5, 3, 4}));
        QCOMPARE(g.layers[3], (std::vector<int32_t>{7, 6}));
        QCOMPARE(g.layers[4], (std::vector<int32_t>{12, 8, 9}));
        QVERIFY(sameVerticesInStep(g, g.layers));  // positions kept in step
    }

    // Blocks are at most maxDepth layers each way from the pair they start
    // from: with none, the pass is the one-layer exchange of units and
    // leaves the example above as it is.
    void depthZeroIsTheOneLayerExchange() {
        std::vector<int32_t> group;
        LayeredGraph g = laneBesideAColumn(group);
        QCOMPARE(chainExchangePass(g, group, 0, 4), int64_t{0});
        QCOMPARE(countAllCrossings(g), int64_t{2});
    }

    // Random graphs of 3-7 layers, 2-6 vertices each, edges between
    // adjacent layers, some vertices grouped with a neighbour: what the
    // pass reports removed is what a full count finds removed, it never
    // adds crossings, every layer keeps its vertices, groups stay whole.
    void reportedGainIsCounted() {
        std::mt19937 rng(11);
        int64_t total = 0, oneLayer = 0;  // removed over all graphs: chains 3 deep, and 0 (the one-layer exchange)
        for (int round = 0; round < 300; ++round) {
            const int layerCount = 3 + static_cast<int>(rng() % 5);
            RandomItems items = randomItems(rng, layerCount, 6, 30);
            std::vector<std::vector<int32_t>>& layers = items.layers;
            LayeredGraph g = layered(layers, items.edges);
            // Groups: a vertex now and then takes its left neighbour's.
            const std::vector<int32_t> group =
                randomGroups(rng, layers, items.count, 25, [](int32_t, int32_t, const auto&) { return true; });
            // A shuffled start, groups kept whole: shuffle runs.
            for (auto& l : layers) {
                std::vector<std::vector<int32_t>> runs;
                for (int32_t v : l) {
                    if (!runs.empty() && group[v] >= 0 && group[runs.back().back()] == group[v])
                        runs.back().push_back(v);
                    else
                        runs.push_back({v});
                }
                std::shuffle(runs.begin(), runs.end(), rng);
                l.clear();
                for (const auto& r : runs) l.insert(l.end(), r.begin(), r.end());
            }
            g.layers = layers;
            g.updatePositions();

            LayeredGraph flat = g;
            oneLayer += chainExchangePass(flat, group, 0, 4);
            const int64_t before = countAllCrossings(g);
            const int64_t gained = chainExchangePass(g, group, 3, 4);
            QVERIFY(gained >= 0);
            QCOMPARE(countAllCrossings(g), before - gained);
            QVERIFY(groupsTogether(g, group));
            QVERIFY(sameVerticesInStep(g, layers));
            total += gained;
        }
        // Not vacuous: the pass gains, and chains gain beyond one layer.
        QVERIFY2(total > oneLayer, qPrintable(QString("%1 with chains, %2 without").arg(total).arg(oneLayer)));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestChainExchange)
#include "test_chain_exchange.moc"
