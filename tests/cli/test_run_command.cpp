// `irscope run` end to end on fixtures made by PyTorch (tests/data/make_ir_fixtures.py):
// verdicts and exit codes, the pre-flight list for meta-extracted IRs, the first
// divergent node, dumps that read back.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::dataPath;
using irscope::test::q;
using irscope::test::readFile;
using irscope::test::runIrscope;

namespace {
QString fixture(const QString& name) { return q(dataPath("ir/" + name.toStdString())); }

QStringList runArgs(const QString& model, const QString& ir = {}) {
    return {"run",       fixture(ir.isEmpty() ? model + ".json" : ir),
            "--weights", fixture(model + ".weights.pt"),
            "--inputs",  fixture(model + ".inputs.pt")};
}
}  // namespace

class TestRunCommand : public QObject {
    Q_OBJECT

private slots:
    void matchesPyTorch_data() {
        QTest::addColumn<QString>("model");
        for (const char* model : {"simple_mlp", "masked_linear", "gather_with_index", "buffer_vs_constant",
                                  "resnet_tiny", "cnn_bn", "llama_block"})
            QTest::newRow(model) << model;
    }
    void matchesPyTorch() {
        QFETCH(QString, model);
        const auto r = runIrscope(runArgs(model) << "--expected" << fixture(model + ".expected.pt"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains(": OK"));
        QVERIFY(!r.out.contains("MISMATCH"));
    }

    void metaExtractedIrListsMissingConstantsThenRuns() {
        auto r = runIrscope(runArgs("masked_linear", "masked_linear.meta.json"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("c_mask (constant 'mask'), needed by: mul"), qPrintable(r.err));
        r = runIrscope(runArgs("masked_linear", "masked_linear.meta.json")
                       << "--constants" << fixture("masked_linear.constants.pt") << "--expected"
                       << fixture("masked_linear.expected.pt"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    void nonPersistentBufferCanBeSuppliedAsConstant() {
        // llama_block's b_rope_cos/b_rope_sin are non-persistent buffers: not in the
        // state_dict, so a meta-extracted IR needs them from --constants.
        auto r = runIrscope(runArgs("llama_block", "llama_block.meta.json"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("b_rope_cos"));
        r = runIrscope(runArgs("llama_block", "llama_block.meta.json")
                       << "--constants" << fixture("llama_block.constants.pt") << "--expected"
                       << fixture("llama_block.expected.pt"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    void findsFirstDivergentNode() {
        // The fixture script planted one wrong value and wrote down where.
        QFile sidecar(fixture("llama_block.intermediates_bad.json"));
        QVERIFY(sidecar.open(QIODevice::ReadOnly));
        const QString planted = QJsonDocument::fromJson(sidecar.readAll()).object()["node"].toString();
        QVERIFY(!planted.isEmpty());
        const auto r = runIrscope(runArgs("llama_block")
                                  << "--reference-intermediates" << fixture("llama_block.intermediates_bad.pt"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("first divergence at node '" + planted + "'"), qPrintable(r.out));
        const auto good = runIrscope(runArgs("llama_block")
                                     << "--reference-intermediates" << fixture("llama_block.intermediates.pt"));
        QVERIFY2(good.exitCode == 0, qPrintable(good.out + good.err));
    }

    void reportListsEveryNodeOutput() {
        // The planted wrong value: its node is the report's first failing
        // one, every output before it is within the tolerance.
        QFile sidecar(fixture("llama_block.intermediates_bad.json"));
        QVERIFY(sidecar.open(QIODevice::ReadOnly));
        const QString planted = QJsonDocument::fromJson(sidecar.readAll()).object()["node"].toString();
        QTemporaryDir dir;
        const QString path = dir.filePath("report.json");
        auto r =
            runIrscope(runArgs("llama_block") << "--reference-intermediates"
                                              << fixture("llama_block.intermediates_bad.pt") << "--report" << path);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("first failing node '" + planted + "'"), qPrintable(r.out));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject report = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(report["first_failing"].toString(), planted);
        QCOMPARE(report["mode"].toString(), QString("cumulative"));
        const QJsonArray nodes = report["nodes"].toArray();
        QVERIFY(nodes.size() >= 50);  // llama_block has 56 nodes, every output recorded
        for (const auto& n : nodes) {
            const QJsonObject row = n.toObject();
            if (row["node"].toString() == planted) {
                QVERIFY(!row["ok"].toBool());
                QVERIFY(row["max_abs"].toDouble() >= 0.99);  // the fixture added 1.0 to one element
                break;
            }
            QVERIFY2(row["ok"].toBool(), qPrintable(row["node"].toString()));
        }

        // CSV by extension; the report needs a reference; an unknown extension is refused.
        r = runIrscope(runArgs("llama_block") << "--reference-intermediates" << fixture("llama_block.intermediates.pt")
                                              << "--report" << dir.filePath("r.csv"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QFile csv(dir.filePath("r.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QVERIFY(csv.readLine().startsWith("node,output,index,op_type,max_abs,max_rel,mean_abs,mse,cosine,sqnr_db,ok"));
        r = runIrscope(runArgs("llama_block") << "--report" << dir.filePath("r.json"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--report needs --reference-intermediates"), qPrintable(r.err));
        r = runIrscope(runArgs("llama_block") << "--reference-intermediates" << fixture("llama_block.intermediates.pt")
                                              << "--report" << dir.filePath("r.txt"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("r.txt: the report is written as .json or .csv"), qPrintable(r.err));
    }

    void dumpReadsBackAsReference() {
        QTemporaryDir dir;
        const QString dump = dir.filePath("all.pt");
        auto r = runIrscope(runArgs("resnet_tiny") << "--dump" << dump);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFileInfo(dump).size() > 0);
        r = runIrscope(runArgs("resnet_tiny") << "--reference-intermediates" << dump << "--rtol"
                                              << "0"
                                              << "--atol"
                                              << "0");
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    void untilStopsAfterNode() {
        const auto r = runIrscope(runArgs("llama_block") << "--until"
                                                         << "mul_4");
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("stopped after node 'mul_4'"), qPrintable(r.out));
        QVERIFY(!r.out.contains("56/56"));
        const auto bad = runIrscope(runArgs("llama_block") << "--until"
                                                           << "no_such_node");
        QCOMPARE(bad.exitCode, 2);
    }

    void badFilesExit2NamingTheFile() {
        auto r =
            runIrscope({"run", fixture("simple_mlp.json"), "--weights", "/nonexistent/w.pt", "--random-inputs", "1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("/nonexistent/w.pt"));
        r = runIrscope(
            {"run", fixture("simple_mlp.json"), "--weights", fixture("simple_mlp.json"), "--random-inputs", "1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("simple_mlp.json"));
        r = runIrscope({"run", fixture("simple_mlp.json")});
        QCOMPARE(r.exitCode, 2);  // --weights is required
    }
};

QTEST_GUILESS_MAIN(TestRunCommand)
#include "test_run_command.moc"
