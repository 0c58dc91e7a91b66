// `irscope run` end to end on fixtures made by PyTorch (tests/data/make_ir_fixtures.py):
// verdicts and exit codes, the pre-flight list for meta-extracted IRs, the first
// divergent node, dumps that read back.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::dataPath;
using irscope::test::irFixture;
using irscope::test::q;
using irscope::test::readFile;
using irscope::test::readJsonFile;
using irscope::test::runIrscope;

namespace {
// What tests/data/make_numerics_fixture.py wrote down with PyTorch.
QJsonObject numerics() { return readJsonFile(irFixture("numerics.json")); }

// Node names of a report's failing rows, in order.
QStringList failing(const QJsonObject& report) {
    QStringList out;
    for (const auto& n : report["nodes"].toArray())
        if (!n.toObject()["ok"].toBool()) out << n.toObject()["node"].toString();
    return out;
}

// The intermediates were computed by PyTorch on the machine that made the
// fixtures; another CPU's BLAS kernels round matmuls differently by an ulp
// or so (1.2e-07 at values near 0.6, over the default rtol of 1e-5). The
// planted errors are 0.5 and 1.0: an atol of 1e-6 tells them apart.
const QStringList kUlpTolerance{"--atol", "1e-6"};

QStringList runArgs(const QString& model, const QString& ir = {}) {
    return {"run",       irFixture(ir.isEmpty() ? model + ".json" : ir),
            "--weights", irFixture(model + ".weights.pt"),
            "--inputs",  irFixture(model + ".inputs.pt")};
}
}  // namespace

