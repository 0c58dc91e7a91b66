// `irscope diff` end to end: the exit status contract (0 identical, 1
// different, 2 unreadable), the JSON shape scripts rely on, the text grouped
// by module, and the messages for bad arguments. What the diff finds on each
// fixture pair is tested in tests/diff/test_graph_diff.cpp.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::dataPath;
using irscope::test::irFixture;
using irscope::test::q;
using irscope::test::runIrscope;

namespace {}  // namespace

class TestDiffCommand : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void identicalFilesExitZero() {
        const auto r = runIrscope({"diff", irFixture("diff/diffnet.json"), irFixture("diff/diffnet.json")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("identical"), qPrintable(r.out));
        QVERIFY(r.err.isEmpty());
    }

    void jsonHasTheDocumentedShape() {
        const auto r =
            runIrscope({"diff", irFixture("diff/diffnet.json"), irFixture("diff/diffnet_insert.json"), "--json"});
        QCOMPARE(r.exitCode, 1);
        const auto doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc["identical"].toBool(true), false);
        const auto nodes = doc["nodes"].toObject();
        QCOMPARE(nodes["added"].toArray(), QJsonArray{"mul"});
        QCOMPARE(nodes["removed"].toArray(), QJsonArray{});
        const auto changed = nodes["changed"].toArray();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed[0].toObject()["a"].toString(), QString("leaky_relu"));
        QCOMPARE(changed[0].toObject()["b"].toString(), QString("leaky_relu"));
        QCOMPARE(changed[0].toObject()["what"].toArray(), QJsonArray{"inputs"});
        QCOMPARE(changed[0].toObject()["detail"].toString(), QString("input 0: from linear -> mul (added)"));
        QCOMPARE(nodes["renamed"].toArray().size(), 3);
        QCOMPARE(nodes["renamed"].toArray()[0].toObject()["a"].toString(), QString("mul"));
        QCOMPARE(nodes["renamed"].toArray()[0].toObject()["b"].toString(), QString("mul_1"));
        for (const char* key : {"weights", "graph_inputs", "graph_outputs"}) {
            const auto part = doc[key].toObject();
            QVERIFY2(part.contains("added") && part.contains("removed") && part.contains("changed"), key);
        }
        QCOMPARE(doc["modules"].toArray().size(), 1);  // DiffNet's ops are all in the root module or fc*
    }

    void weightChangesAreListedByName() {
        const auto r =
            runIrscope({"diff", irFixture("diff/diffnet.json"), irFixture("diff/diffnet_weight.json"), "--json"});
        QCOMPARE(r.exitCode, 1);
        const auto weights = QJsonDocument::fromJson(r.out.toUtf8()).object()["weights"].toObject();
        const auto changed = weights["changed"].toArray();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed[0].toObject()["name"].toString(), QString("scale"));
        QCOMPARE(changed[0].toObject()["what"].toArray(), QJsonArray{"shape"});
    }

    void textIsGroupedByModule() {
        const auto r = runIrscope({"diff", irFixture("tiny_llama.json"), irFixture("diff/tiny_llama_seq4.json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("\nlayers.0.input_layernorm: 6 changed\n"), qPrintable(r.out.left(2000)));
        QVERIFY(r.out.contains("size: [1, 6, -1, 4] -> [1, 4, -1, 4]"));
        QVERIFY(r.out.contains("position_ids: shape [1, 6] -> [1, 4]"));
        const auto summary =
            runIrscope({"diff", irFixture("tiny_llama.json"), irFixture("diff/tiny_llama_seq4.json"), "--summary"});
        QVERIFY(summary.out.contains("layers.0.input_layernorm: 6 changed\n"));
        QVERIFY(!summary.out.contains("size: [1, 6, -1, 4]"));
    }

    // --summary counts weights per module too: two different models (every
    // weight added or removed) print a line per module, never per weight.
    void summaryCountsWeightsPerModule() {
        const auto r = runIrscope({"diff", irFixture("llama_block.json"), irFixture("resnet_tiny.json"), "--summary"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("weights: 68 added, 11 removed"), qPrintable(r.out.left(600)));
        QVERIFY2(r.out.contains("\nweights by module:\n"), qPrintable(r.out));
        QVERIFY2(r.out.contains("\nlayer2.0.bn1: 5 added\n"), qPrintable(r.out));  // weight, bias, 2 stats, count
        QVERIFY2(!r.out.contains("+ conv1.weight"), qPrintable(r.out));
        QVERIFY2(!r.out.contains("- qkv.weight"), qPrintable(r.out));
        QVERIFY(r.out.count(QLatin1Char('\n')) < 100);
    }

    void unreadableFileExitsTwoNamingIt() {
        QTemporaryDir dir;
        const QString missing = dir.filePath("nope.json");
        auto r = runIrscope({"diff", irFixture("diff/diffnet.json"), missing});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(missing), qPrintable(r.err));
        const QString broken = dir.filePath("broken.json");
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"nodes\": [");
        f.close();
        r = runIrscope({"diff", broken, irFixture("diff/diffnet.json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(broken), qPrintable(r.err));
    }

    void badArgumentsAreUsageErrors() {
        auto r = runIrscope({"diff", irFixture("diff/diffnet.json")});
        QCOMPARE(r.exitCode, 2);
        r = runIrscope({"diff", irFixture("diff/diffnet.json"), irFixture("diff/diffnet.json"), "--match", "fuzzy"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--match"), qPrintable(r.err));
    }

    void outputFileIsWrittenNotPrinted() {
        QTemporaryDir dir;
        const QString out = dir.filePath("d.json");
        const auto r = runIrscope(
            {"diff", irFixture("diff/diffnet.json"), irFixture("diff/diffnet_op.json"), "--json", "-o", out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto changed = QJsonDocument::fromJson(f.readAll()).object()["nodes"].toObject()["changed"].toArray();
        QCOMPARE(changed[0].toObject()["what"].toArray(), QJsonArray{"op_type"});
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestDiffCommand)
#include "test_diff_command.moc"
