// .safetensors: values equal what PyTorch recorded, zero-copy over the
// mapping, unsupported dtypes reported by name while the rest stays
// readable, and every check of the reference reader enforced.
#include "core/io/catalog/safetensors_fast_scan.h"
#include "core/io/catalog/safetensors_header.h"
#include "core/io/tensor_file.h"
#include "tensor_test_util.h"

#include <QtTest/QtTest>

using namespace irscope::io;
using namespace irscope::io::test;

namespace {

std::string makeFile(const std::string& header, const std::string& data, uint64_t sizeField = UINT64_MAX) {
    uint64_t n = sizeField == UINT64_MAX ? header.size() : sizeField;
    std::string out(reinterpret_cast<const char*>(&n), 8);
    return out + header + data;
}

}  // namespace

class TestSafetensors : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string tmp(const std::string& name) { return (dir_.path() + "/").toStdString() + name; }

    // Expects readTensorFile to refuse `bytes` with a message containing `reason`.
    void expectRefused(const std::string& bytes, const QString& reason) {
        std::string path = tmp("case.safetensors");
        writeBytes(path, bytes);
        try {
            readTensorFile(path);
            QFAIL(qPrintable("accepted, expected: " + reason));
        } catch (const TensorFileError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ": "), e.what());
            QVERIFY2(QString(e.what()).contains(reason), e.what());
        }
    }

