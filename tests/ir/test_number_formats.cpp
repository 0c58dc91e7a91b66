// Python-compatible float text and half/bfloat16 bit conversion, hand-checked.
#include <QtTest>

#include <cmath>
#include <limits>

#include "core/ir/half_float.h"
#include "core/ir/python_json_writer.h"

using namespace irscope::ir;

class TestNumberFormats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pythonFloatRepr_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("repr");
        // Each right-hand side is what CPython 3 prints for repr(value).
        QTest::newRow("one") << 1.0 << "1.0";
        QTest::newRow("tenth") << 0.1 << "0.1";
        QTest::newRow("float32 tenth") << static_cast<double>(0.1f) << "0.10000000149011612";
        QTest::newRow("1e-05") << 1e-05 << "1e-05";
        QTest::newRow("0.0001") << 0.0001 << "0.0001";
        QTest::newRow("1e16") << 1e16 << "1e+16";
        QTest::newRow("1e15") << 1e15 << "1000000000000000.0";
        QTest::newRow("neg") << -2.5 << "-2.5";
        QTest::newRow("neg zero") << -0.0 << "-0.0";
        QTest::newRow("1.5e-07") << 1.5e-07 << "1.5e-07";
        QTest::newRow("123456.789") << 123456.789 << "123456.789";
        QTest::newRow("float max") << 3.4028234663852886e+38 << "3.4028234663852886e+38";
        QTest::newRow("1e100") << 1e100 << "1e+100";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "NaN";
        QTest::newRow("-inf") << -std::numeric_limits<double>::infinity() << "-Infinity";
    }
    void pythonFloatRepr() {
        QFETCH(double, value);
        QFETCH(QString, repr);
        QCOMPARE(QString::fromStdString(irscope::ir::pythonFloatRepr(value)), repr);
    }

    void pythonStringEscapes() {
        std::string out;
        appendPythonJsonString(out, "a\"b\\c\n\x01\x7f\xC3\xA9\xF0\x9F\x98\x80");
        // json.dumps('a"b\\c\n\x01\x7fé😀')
        QCOMPARE(QString::fromStdString(out), QString("\"a\\\"b\\\\c\\n\\u0001\\u007f\\u00e9\\ud83d\\ude00\""));
    }

    void halfConversion_data() {
        QTest::addColumn<float>("value");
        QTest::addColumn<int>("half");
        QTest::addColumn<int>("bf16");
        // Bit patterns from torch.tensor([v]).half()/.bfloat16().view(torch.int16).
        QTest::newRow("1") << 1.0f << 0x3C00 << 0x3F80;
        QTest::newRow("0.1") << 0.1f << 0x2E66 << 0x3DCD;
        QTest::newRow("-2") << -2.0f << 0xC000 << 0xC000;
        QTest::newRow("65504") << 65504.0f << 0x7BFF << 0x4780;
        QTest::newRow("65520 overflows") << 65520.0f << 0x7C00 << 0x4780;
        QTest::newRow("2^-24 smallest subnormal") << 5.9604645e-08f << 0x0001 << 0x3380;
        QTest::newRow("inf") << std::numeric_limits<float>::infinity() << 0x7C00 << 0x7F80;
    }
    void halfConversion() {
        QFETCH(float, value);
        QFETCH(int, half);
        QFETCH(int, bf16);
        QCOMPARE(int(floatToHalfBits(value)), half);
        QCOMPARE(int(floatToBFloat16Bits(value)), bf16);
        if (std::isfinite(halfBitsToFloat(static_cast<uint16_t>(half))) && std::fabs(value) <= 65504.0f &&
            std::fabs(value) >= 6.1e-05f)
            QVERIFY(std::fabs(halfBitsToFloat(static_cast<uint16_t>(half)) - value) <= std::fabs(value) * 1e-3f);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestNumberFormats)
#include "test_number_formats.moc"
