// `irscope reduce` end to end on llama_block (fixtures made by PyTorch):
// a planted wrong weight (numerics.json: up.weight perturbed, read by one
// linear) is found against the reference intermediates, and a planted
// "failing op" behind a user check command (the check fails while the
// candidate holds the MLP's silu) is found by running the command; both in a
// bounded number of tests, and the files written reproduce the failure.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::dataPath;
using irscope::test::irFixture;
using irscope::test::q;
using irscope::test::readJsonFile;
using irscope::test::runIrscope;

namespace {

QStringList nodeNames(const QJsonObject& ir) {
    QStringList out;
    for (const auto& n : ir["nodes"].toArray()) out << n.toObject()["name"].toString();
    return out;
}

int testsTaken(const QString& out) {
    const auto m = QRegularExpression(" in (\\d+) tests").match(out);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

}  // namespace

class TestReduceCommand : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void findsThePlantedWeight() {
        const QString culprit =
            readJsonFile(irFixture("numerics.json"))["perturbed"].toObject()["readers"].toArray()[0].toString();
        QTemporaryDir dir;
        const QString min = dir.filePath("min.json");
        auto r =
            runIrscope({"reduce", irFixture("llama_block.json"), "--weights",
                        irFixture("llama_block.weights_perturbed.pt"), "--inputs", irFixture("llama_block.inputs.pt"),
                        "--reference-intermediates", irFixture("llama_block.intermediates.pt"), "-o", min,
                        // another CPU's BLAS differs from the fixtures' by an ulp; the planted error is 0.5
                        "--atol", "1e-6"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QCOMPARE(nodeNames(readJsonFile(min)), QStringList{culprit});
        const int tests = testsTaken(r.out);
        QVERIFY2(tests > 0 && tests <= 2 + 2 * 6, qPrintable(r.out));  // 56 nodes: log2 < 6
        qInfo("planted weight: %d tests", tests);
        // The repro fails on its own: the perturbed weight against the reference's values.
        r = runIrscope({"run", min, "--weights", irFixture("llama_block.weights_perturbed.pt"), "--inputs",
                        dir.filePath("min.inputs.pt"), "--expected", dir.filePath("min.expected.pt")});
        QVERIFY2(r.exitCode == 1, qPrintable(r.out + r.err));
        // ... and passes with the good one.
        r = runIrscope({"run", min, "--weights", irFixture("llama_block.weights.pt"), "--inputs",
                        dir.filePath("min.inputs.pt"), "--expected", dir.filePath("min.expected.pt"), "--rtol", "1e-4",
                        "--atol", "1e-5"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    void findsAFailingOpBehindACheckCommand() {
        QTemporaryDir dir;
        const QString min = dir.filePath("min.json");
        auto r = runIrscope({"reduce", irFixture("llama_block.json"), "--weights", irFixture("llama_block.weights.pt"),
                             "--inputs", irFixture("llama_block.inputs.pt"), "--check",
                             "! grep -q aten.silu.default {ir}", "-o", min});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QStringList nodes = nodeNames(readJsonFile(min));
        QCOMPARE(nodes.size(), 1);
        QVERIFY2(nodes[0].startsWith("silu"), qPrintable(nodes.join(',')));
        const int tests = testsTaken(r.out);
        QVERIFY2(tests > 0 && tests <= 2 + 2 * 6, qPrintable(r.out));
        qInfo("check command: %d tests", tests);
        QVERIFY(QFile::exists(dir.filePath("min.inputs.pt")) && QFile::exists(dir.filePath("min.expected.pt")));
    }

    void refusesWhatItCannotReduce() {
        QTemporaryDir dir;
        const QString min = dir.filePath("min.json");
        auto r = runIrscope({"reduce", irFixture("llama_block.json"), "--weights", irFixture("llama_block.weights.pt"),
                             "--inputs", irFixture("llama_block.inputs.pt"), "--reference-intermediates",
                             irFixture("llama_block.intermediates.pt"), "--rtol", "1e-4", "--atol", "1e-5", "-o", min});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("does not fail"), qPrintable(r.err));
        QVERIFY(!QFile::exists(min));
        QFile mine(min);
        QVERIFY(mine.open(QIODevice::WriteOnly));
        mine.write("mine");
        mine.close();
        r = runIrscope({"reduce", irFixture("llama_block.json"), "--weights", irFixture("llama_block.weights.pt"),
                        "--inputs", irFixture("llama_block.inputs.pt"), "--check", "false", "-o", min});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("exists; pass --force"), qPrintable(r.err));
        r = runIrscope(
            {"reduce", irFixture("llama_block.json"), "--weights", irFixture("llama_block.weights.pt"), "-o", min});
        QCOMPARE(r.exitCode, 2);
        // A check command that cannot run is an error, not a "failure" to reduce towards.
        r = runIrscope({"reduce", irFixture("llama_block.json"), "--weights", irFixture("llama_block.weights.pt"),
                        "--inputs", irFixture("llama_block.inputs.pt"), "--check", "no_such_command_here {ir}", "-o",
                        dir.filePath("typo.json")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("could not run (exit 127)"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath("typo.json")));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestReduceCommand)
#include "test_reduce_command.moc"