private Q_SLOTS:
    void matchesPyTorch() {
        TensorMap map = readTensorFile(fixture("small.safetensors"));
        compareWithExpected(map, "small.safetensors");
        QCOMPARE(detectTensorFileFormat(fixture("small.safetensors")), std::string("safetensors"));
    }

    void tensorsPointIntoTheMapping() {
        TensorMap map = readTensorFile(fixture("small.safetensors"));
        // a.weight (24 bytes) then d in the data: adjacent in the mapping, not copies.
        auto* a = static_cast<const char*>(map.find("a.weight")->data_ptr());
        auto* d = static_cast<const char*>(map.find("d")->data_ptr());
        QCOMPARE(d - a, std::ptrdiff_t(24));
        ReadOptions copy;
        copy.copy = true;
        TensorMap owned = readTensorFile(fixture("small.safetensors"), copy);
        compareWithExpected(owned, "small.safetensors");
    }

    void unsupportedDTypesAreReportedByName() {
        TensorMap map = readTensorFile(fixture("fp8_mixed.safetensors"));
        compareWithExpected(map, "fp8_mixed.safetensors");
        QCOMPARE(map.skipped().size(), size_t(2));
        QCOMPARE(QString::fromStdString(map.skipped()[0].name), QString("scale_fp8"));
        QCOMPARE(QString::fromStdString(map.skipped()[0].dtype), QString("float8_e4m3fn"));
        QVERIFY(QString::fromStdString(map.skipped()[0].reason).contains("not supported"));
        QCOMPARE(map.skipped()[0].shape, std::vector<int64_t>{4});
        QCOMPARE(QString::fromStdString(map.skipped()[1].dtype), QString("uint16"));
    }

    void selectIsANamePrefix() {
        ReadOptions options;
        options.select = "a";
        TensorMap map = readTensorFile(fixture("small.safetensors"), options);
        QCOMPARE(map.size(), size_t(1));
        QVERIFY(map.find("weight"));
    }

    void emptyFileWithNoTensors() {
        std::string path = tmp("none.safetensors");
        writeBytes(path, makeFile("{}      ", ""));
        QCOMPARE(readTensorFile(path).size(), size_t(0));
    }

    // The canonical scanner reads what writers write and declines the rest,
    // which the JSON reader then reads to the same rows (hand-written cases).
    void canonicalScannerAndJsonReaderAgree_data() {
        QTest::addColumn<QString>("header");
        QTest::addColumn<bool>("canonical");
        const char* plain =
            R"({"__metadata__":{"format":"pt"},"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},)"
            R"( "b" : { "data_offsets" : [24, 32], "shape": [ 2 ], "dtype": "I32" } })";
        QTest::newRow("canonical, any key order and spacing") << plain << true;
        QTest::newRow("escaped name")
            << R"({"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},"\u0062":{"dtype":"I32","shape":[2],"data_offsets":[24,32]}})"
            << false;
        QTest::newRow("metadata with escapes")
            << R"({"__metadata__":{"format":"p\u0074"},"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},"b":{"dtype":"I32","shape":[2],"data_offsets":[24,32]}})"
            << false;
    }
    void canonicalScannerAndJsonReaderAgree() {
        QFETCH(QString, header);
        QFETCH(bool, canonical);
        const std::string text = header.toStdString();
        QCOMPARE(scanCanonicalHeader(text).has_value(), canonical);
        const SafetensorsHeader h = parseSafetensorsHeader(makeFile(text, std::string(32, '\0')));
        QCOMPARE(h.tensors.size(), size_t(2));
        QCOMPARE(h.tensors[0].name, std::string("w"));
        QCOMPARE(h.tensors[0].shape, (std::vector<int64_t>{2, 3}));
        QCOMPARE(h.tensors[1].name, std::string("b"));
        QCOMPARE(h.tensors[1].dtype, std::string("I32"));
        QCOMPARE(h.tensors[1].begin, uint64_t(24));
        QCOMPARE(h.tensors[1].end, uint64_t(32));
        QCOMPARE(h.metadata.empty(), header.indexOf("__metadata__") < 0);
        if (!h.metadata.empty()) QCOMPARE(h.metadata[0].second, std::string("pt"));
    }
    void scannerDeclinesWhatItDoesNotKnow() {
        for (
            const char* text : {
                R"({"w":{"dtype":"F32","shape":[2.0],"data_offsets":[0,8]}})",      // a float dim
                R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8],"x":1}})",  // an extra key
                R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"w":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})",
                R"({"w":{"dtype":"F32","shape":[01],"data_offsets":[0,4]}})",                // a leading zero
                R"({"w":{"dtype":"F33","shape":[1],"data_offsets":[0,4]}})",                 // an unknown dtype
                R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}} x)",               // trailing text
                "{\"w\xc3\xa9\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}",  // non-ASCII
            })
            QVERIFY2(!scanCanonicalHeader(text), text);
    }

    void malformed_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        const std::string f4(16, '\x01');
        auto row = [](const char* name, const std::string& bytes, const char* reason) {
            QTest::newRow(name) << QByteArray(bytes.data(), qsizetype(bytes.size())) << QString(reason);
        };
        const std::string good = R"({"x":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})";
        row("header too large", makeFile(good, f4, 100'000'001), "exceeds the limit");
        row("header past end", makeFile(good, f4, 1000), "truncated");
        row("short size field", std::string("\x05\x00\x00", 3), "truncated");
        row("not json", makeFile("{nope", f4), "not valid JSON");
        row("not an object", makeFile("[1,2]   ", f4), "does not start with '{'");
        row("bad utf8", makeFile("{\"\xff\xfe\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}", f4),
            "not valid JSON");
        row("unknown dtype", makeFile(R"({"x":{"dtype":"F7","shape":[2,2],"data_offsets":[0,16]}})", f4),
            "unknown dtype 'F7'");
        row("gap", makeFile(R"({"x":{"dtype":"F32","shape":[2,2],"data_offsets":[4,20]}})", f4 + "abcd"),
            "gap or overlap");
        row("overlap",
            makeFile(
                R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"y":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                f4),
            "gap or overlap");
        row("end before begin", makeFile(R"({"x":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}})", f4),
            "tensor 'x'");
        row("size mismatch", makeFile(R"({"x":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}})", f4),
            "needs 12 bytes");
        row("count overflow",
            makeFile(R"({"x":{"dtype":"F32","shape":[4611686018427387904,4611686018427387904],"data_offsets":[0,16]}})",
                     f4),
            "overflows");
        row("bytes overflow",
            makeFile(R"({"x":{"dtype":"F64","shape":[4611686018427387904],"data_offsets":[0,16]}})", f4), "overflows");
        row("negative dim", makeFile(R"({"x":{"dtype":"F32","shape":[-4],"data_offsets":[0,16]}})", f4),
            "non-negative");
        row("float dim", makeFile(R"({"x":{"dtype":"F32","shape":[4.0],"data_offsets":[0,16]}})", f4), "non-negative");
        row("duplicate name",
            makeFile(
                R"({"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"x":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})",
                f4),
            "names 'x' twice");
        row("truncated data", makeFile(good, f4.substr(0, 10)), "truncated");
        row("trailing bytes", makeFile(good, f4 + "junk"), "trailing");
        row("no offsets", makeFile(R"({"x":{"dtype":"F32","shape":[4]}})", f4), "data_offsets");
        row("metadata not strings",
            makeFile(R"({"__metadata__":{"a":1},"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", f4),
            "__metadata__");
        row("sub-byte misfit", makeFile(R"({"x":{"dtype":"F4","shape":[3],"data_offsets":[0,16]}})", f4),
            "whole number of bytes");
        row("deeply nested dim",
            makeFile(R"({"x":{"dtype":"F32","shape":[)" + std::string(5000, '[') + std::string(5000, ']') +
                         R"(],"data_offsets":[0,16]}})",
                     f4),
            "non-negative");
    }
    void malformed() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        expectRefused(bytes.toStdString(), reason);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestSafetensors)
#include "test_safetensors.moc"
