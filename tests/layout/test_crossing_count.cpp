// Fenwick-tree bilayer crossing count against hand-counted cases and a
// brute-force pairwise count; the per-gap count of a layered graph (which
// walks the upper layer in order instead of sorting segments) likewise.
#include <QTest>

#include <algorithm>
#include <random>

#include "core/layout/crossing_count.h"

using irscope::layout::detail::Adjacency;
using irscope::layout::detail::countBilayerCrossings;
using irscope::layout::detail::countLayerCrossings;
using irscope::layout::detail::LayeredGraph;
using irscope::layout::detail::VertexType;
using Segs = std::vector<std::pair<int32_t, int32_t>>;

// Every pair of segments, checked: two cross when their ends are in
// opposite orders on the two layers.
int64_t bruteForceCrossings(const Segs& segs) {
    int64_t crossings = 0;
    for (size_t i = 0; i < segs.size(); ++i)
        for (size_t j = i + 1; j < segs.size(); ++j) {
            const auto [a, b] = segs[i];
            const auto [c, d] = segs[j];
            if ((a < c && b > d) || (a > c && b < d)) ++crossings;
        }
    return crossings;
}

class TestCrossingCount : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void handCounted_data() {
        QTest::addColumn<QVariantList>("flat");  // u0, v0, u1, v1, ...
        QTest::addColumn<int>("lower");
        QTest::addColumn<qlonglong>("expected");
        QTest::newRow("empty") << QVariantList{} << 1 << 0LL;
        QTest::newRow("parallel") << QVariantList{0, 0, 1, 1} << 2 << 0LL;
        QTest::newRow("x") << QVariantList{0, 1, 1, 0} << 2 << 1LL;
        QTest::newRow("shared upper") << QVariantList{0, 0, 0, 1} << 2 << 0LL;
        QTest::newRow("shared lower") << QVariantList{0, 0, 1, 0} << 1 << 0LL;
        // K2,2: only a0-b1 x a1-b0 cross.
        QTest::newRow("K22") << QVariantList{0, 0, 0, 1, 1, 0, 1, 1} << 2 << 1LL;
        // K2,3: one crossing per pair of lower vertices = 3.
        QTest::newRow("K23") << QVariantList{0, 0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 2} << 3 << 3LL;
        // Full reversal of 4 parallel edges: every pair crosses = 6.
        QTest::newRow("reversed4") << QVariantList{0, 3, 1, 2, 2, 1, 3, 0} << 4 << 6LL;
    }
    void handCounted() {
        QFETCH(QVariantList, flat);
        QFETCH(int, lower);
        QFETCH(qlonglong, expected);
        Segs segs;
        for (int i = 0; i + 1 < flat.size(); i += 2) segs.emplace_back(flat[i].toInt(), flat[i + 1].toInt());
        QCOMPARE(countBilayerCrossings(segs, lower), expected);
    }
    void matchesBruteForce() {
        std::mt19937 rng(7);
        for (int trial = 0; trial < 200; ++trial) {
            const int up = 1 + rng() % 12, low = 1 + rng() % 12, m = rng() % 40;
            Segs segs;
            for (int i = 0; i < m; ++i) segs.emplace_back(rng() % up, rng() % low);
            const int64_t brute = bruteForceCrossings(segs);
            QCOMPARE(countBilayerCrossings(segs, low), brute);
        }
    }
    void layerGapMatchesBruteForce() {
        // Random three-layer graphs in a random order; gaps 0 and 1 counted
        // with one scratch tree reused across sizes (as the exchange pass
        // does), and without.
        std::mt19937 rng(11);
        std::vector<int32_t> tree;
        for (int trial = 0; trial < 300; ++trial) {
            const int32_t sizes[3] = {int32_t(1 + rng() % 10), int32_t(1 + rng() % 10), int32_t(1 + rng() % 10)};
            LayeredGraph g;
            g.layers.resize(3);
            for (int32_t l = 0; l < 3; ++l)
                for (int32_t i = 0; i < sizes[l]; ++i) {
                    g.layers[l].push_back(g.vertexCount());
                    g.type.push_back(VertexType::Item);
                    g.layer.push_back(l);
                }
            std::vector<std::pair<int32_t, int32_t>> downs, ups;
            for (int32_t l = 0; l < 2; ++l) {
                const int m = rng() % 30;  // parallel edges allowed: they never cross
                for (int i = 0; i < m; ++i) {
                    const int32_t u = g.layers[l][rng() % sizes[l]], v = g.layers[l + 1][rng() % sizes[l + 1]];
                    downs.emplace_back(u, v);
                    ups.emplace_back(v, u);
                }
            }
            g.down = Adjacency(g.vertexCount(), downs);
            g.up = Adjacency(g.vertexCount(), ups);
            for (auto& layer : g.layers) std::shuffle(layer.begin(), layer.end(), rng);
            g.pos.assign(g.vertexCount(), 0);
            for (auto& layer : g.layers)
                for (size_t i = 0; i < layer.size(); ++i) g.pos[layer[i]] = static_cast<int32_t>(i);
            for (int32_t l = 0; l < 2; ++l) {
                Segs segs;
                for (int32_t u : g.layers[l])
                    for (int32_t v : g.down[u]) segs.emplace_back(g.pos[u], g.pos[v]);
                const int64_t brute = bruteForceCrossings(segs);
                QCOMPARE(countLayerCrossings(g, l, tree), brute);
                QCOMPARE(countLayerCrossings(g, l), brute);
            }
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestCrossingCount)
#include "test_crossing_count.moc"
