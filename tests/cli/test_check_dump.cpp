// `irscope check-dump` on an NPU-style dump made by PyTorch
// (tests/data/backend_dumps/make_npu_dump.py): a small CNN whose backend
// dumped one value per module, NHWC for the convolutions, int8 with a scale
// for one block, with one wrong group (block1: a dropped bias) followed by
// groups that only inherit its error. check-dump must name exactly block1,
// mark block2 and head as inheriting and stem as right, in the text, the exit
// status and the JSON report, from a dump file and from a folder of .npy; a
// dump of right values names no fault; bad input is refused before any
// comparison, naming the file, the key or group and the reason.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::CliResult;
using irscope::test::dataPath;
using irscope::test::q;
using irscope::test::runIrscope;

namespace {

QString dumpFile(const QString& file) { return q(dataPath("backend_dumps/" + file.toStdString())); }

QString explainCheck(const CliResult& r) { return "exit " + QString::number(r.exitCode) + "\n" + r.out + "\n" + r.err; }

QString writeText(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text);
    return f.fileName();
}

}  // namespace

class TestCheckDump : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void namesTheWrongGroupAndTheInheritors() {
        for (const QString dump : {"npu_dump.pt", "npu_dump"}) {
            QTemporaryDir dir;
            const QString report = dir.filePath("r.json");
            const CliResult r = runIrscope({"check-dump", dumpFile("cnn.pt2"), "--dump", dumpFile(dump), "--groups",
                                            dumpFile("npu_groups.json"), "--report", report});
            QVERIFY2(r.exitCode == 1, qPrintable(explainCheck(r)));
            QVERIFY2(r.out.contains("first backend fault: group block1"), qPrintable(explainCheck(r)));
            QFile f(report);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
            QCOMPARE(doc["backend"].toString(), QString("dump"));
            QCOMPARE(doc["first_fault"].toObject()["group"].toString(), QString("block1"));
            QStringList verdicts;
            for (const auto& g : doc["groups"].toArray())
                verdicts << g.toObject()["group"].toString() + " " + g.toObject()["verdict"].toString();
            QCOMPARE(verdicts, (QStringList{"stem ok", "block1 backend fault", "block2 inherits", "head inherits"}));
            // The int8 group is right on block1's wrong value within half a step.
            const QJsonObject block2 = doc["groups"].toArray()[2].toObject();
            QVERIFY(block2["max_abs"].toDouble() < block2["allowed"].toDouble());
            QVERIFY(block2["vs_program"].toDouble() > block2["allowed"].toDouble());
        }
    }

    void rightValuesNameNoFault() {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath("dump")));
        QVERIFY(QFile::copy(dumpFile("npu_dump/stem.npy"), dir.filePath("dump/stem.npy")));
        const QString groups =
            writeText(dir, "g.json", R"({"groups": {"stem": {"module": "stem", "layout": "NHWC"}}})");
        const CliResult r =
            runIrscope({"check-dump", dumpFile("cnn.pt2"), "--dump", dir.filePath("dump"), "--groups", groups});
        QVERIFY2(r.exitCode == 0 && r.out.contains("no backend fault"), qPrintable(explainCheck(r)));
    }

    void refusesBadInputBeforeComparing() {
        QTemporaryDir dir;
        const auto check = [&](const QByteArray& groupsText, const QStringList& expected) {
            const QString groups = writeText(dir, "g.json", groupsText);
            const CliResult r =
                runIrscope({"check-dump", dumpFile("cnn.pt2"), "--dump", dumpFile("npu_dump.pt"), "--groups", groups});
            QVERIFY2(r.exitCode == 2, qPrintable(explainCheck(r)));
            for (const QString& e : expected) QVERIFY2(r.err.contains(e), qPrintable(e + " in\n" + explainCheck(r)));
            QVERIFY2(!r.out.contains("backend fault"), qPrintable(explainCheck(r)));
        };
        // A dump key no group explains.
        check(R"({"groups": {"stem": {"module": "stem", "layout": "NHWC"}, "block1": {"module": "block1",
              "layout": "NHWC"}, "block2": {"module": "block2", "dtype": "int8", "scale": 0.01}}})",
              {"npu_dump.pt", "key 'head' matches no group"});
        // A layout that does not fit the value.
        check(R"({"groups": {"stem": {"module": "stem"}, "block1": {"module": "block1", "layout": "NHWC"},
              "block2": {"module": "block2", "dtype": "int8", "scale": 0.01}, "head": {"module": "head"}}})",
              {"'stem' (group stem)", "shape [2, 8, 8, 6]", "is it NHWC"});
        check(R"({"groups": {"stem": {"module": "stem", "layout": "NHWC"}, "block1": {"module": "block1",
              "layout": "NHWC"}, "block2": {"module": "block2", "dtype": "int8", "scale": 0.01}, "head":
              {"module": "head", "layout": "NHWC"}}})",
              {"'head' (group head)", "layout NHWC has 4 dimensions; the value has 2"});
        // A module, a node that does not exist; a groups file that is not one.
        check(R"({"groups": {"stem": {"module": "trunk"}}})", {"g.json: groups.stem", "no module 'trunk'"});
        check(R"({"groups": {"stem": {"nodes": ["conv2d", "nope"]}}})", {"groups.stem", "no node 'nope'"});
        check(R"({"groups": {"stem": {"module": "stem", "dtype": "int8"}}})", {"groups.stem", "needs \"scale\""});
        check(R"({"groups": {"stem": {"module": "stem", "layout": "NCWH"}}})", {"groups.stem.layout", "'NCWH'"});
        check("[1, 2", {"g.json: not JSON"});
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestCheckDump)
#include "test_check_dump.moc"
