// .npy files and directories of them, written by NumPy.
#include "core/io/tensor_file.h"
#include "tensor_test_util.h"

#include <QtTest/QtTest>

using namespace irscope::io;
using namespace irscope::io::test;

class TestNpy : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void matchesNumPy_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"vector.npy", "fortran.npy", "big_endian.npy", "npy_dir"}) QTest::newRow(f) << f;
    }
    void matchesNumPy() {
        QFETCH(QString, file);
        TensorMap map = readTensorFile(fixture(file.toStdString()));
        compareWithExpected(map, file.toStdString());
    }

    void fortranOrderIsAView() {
        TensorMap map = readTensorFile(fixture("fortran.npy"));
        QCOMPARE(map.find("fortran")->strides().vec(), (std::vector<int64_t>{1, 3}));
    }

    void detection() {
        QCOMPARE(detectTensorFileFormat(fixture("vector.npy")), std::string("npy"));
        QCOMPARE(detectTensorFileFormat(fixture("npy_dir")), std::string("directory of npy"));
    }

    void malformed_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        auto npy = [](const std::string& dict, const std::string& data, char version = 1) {
            std::string header = dict + "\n";
            std::string out = std::string("\x93NUMPY", 6) + version + '\0';
            uint16_t n = static_cast<uint16_t>(header.size());
            out += std::string(reinterpret_cast<const char*>(&n), 2);
            return QByteArray::fromStdString(out + header + data);
        };
        const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
        QTest::newRow("truncated data") << npy(ok, "abcd") << "truncated";
        QTest::newRow("object array") << npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", "12345678")
                                      << "object arrays";
        QTest::newRow("uint16") << npy("{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }", "12")
                                << "not supported";
        QTest::newRow("struct") << npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "1234")
                                << "structured";
        QTest::newRow("bad version") << npy(ok, "12345678", 9) << "version 9";
        QTest::newRow("negative dim") << npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", "")
                                      << "shape";
        QTest::newRow("absurd shape")
            << npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", "") << "absurd";
        QTest::newRow("huge shape, no data")
            << npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000,), }", "") << "truncated";
        QTest::newRow("unterminated") << npy("{'descr': '<f4", "") << "unterminated";
        QTest::newRow("missing key") << npy("{'descr': '<f4', 'shape': (2,), }", "12345678") << "lacks";
        QTest::newRow("header past end") << QByteArray::fromStdString(std::string("\x93NUMPY\x01\x00\xff\x00{", 11))
                                         << "truncated";
    }
    void malformed() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        std::string path = (dir_.path() + "/bad.npy").toStdString();
        writeBytes(path, bytes.toStdString());
        try {
            readTensorFile(path);
            QFAIL("accepted");
        } catch (const TensorFileError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ": "), e.what());
            QVERIFY2(QString(e.what()).contains(reason), e.what());
        }
    }

    void emptyDirectoryIsRefused() {
        QTemporaryDir empty;
        QVERIFY_THROWS_EXCEPTION(TensorFileError, readTensorFile(empty.path().toStdString()));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestNpy)
#include "test_npy.moc"
