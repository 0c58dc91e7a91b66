// The reduce search against planted failures whose answers are
// known: one bad node among 100,000 is found by bisection in at most
// 2*log2(n) tests; a failure that needs two nodes is narrowed to the range
// between them by linear shrinking; the budget and a cancel stop the search
// with a range that still fails.
#include <QtTest/QtTest>

#include <cmath>

#include "core/exec/repro/range_reducer.h"

using namespace irscope::exec;

class TestRangeReducer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void bisectionFindsOneBadNode() {
        const int64_t n = 100000, bad = 61803;
        int tests = 0;
        auto fails = [&](int64_t lo, int64_t hi) {
            ++tests;
            return lo <= bad && bad < hi;
        };
        const ReduceResult r = reduceRange(n, fails);
        QCOMPARE(r.lo, bad);
        QCOMPARE(r.hi, bad + 1);
        QVERIFY2(tests <= 2 * static_cast<int>(std::ceil(std::log2(n))), qPrintable(QString::number(tests)));
        QCOMPARE(static_cast<int>(r.steps.size()), tests);
        QVERIFY(!r.outOfTime && !r.cancelled);
    }

    // Fails only when both 10 and 90 are in: bisection cannot split it, the ends shrink to [10, 91).
    void linearShrinksAPairedFailure() {
        auto fails = [](int64_t lo, int64_t hi) { return lo <= 10 && 90 < hi; };
        ReduceOptions o;
        const ReduceResult both = reduceRange(100, fails, o);
        QCOMPARE(both.lo, int64_t(10));
        QCOMPARE(both.hi, int64_t(91));
        o.mode = ReduceMode::Bisect;
        const ReduceResult bisectOnly = reduceRange(100, fails, o);
        QCOMPARE(bisectOnly.lo, int64_t(0));
        QCOMPARE(bisectOnly.hi, int64_t(100));
        QCOMPARE(bisectOnly.steps.size(), size_t(2));
        o.mode = ReduceMode::Linear;
        const ReduceResult linearOnly = reduceRange(100, fails, o);
        QCOMPARE(linearOnly.lo, int64_t(10));
        QCOMPARE(linearOnly.hi, int64_t(91));
        QCOMPARE(linearOnly.steps.size(), size_t(10 + 1 + 9 + 1));  // 10 drops and a refusal, each end
    }

    void cancelAndBudgetStopWithAFailingRange() {
        auto fails = [](int64_t lo, int64_t hi) { return lo <= 700 && 700 < hi; };
        ReduceOptions o;
        int seen = 0;
        o.onStep = [&](const ReduceStep&) { return ++seen < 3; };
        const ReduceResult r = reduceRange(1000, fails, o);
        QVERIFY(r.cancelled);
        QCOMPARE(r.steps.size(), size_t(3));
        QVERIFY(fails(r.lo, r.hi));
        QVERIFY(r.hi - r.lo < 1000);
        ReduceOptions slow;
        slow.budget = std::chrono::milliseconds(1);
        const ReduceResult t = reduceRange(
            1000,
            [&](int64_t lo, int64_t hi) {
                QTest::qSleep(5);
                return fails(lo, hi);
            },
            slow);
        QVERIFY(t.outOfTime);
        QVERIFY(fails(t.lo, t.hi));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestRangeReducer)
#include "test_range_reducer.moc"
