// Broken tensor files: each is refused with "FILE: reason", never a crash,
// a hang or an unbounded allocation. Includes every prefix of every fixture
// and seeded random damage.
#include <filesystem>
#include <random>

#include "core/io/tensor_file.h"
#include "tensor_test_util.h"

#include <QtTest/QtTest>

using namespace irscope::io;
using namespace irscope::io::test;

class TestMalformedFiles : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string tmp(const std::string& name) { return (dir_.path() + "/").toStdString() + name; }

    static QStringList validFixtures() {
        return {"mlp_state_dict.pt", "mlp_state_dict_legacy.pt", "dtypes.pt",
                "dtypes_legacy.pt",  "views_legacy.pt",          "checkpoint.pt",
                "small.safetensors", "fp8_mixed.safetensors",    "vector.npy",
                "big_endian.npy"};
    }

private Q_SLOTS:
    void brokenTorchSave_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("reason");
        QTest::newRow("missing record") << "malformed_missing_record.pt"
                                        << "storage record 'malformed_missing_record/data/0' is missing";
        QTest::newRow("short record") << "malformed_short_record.pt"
                                      << "holds 64 bytes, the pickle says 128";
        QTest::newRow("truncated pickle") << "malformed_truncated_pickle.pt"
                                          << "truncated";
        QTest::newRow("view too large") << "malformed_view_too_large.pt"
                                        << "view reaches element 5 but its storage holds 4";
        QTest::newRow("offset past end") << "malformed_offset_past_end.pt"
                                         << "view reaches element 4 but its storage holds 4";
        QTest::newRow("absurd sizes") << "malformed_absurd_sizes.pt"
                                      << "overflows";
        QTest::newRow("absurd numel") << "malformed_absurd_numel.pt"
                                      << "absurd size";
        QTest::newRow("negative stride") << "malformed_negative_stride.pt"
                                         << "negative stride";
        QTest::newRow("compressed") << "malformed_compressed.pt"
                                    << "is compressed";
        QTest::newRow("bad crc") << "malformed_bad_crc.pt"
                                 << "CRC-32 mismatch";
    }
    void brokenTorchSave() {
        QFETCH(QString, file);
        QFETCH(QString, reason);
        const std::string path = fixture(file.toStdString());
        try {
            readTensorFile(path);
            QFAIL("accepted");
        } catch (const TensorFileError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ": "), e.what());
            QVERIFY2(QString(e.what()).contains(reason), e.what());
        }
    }

    void emptyAndMissing() {
        writeBytes(tmp("empty.pt"), "");
        QVERIFY_THROWS_EXCEPTION(TensorFileError, readTensorFile(tmp("empty.pt")));
        try {
            readTensorFile(tmp("empty.pt"));
        } catch (const TensorFileError& e) {
            QCOMPARE(QString(e.what()), QString::fromStdString(tmp("empty.pt") + ": empty file"));
        }
        try {
            readTensorFile(tmp("nope.pt"));
            QFAIL("accepted");
        } catch (const TensorFileError& e) {
            QVERIFY2(QString(e.what()).contains("cannot open"), e.what());
        }
    }

    // Every strict prefix of every valid file is refused.
    void everyTruncationIsRefused_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : validFixtures()) QTest::newRow(qPrintable(f)) << f;
    }
    void everyTruncationIsRefused() {
        QFETCH(QString, file);
        const std::string whole = readBytes(fixture(file.toStdString()));
        const std::string path = tmp("cut" + std::filesystem::path(file.toStdString()).extension().string());
        for (size_t n = 0; n < whole.size(); ++n) {
            writeBytes(path, whole.substr(0, n));
            try {
                readTensorFile(path);
                QFAIL(qPrintable(QString("prefix of %1 bytes accepted").arg(n)));
            } catch (const TensorFileError& e) {
                QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ": "), e.what());
            }
        }
    }

    // Seeded random damage: any outcome but a crash or a foreign exception is fine.
    void randomDamage_data() {
        QTest::addColumn<QString>("file");
        for (const QString& f : validFixtures()) QTest::newRow(qPrintable(f)) << f;
    }
    void randomDamage() {
        QFETCH(QString, file);
        const std::string whole = readBytes(fixture(file.toStdString()));
        const std::string path = tmp("damaged" + std::filesystem::path(file.toStdString()).extension().string());
        std::mt19937 rng(1234);
        for (int round = 0; round < 400; ++round) {
            std::string bytes = whole;
            int flips = 1 + int(rng() % 4);
            for (int k = 0; k < flips; ++k) bytes[rng() % bytes.size()] = char(rng());
            writeBytes(path, bytes);
            try {
                TensorMap map = readTensorFile(path);
                for (const auto& e : map) (void)e.tensor.contiguous().sum();  // touch every byte it claims
            } catch (const TensorFileError&) {}
        }
    }

    void randomBytes() {
        std::mt19937 rng(99);
        for (int round = 0; round < 300; ++round) {
            std::string bytes(1 + rng() % 512, '\0');
            for (char& c : bytes) c = char(rng());
            // Give some rounds a plausible magic so the deeper parsers see them.
            const char* magics[] = {"PK\x03\x04", "\x93NUMPY", "\x80\x02\x8a\x0a"};
            if (round % 4 != 3)
                bytes.replace(0, std::min<size_t>(bytes.size(), round % 4 == 1 ? 6 : 4), magics[round % 4]);
            writeBytes(tmp("random.bin"), bytes);
            try {
                readTensorFile(tmp("random.bin"));
            } catch (const TensorFileError&) {}
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestMalformedFiles)
#include "test_malformed_files.moc"
