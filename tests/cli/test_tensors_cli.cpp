// `irscope tensors` and `irscope convert`, run as a user would. Expected
// values come from tests/data/tensors/expected.json, written by PyTorch.
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

#include "cli/cli_runner.h"
#include "python_worker.h"
#include "test_support.h"

using irscope::test::q;

namespace {

using Json = nlohmann::ordered_json;

std::string tensorFixture(const std::string& name) { return std::string(IRSCOPE_TEST_DATA) + "/tensors/" + name; }

const Json& expected() {
    static const Json j = [] {
        std::ifstream in(tensorFixture("expected.json"));
        return Json::parse(in);
    }();
    return j;
}

struct Run {
    int code;
    QString out, err;
};

Run runTool(const QStringList& args) {
    const auto r = irscope::test::runIrscope(args);
    return {r.exitCode, r.out, r.err};
}

// handle([file, expected.json, key]): "ok" when torch's safe loader reads the
// file as PyTorch wrote the tensors (names, order, bytes).
const char* kPythonCheck = R"PY(
import json
def handle(args):
    sd = torch.load(args[0], weights_only=True)
    exp = json.load(open(args[1]))[args[2]]['tensors']
    assert list(sd) == list(exp), (list(sd), list(exp))
    for k, t in sd.items():
        t = t.contiguous()
        t = t.view(torch.int16) if t.dtype == torch.bfloat16 else t
        assert t.numpy().tobytes().hex() == exp[k]['hex'], k
    return 'ok'
)PY";

}  // namespace

class TestTensorsCli : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    irscope::test::PythonWorker python_{kPythonCheck, "torch"};
    bool pythonTorchAvailable() { return python_.available(); }
    QString tmp(const QString& name) { return dir_.path() + "/" + name; }

