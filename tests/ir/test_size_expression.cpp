// Symbolic sizes as torch.export writes them (sympy's srepr, wrappers
// dropped by the .pt2 reader), shown as a user writes them and solved for
// their symbol where they are affine. Expected texts written by hand.
#include <QtTest>

#include "core/ir/size_expression.h"

using namespace irscope::ir;

class TestSizeExpression : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsAsAUserWritesIt_data() {
        QTest::addColumn<QString>("srepr");
        QTest::addColumn<QString>("readable");
        QTest::newRow("symbol") << "s27"
                                << "s27";
        QTest::newRow("derived dim") << "Mul(2, s44)"
                                     << "2*s44";
        QTest::newRow("plus one") << "Add(Mul(2, s0), 1)"
                                  << "2*s0 + 1";
        QTest::newRow("number first") << "Add(-1, s27)"
                                      << "s27 - 1";
        QTest::newRow("product of symbols") << "Mul(s77, s27)"
                                            << "s77*s27";
        QTest::newRow("floor division") << "FloorDiv(s77, 2)"
                                        << "s77//2";
        QTest::newRow("sum in a product") << "Mul(2, Add(s1, 1))"
                                          << "2*(s1 + 1)";
        QTest::newRow("division in a product") << "Mul(2, FloorDiv(s0, 2))"
                                               << "2*(s0//2)";
        QTest::newRow("product divided") << "FloorDiv(Mul(2, s0), 2)"
                                         << "2*s0//2";
        QTest::newRow("unknown function kept") << "Max(1, s3)"
                                               << "Max(1, s3)";
        QTest::newRow("not an expression") << "Mul(2, "
                                           << "Mul(2, ";
        // As torch.export writes them, sympy's wrappers and all.
        QTest::newRow("srepr") << "Mul(Integer(4), Symbol('s77', positive=True, integer=True))"
                               << "4*s77";
        QTest::newRow("float power") << "FloatPow(ToFloat(Symbol('s27', positive=True, integer=True)), "
                                        "Float('-0.5', precision=53))"
                                     << "float(s27)**-0.5";
        QTest::newRow("check") << "GreaterThan(Symbol('u0', integer=True), Integer(1))"
                               << "u0 >= 1";
        QTest::newRow("strict check") << "StrictLessThan(Symbol('u0', integer=True), Symbol('s5', integer=True))"
                                      << "u0 < s5";
    }
    void readsAsAUserWritesIt() {
        QFETCH(QString, srepr);
        QFETCH(QString, readable);
        QCOMPARE(QString::fromStdString(readableSizeExpression(srepr.toStdString())), readable);
    }

    // A hostile file's expression nested 100,000 deep is kept as text, not recursed into.
    void deepNestingIsNotParsed() {
        std::string deep;
        for (int k = 0; k < 100000; ++k) deep += "Mul(2, ";
        deep += "s0";
        for (int k = 0; k < 100000; ++k) deep += ")";
        QCOMPARE(readableSizeExpression(deep).size(), deep.size());
    }

    void solvesAffineSizesForTheirSymbol() {
        auto a = affineSize("2*s44 + 1");
        QVERIFY(a);
        QCOMPARE(a->coefficient, int64_t{2});
        QCOMPARE(a->symbol, std::string("s44"));
        QCOMPARE(a->offset, int64_t{1});
        a = affineSize("s27 - 1");
        QVERIFY(a && a->coefficient == 1 && a->offset == -1 && a->symbol == "s27");
        a = affineSize("u0");
        QVERIFY(a && a->coefficient == 1 && a->offset == 0 && a->symbol == "u0");
        QVERIFY(!affineSize("s77*s27"));
        QVERIFY(!affineSize("s77//2"));
        QVERIFY(!affineSize("s1 + s2"));
        QVERIFY(!affineSize("7"));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestSizeExpression)
#include "test_size_expression.moc"