class TestRunCommand : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matchesPyTorch_data() {
        QTest::addColumn<QString>("model");
        for (const char* model : {"simple_mlp", "masked_linear", "gather_with_index", "buffer_vs_constant",
                                  "resnet_tiny", "cnn_bn", "llama_block"})
            QTest::newRow(model) << model;
    }
    void matchesPyTorch() {
        QFETCH(QString, model);
        const auto r = runIrscope(runArgs(model) << "--expected" << irFixture(model + ".expected.pt"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(r.out.contains(": OK"));
        QVERIFY(!r.out.contains("MISMATCH"));
    }

    // Another model's state_dict: none of its names is the IR's. The window
    // says "it looks like a different model's state_dict"; so does run.
    void anotherModelsStateDictIsNamed() {
        const auto r =
            runIrscope({"run", irFixture("llama_block.json"), "--weights", irFixture("resnet_tiny.weights.pt"),
                        "--inputs", irFixture("llama_block.inputs.pt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("resnet_tiny.weights.pt: 0 of 8 parameters and buffers found in it") &&
                     r.err.contains("such as 'conv1.weight'") &&
                     r.err.contains("it looks like a different model's state_dict"),
                 qPrintable(r.err));
        // The right state_dict with one name missing is not "a different model".
        const auto partial = runIrscope(runArgs("masked_linear", "masked_linear.meta.json"));
        QVERIFY2(!partial.err.contains("different model"), qPrintable(partial.err));
    }

    void metaExtractedIrListsMissingConstantsThenRuns() {
        auto r = runIrscope(runArgs("masked_linear", "masked_linear.meta.json"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("c_mask (constant 'mask'), needed by: mul"), qPrintable(r.err));
        r = runIrscope(runArgs("masked_linear", "masked_linear.meta.json")
                       << "--constants" << irFixture("masked_linear.constants.pt") << "--expected"
                       << irFixture("masked_linear.expected.pt"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    void nonPersistentBufferCanBeSuppliedAsConstant() {
        // llama_block's b_rope_cos/b_rope_sin are non-persistent buffers: not in the
        // state_dict, so a meta-extracted IR needs them from --constants.
        auto r = runIrscope(runArgs("llama_block", "llama_block.meta.json"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("b_rope_cos"));
        r = runIrscope(runArgs("llama_block", "llama_block.meta.json")
                       << "--constants" << irFixture("llama_block.constants.pt") << "--expected"
                       << irFixture("llama_block.expected.pt"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    // A float16 checkpoint for a float32 IR is reported before the run, like a
    // missing value (it failed 12 nodes in, "rsqrt_cpu" not implemented for
    // 'Half'); --cast-weights casts it and the run gives PyTorch's output with
    // those weights (make_numerics_fixture.py).
    void halfWeightsReportedThenCast() {
        QStringList args{"run",       irFixture("llama_block.json"),
                         "--weights", irFixture("llama_block.weights_fp16.pt"),
                         "--inputs",  irFixture("llama_block.inputs.pt")};
        auto r = runIrscope(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("8 values not in the IR's dtype (pass --cast-weights"), qPrintable(r.err));
        QVERIFY2(r.err.contains("p_up_weight (parameter 'up.weight'): float16, the IR says float32, needed by: "),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains("Half"), qPrintable(r.err));
        r = runIrscope(QStringList(args) << "--cast-weights"
                                         << "--expected" << irFixture("llama_block.expected_fp16cast.pt"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.err.contains("cast 8 weights to the IR's dtypes"), qPrintable(r.err));
        QVERIFY(r.out.contains(": OK"));
        // Against the float32 weights' outputs it differs, as PyTorch's own does (by 0.0013).
        r = runIrscope(QStringList(args) << "--cast-weights"
                                         << "--expected" << irFixture("llama_block.expected.pt"));
        QCOMPARE(r.exitCode, 1);
    }

    void findsFirstDivergentNode() {
        // The fixture script planted one wrong value and wrote down where.
        QFile sidecar(irFixture("llama_block.intermediates_bad.json"));
        QVERIFY(sidecar.open(QIODevice::ReadOnly));
        const QString planted = QJsonDocument::fromJson(sidecar.readAll()).object()["node"].toString();
        QVERIFY(!planted.isEmpty());
        const auto r = runIrscope(runArgs("llama_block") << kUlpTolerance << "--reference-intermediates"
                                                         << irFixture("llama_block.intermediates_bad.pt"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("first divergence at node '" + planted + "'"), qPrintable(r.out));
        const auto good = runIrscope(runArgs("llama_block") << kUlpTolerance << "--reference-intermediates"
                                                            << irFixture("llama_block.intermediates.pt"));
        QVERIFY2(good.exitCode == 0, qPrintable(good.out + good.err));
    }

    void reportListsEveryNodeOutput() {
        // The planted wrong value: its node is the report's first failing
        // one, every output before it is within the tolerance.
        QFile sidecar(irFixture("llama_block.intermediates_bad.json"));
        QVERIFY(sidecar.open(QIODevice::ReadOnly));
        const QString planted = QJsonDocument::fromJson(sidecar.readAll()).object()["node"].toString();
        QTemporaryDir dir;
        const QString path = dir.filePath("report.json");
        auto r =
            runIrscope(runArgs("llama_block") << kUlpTolerance << "--reference-intermediates"
                                              << irFixture("llama_block.intermediates_bad.pt") << "--report" << path);
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
        r = runIrscope(runArgs("llama_block")
                       << kUlpTolerance << "--reference-intermediates" << irFixture("llama_block.intermediates.pt")
                       << "--report" << dir.filePath("r.csv"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QFile csv(dir.filePath("r.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QVERIFY(csv.readLine().startsWith("node,output,index,op_type,max_abs,max_rel,mean_abs,mse,cosine,sqnr_db,ok"));
        r = runIrscope(runArgs("llama_block") << "--report" << dir.filePath("r.json"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--report needs a reference"), qPrintable(r.err));
        r = runIrscope(runArgs("llama_block")
                       << "--reference-intermediates" << irFixture("llama_block.intermediates.pt") << "--report"
                       << dir.filePath("r.txt"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("r.txt: the report is written as .json or .csv"), qPrintable(r.err));
    }

    void localModeNamesTheCulprit() {
        // One weight perturbed (tests/data/make_numerics_fixture.py): cumulative
        // fails from its reader on, local fails exactly its readers.
        const QJsonObject want = numerics()["perturbed"].toObject();
        const QString culprit = want["readers"].toArray()[0].toString();
        QTemporaryDir dir;
        QStringList args = {"run",
                            irFixture("llama_block.json"),
                            "--weights",
                            irFixture("llama_block.weights_perturbed.pt"),
                            "--inputs",
                            irFixture("llama_block.inputs.pt"),
                            "--reference-intermediates",
                            irFixture("llama_block.intermediates.pt")};
        args << kUlpTolerance;
        auto r = runIrscope(QStringList(args) << "--report" << dir.filePath("c.json"));
        QCOMPARE(r.exitCode, 1);
        const QJsonObject cumulative = readJsonFile(dir.filePath("c.json"));
        QCOMPARE(cumulative["first_failing"].toString(), culprit);
        QVERIFY(failing(cumulative).size() > 3);
        r = runIrscope(QStringList(args) << "--local"
                                         << "--report" << dir.filePath("l.json") << "--node-data"
                                         << dir.filePath("nd.json") << "--metric"
                                         << "sqnr_db");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("intermediates (local): first divergence at node '" + culprit + "'"),
                 qPrintable(r.out));
        const QJsonObject local = readJsonFile(dir.filePath("l.json"));
        QCOMPARE(local["mode"].toString(), QString("local"));
        QCOMPARE(failing(local), QStringList{culprit});
        // Model Explorer node data, keyed by node name under the model's name.
        const QJsonObject nd = readJsonFile(dir.filePath("nd.json"))["LlamaBlock"].toObject();
        const double sqnr = nd["results"].toObject()[culprit].toObject()["value"].toDouble();
        QVERIFY2(std::fabs(sqnr - want["first_local"].toObject()["sqnr_db"].toDouble()) < 1e-3,
                 qPrintable(QString::number(sqnr)));
        QVERIFY(!nd["thresholds"].toArray().isEmpty());
    }

    void breakOnNanStopsAtItsConsumer() {
        const QString stop = numerics()["nan"].toObject()["stops_at"].toString();
        QStringList args = {
            "run",      irFixture("llama_block.json"),      "--weights",  irFixture("llama_block.weights_nan.pt"),
            "--inputs", irFixture("llama_block.inputs.pt"), "--break-on", "nan"};
        auto r = runIrscope(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("stopped at node '" + stop + "'"), qPrintable(r.out));
        QVERIFY2(r.out.contains("input p_o_weight: float32 [16, 16]") && r.out.contains("NaN 1"), qPrintable(r.out));
        r = runIrscope(QStringList(args) << "--json");
        QCOMPARE(r.exitCode, 1);
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["stopped_at"].toString(), stop);
        // Without the NaN the same watch lets it run to the end.
        r = runIrscope(runArgs("llama_block") << "--break-on"
                                              << "nan,inf");
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    void secondRunAsTheReference() {
        QStringList args = {
            "run",      irFixture("tiny_llama.json"),      "--weights",   irFixture("tiny_llama.weights.pt"),
            "--inputs", irFixture("tiny_llama.inputs.pt"), "--constants", irFixture("tiny_llama.constants.pt")};
        auto r = runIrscope(QStringList(args) << "--reference-weights" << irFixture("tiny_llama.weights.pt") << "--atol"
                                              << "0"
                                              << "--rtol"
                                              << "0");
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("108 tensors match the reference"), qPrintable(r.out));
        QTemporaryDir dir;
        r = runIrscope(QStringList(args) << "--reference-dtype"
                                         << "bfloat16"
                                         << "--report" << dir.filePath("b.json"));
        QCOMPARE(r.exitCode, 1);
        const QJsonArray nodes = readJsonFile(dir.filePath("b.json"))["nodes"].toArray();
        const QJsonObject last = nodes.last().toObject();
        const QJsonObject want = numerics()["bf16"].toObject();
        QCOMPARE(last["node"].toString(), want["output"].toString());
        QVERIFY(last["dtype_differs"].toBool());
        // A bfloat16 gap as autocast leaves one (the exact figure against
        // PyTorch's own autocast run: cli.real_exports), not none.
        QVERIFY2(last["sqnr_db"].toDouble() > 35 && last["sqnr_db"].toDouble() < 65,
                 qPrintable(QString::number(last["sqnr_db"].toDouble())));
    }

    void numericsUsageErrors_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("message");
        QTest::newRow("local alone") << QStringList{"--local"} << "--local needs a reference";
        QTest::newRow("two references") << QStringList{"--reference-intermediates", "x.pt", "--reference-dtype",
                                                       "float64"}
                                        << "--reference-intermediates excludes";
        QTest::newRow("bad dtype") << QStringList{"--reference-dtype", "int8"} << "'int8' is not float64";
        QTest::newRow("bad watch") << QStringList{"--break-on", "nan,huge"} << "'huge' is not one of nan, inf, diff";
        QTest::newRow("diff alone") << QStringList{"--break-on", "diff"} << "--break-on diff needs a reference";
        QTest::newRow("metric alone") << QStringList{"--metric", "mse"} << "--metric names what --node-data";
        QTest::newRow("bad metric") << QStringList{"--node-data", "n.json", "--metric", "l2"} << "'l2' is not max_abs";
    }
    void numericsUsageErrors() {
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        const auto r = runIrscope(runArgs("llama_block") << extra);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
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
            runIrscope({"run", irFixture("simple_mlp.json"), "--weights", "/nonexistent/w.pt", "--random-inputs", "1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("/nonexistent/w.pt"));
        r = runIrscope(
            {"run", irFixture("simple_mlp.json"), "--weights", irFixture("simple_mlp.json"), "--random-inputs", "1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("simple_mlp.json"));
        r = runIrscope({"run", irFixture("simple_mlp.json")});
        QCOMPARE(r.exitCode, 2);  // --weights is required
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestRunCommand)
#include "test_run_command.moc"