private Q_SLOTS:
    void tableListsEveryTensor() {
        Run r = runTool({"tensors", q(tensorFixture("mlp_state_dict.pt"))});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
        QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.at(0).simplified(), QString("NAME DTYPE SHAPE MIN MAX MEAN"));
        const Json& exp = expected().at("mlp_state_dict.pt");
        QCOMPARE(lines.size() - 1, qsizetype(exp.at("tensors").size()));
        int k = 1;
        for (auto it = exp.at("tensors").begin(); it != exp.at("tensors").end(); ++it, ++k) {
            QStringList cols = lines.at(k).simplified().split(' ');
            QCOMPARE(cols.at(0), q(it.key()));
            QCOMPARE(cols.at(1), q(it.value().at("dtype").get<std::string>()));
        }
        QVERIFY(r.out.contains(QRegularExpression("\\nfc1\\.weight +float32 +\\[8, 4\\] ")));
        QVERIFY(r.out.contains(QRegularExpression("\\nbn\\.num_batches_tracked +int64 +\\[\\]\\n")));
    }

    void jsonMatchesPyTorch_data() {
        QTest::addColumn<QString>("file");
        for (const char* f :
             {"dtypes.pt", "mlp_state_dict_legacy.pt", "small.safetensors", "npy_dir", "big_endian.npy"})
            QTest::newRow(f) << f;
    }
    void jsonMatchesPyTorch() {
        QFETCH(QString, file);
        Run r = runTool({"tensors", q(tensorFixture(file.toStdString())), "--json"});
        QCOMPARE(r.code, 0);
        Json rows = Json::parse(r.out.toStdString());
        const Json& exp = expected().at(file.toStdString());
        QCOMPARE(rows.size(), exp.at("tensors").size());
        size_t k = 0;
        for (auto it = exp.at("tensors").begin(); it != exp.at("tensors").end(); ++it, ++k) {
            const Json& row = rows.at(k);
            QCOMPARE(q(row.at("name").get<std::string>()), q(it.key()));
            QCOMPARE(q(row.at("dtype").get<std::string>()), q(it.value().at("dtype").get<std::string>()));
            QCOMPARE(row.at("shape"), it.value().at("shape"));
            if (exp.at("stats").contains(it.key())) {
                const Json& s = exp.at("stats").at(it.key());
                const char* keys[] = {"min", "max", "mean"};
                for (int c = 0; c < 3; ++c) {
                    double want = s.at(c).get<double>(), got = row.at(keys[c]).get<double>();
                    QVERIFY2(std::abs(got - want) <= 1e-9 * std::max(1.0, std::abs(want)),
                             qPrintable(QString("%1 %2: %3 vs %4").arg(q(it.key()), keys[c]).arg(got).arg(want)));
                }
            } else {
                QVERIFY(!row.contains("mean") || row.at("mean").is_null() ||
                        !it.value().at("dtype").get<std::string>().starts_with("float"));
            }
        }
    }

    void noStatsAndSelect() {
        Run r =
            runTool({"tensors", q(tensorFixture("checkpoint.pt")), "--select", "state_dict", "--no-stats", "--json"});
        QCOMPARE(r.code, 0);
        Json rows = Json::parse(r.out.toStdString());
        QCOMPARE(rows.size(), size_t(9));
        QCOMPARE(q(rows.at(0).at("name").get<std::string>()), QString("fc1.weight"));
        QVERIFY(!rows.at(0).contains("min"));
        Run all = runTool({"tensors", q(tensorFixture("checkpoint.pt")), "--no-stats"});
        QVERIFY(all.out.contains("state_dict.fc1.weight"));
        QVERIFY(all.out.contains("optimizer.state.0.step"));
    }

    void unsupportedDTypesAreListed() {
        Run r = runTool({"tensors", q(tensorFixture("fp8_mixed.safetensors")), "--json"});
        QCOMPARE(r.code, 0);
        Json rows = Json::parse(r.out.toStdString());
        QCOMPARE(rows.size(), size_t(4));
        // In file order, the unsupported ones where the file has them.
        QCOMPARE(q(rows.at(1).at("name").get<std::string>()), QString("scale_fp8"));
        QCOMPARE(q(rows.at(1).at("dtype").get<std::string>()), QString("float8_e4m3fn"));
        QCOMPARE(rows.at(1).at("supported"), Json(false));
        QCOMPARE(q(rows.at(2).at("dtype").get<std::string>()), QString("uint16"));
        QCOMPARE(rows.at(2).at("supported"), Json(false));
        QCOMPARE(q(rows.at(3).at("name").get<std::string>()), QString("also_keep"));
        QVERIFY(!rows.at(3).contains("supported"));
    }

    void errors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing file") << QStringList{"tensors", "/nonexistent/w.pt"}
                                      << "/nonexistent/w.pt: cannot open";
        QTest::newRow("hostile") << QStringList{"tensors", q(tensorFixture("evil_os_system.pt"))}
                                 << q(tensorFixture("evil_os_system.pt")) + ": pickle: refused global 'posix.system'";
        QTest::newRow("broken") << QStringList{"tensors", q(tensorFixture("malformed_view_too_large.pt"))}
                                << "does not fit its storage";
        QTest::newRow("unknown option") << QStringList{"tensors", "x.pt", "--frobnicate"}
                                        << "unknown option '--frobnicate'";
        QTest::newRow("no file") << QStringList{"tensors"} << "missing FILE";
        QTest::newRow("convert one arg") << QStringList{"convert", "x.pt"} << "missing IN and OUT";
        QTest::newRow("convert hostile") << QStringList{"convert", q(tensorFixture("evil_eval.pt")),
                                                        "/tmp/irscope-never.pt"}
                                         << "refused global 'builtins.eval'";
    }
    void errors() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        Run r = runTool(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFileInfo::exists("/tmp/irscope-never.pt"));
    }

    void convertRoundTrips_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("output");
        QTest::newRow("pt -> pt") << "dtypes.pt"
                                  << "a.pt";
        QTest::newRow("legacy -> pth") << "dtypes_legacy.pt"
                                       << "a.pth";
        QTest::newRow("safetensors -> bin") << "small.safetensors"
                                            << "a.bin";
        QTest::newRow("pt -> safetensors") << "mlp_state_dict.pt"
                                           << "a.safetensors";
        QTest::newRow("npy dir -> safetensors") << "npy_dir"
                                                << "b.safetensors";
        QTest::newRow("npy -> npy") << "big_endian.npy"
                                    << "big_endian.npy";
    }
    void convertRoundTrips() {
        QFETCH(QString, input);
        QFETCH(QString, output);
        Run c = runTool({"convert", q(tensorFixture(input.toStdString())), tmp(output)});
        QCOMPARE(c.code, 0);
        Run r = runTool({"tensors", tmp(output), "--json", "--no-stats"});
        QCOMPARE(r.code, 0);
        Json rows = Json::parse(r.out.toStdString());
        const Json& exp = expected().at(input.toStdString()).at("tensors");
        QCOMPARE(rows.size(), exp.size());
        if (!pythonTorchAvailable() || !output.endsWith(".pt")) return;
        // Python reads the converted file with the safe loader; bytes equal PyTorch's own.
        QCOMPARE(python_.call({tmp(output), q(tensorFixture("expected.json")), input}), std::string("ok"));
    }

    void helpIsFull() {
        Run r = runTool({"tensors", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("--no-stats") && r.out.contains("--select"));
        Run c = runTool({"convert", "--help"});
        QVERIFY(c.out.contains("weights_only=True"));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestTensorsCli)
#include "test_tensors_cli.moc"
