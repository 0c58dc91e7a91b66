// Fenwick-tree bilayer crossing count against hand-counted cases and a
// brute-force pairwise count.
#include <QTest>

#include <random>

#include "core/layout/crossing_count.h"

using irscope::layout::detail::countBilayerCrossings;
using Segs = std::vector<std::pair<int32_t, int32_t>>;

class TestCrossingCount : public QObject {
    Q_OBJECT
private slots:
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
            int64_t brute = 0;
            for (size_t i = 0; i < segs.size(); ++i)
                for (size_t j = i + 1; j < segs.size(); ++j) {
                    const auto [a, b] = segs[i];
                    const auto [c, d] = segs[j];
                    if ((a < c && b > d) || (a > c && b < d)) ++brute;
                }
            QCOMPARE(countBilayerCrossings(segs, low), brute);
        }
    }
};

QTEST_APPLESS_MAIN(TestCrossingCount)
#include "test_crossing_count.moc"
