// `irscope run QUANT --reference-program FLOAT`: the quantization debugger on
// the command line, on a PT2E-quantized CNN and its float program
// (tests/data/quantization/). The report has a row per paired tensor with the
// float node it stands for and its SQNR, MSE, max abs and cosine; the
// sensitivity list is best first; each int8 weight has its per-channel SQNR;
// a reference that cannot be used is refused with the reason.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::CliResult;
using irscope::test::runIrscope;

namespace {

QString quantizationData(const QString& file) {
    return QString::fromStdString(irscope::test::dataPath("quantization/")) + file;
}

}  // namespace

class TestQuantizationCommand : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void reportsEveryPairedTensorAndWhatToKeepInFloat() {
        QTemporaryDir dir;
        const QString report = dir.filePath("q.json");
        const CliResult r = runIrscope({"run", quantizationData("pt2e_static_cnn.pt2"), "--reference-program",
                                        quantizationData("pt2e_static_cnn.float.pt2"), "--report", report});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("output SQNR") && r.out.contains("keep in float, best first"), qPrintable(r.out));
        QFile f(report);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(doc["sqnr"].toString().contains("sum(ref^2)"));
        const QJsonArray nodes = doc["nodes"].toArray();
        QCOMPARE(nodes.size(), 10);
        for (const auto& v : nodes) {
            const QJsonObject row = v.toObject();
            for (const char* key : {"node", "reference_node", "sqnr_db", "mse", "max_abs", "cosine"})
                QVERIFY2(row.contains(key), key);
        }
        // The dequantized input stands for the float program's input x.
        bool input = false;
        for (const auto& v : nodes)
            input |= v.toObject()["node"].toString() == "dequantize_per_tensor" &&
                     v.toObject()["reference_tensor"].toString() == "x";
        QVERIFY(input);
        const QJsonArray sensitivity = doc["sensitivity"].toArray();
        QCOMPARE(sensitivity.size(), 3);
        for (int k = 1; k < sensitivity.size(); ++k)
            QVERIFY(sensitivity[k - 1].toObject()["output_sqnr_db"].toDouble() >=
                    sensitivity[k].toObject()["output_sqnr_db"].toDouble());
        const QJsonArray weights = doc["weights"].toArray();
        QVERIFY(weights.size() >= 2);
        QCOMPARE(weights[0].toObject()["axis"].toInt(), 0);
        QCOMPARE(weights[0].toObject()["channel_sqnr_db"].toArray().size(), 8);  // conv1: 8 output channels
        QVERIFY(doc["unpaired"].toArray().size() > 0);
    }

    // pytorch-ir's JSON of both programs, each with its state_dict: the same answer as the archives.
    void worksOnPytorchIrJsonToo() {
        QTemporaryDir dir;
        for (const char* stem : {"pt2e_static_mlp", "pt2e_static_mlp.float"}) {
            const QString archive = quantizationData(QString::fromLatin1(stem) + ".pt2");
            QCOMPARE(runIrscope({"convert", archive, dir.filePath(QString::fromLatin1(stem) + ".json")}).exitCode, 0);
            QCOMPARE(
                runIrscope({"convert", archive, dir.filePath(QString::fromLatin1(stem) + ".safetensors")}).exitCode, 0);
        }
        const CliResult fromJson = runIrscope({"run", dir.filePath("pt2e_static_mlp.json"), "--weights",
                                               dir.filePath("pt2e_static_mlp.safetensors"), "--inputs",
                                               quantizationData("pt2e_static_mlp.pt2"), "--reference-program",
                                               dir.filePath("pt2e_static_mlp.float.json"), "--reference-weights",
                                               dir.filePath("pt2e_static_mlp.float.safetensors"), "--json"});
        QVERIFY2(fromJson.exitCode == 0, qPrintable(fromJson.err));
        const CliResult fromArchive = runIrscope({"run", quantizationData("pt2e_static_mlp.pt2"), "--reference-program",
                                                  quantizationData("pt2e_static_mlp.float.pt2"), "--json"});
        QVERIFY2(fromArchive.exitCode == 0, qPrintable(fromArchive.err));
        const QJsonObject a = QJsonDocument::fromJson(fromJson.out.toUtf8()).object();
        const QJsonObject b = QJsonDocument::fromJson(fromArchive.out.toUtf8()).object();
        QCOMPARE(a["nodes"].toArray().size(), b["nodes"].toArray().size());
        QCOMPARE(a["output_sqnr_db"].toDouble(), b["output_sqnr_db"].toDouble());
        QCOMPARE(a["sensitivity"].toArray().size(), b["sensitivity"].toArray().size());
        // An IR as the reference program needs its state_dict.
        const CliResult bare = runIrscope({"run", quantizationData("pt2e_static_mlp.pt2"), "--reference-program",
                                           dir.filePath("pt2e_static_mlp.float.json")});
        QCOMPARE(bare.exitCode, 2);
        QVERIFY2(bare.err.contains("give its state_dict with --reference-weights"), qPrintable(bare.err));
    }

    void anUnusableReferenceIsRefused() {
        const CliResult mixed =
            runIrscope({"run", quantizationData("pt2e_static_cnn.pt2"), "--reference-program",
                        quantizationData("pt2e_static_cnn.float.pt2"), "--reference-dtype", "float64"});
        QCOMPARE(mixed.exitCode, 2);
        QVERIFY2(mixed.err.contains("--reference-program excludes --reference-dtype"), qPrintable(mixed.err));
        const CliResult missing = runIrscope({"run", quantizationData("pt2e_static_cnn.pt2"), "--reference-program",
                                              quantizationData("nothing.float.pt2")});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("nothing.float.pt2"), qPrintable(missing.err));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestQuantizationCommand)
#include "test_quantization_command.moc"
