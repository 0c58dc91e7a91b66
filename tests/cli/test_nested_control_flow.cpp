// Control flow nested two levels deep (tests/data/nested/, made by
// make_nested_programs.py on PyTorch 2.13): a branch inside a loop's body, a
// loop, a scan or a branch inside a branch, a branch inside map's body, a
// loop inside a loop. For each, `irscope run`:
//   - computes the module's outputs;
//   - reports every higher-order call at every depth (`--json`'s
//     higher_order: path, op, branch or body calls) as PyTorch made them;
//   - dumps every value of every call, keyed by execution position
//     (while_loop/while_loop_body_graph_0#2/cond/false_graph_0/sub): every
//     position PyTorch's own higher-order ops computed a value at, in that
//     shape (exec.call_paths compares the values);
//   - stops at `--until` a position inside a body's k-th call and says the
//     value there, and refuses a call the program did not make.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QtTest>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::CliResult;
using irscope::test::dataPath;
using irscope::test::q;
using irscope::test::runIrscope;

namespace {

QString nestedFile(const QString& file) { return q(dataPath("nested/" + file.toStdString())); }

QString explainNested(const CliResult& r) {
    return "exit " + QString::number(r.exitCode) + "\n" + r.out + "\n" + r.err;
}

QStringList cases() {
    QStringList names;
    for (const QString& f : QDir(nestedFile("")).entryList({"*.pt2"}, QDir::Files, QDir::Name)) names << f.chopped(4);
    return names;
}

// {path, op, branch | iterations} as one comparable line.
QString runLine(const QJsonObject& o) {
    QString line = o["path"].toString() + " " + o["op"].toString();
    if (o.contains("branch")) line += " took " + o["branch"].toString();
    if (o.contains("iterations")) line += " ran " + QString::number(o["iterations"].toInt());
    return line;
}

// {tensor name: shape} of a tensor file, as `irscope tensors --json` lists it.
QMap<QString, QJsonArray> listed(const QString& file) {
    QMap<QString, QJsonArray> out;
    const CliResult r = runIrscope({"tensors", file, "--json"});
    for (const auto& v : QJsonDocument::fromJson(r.out.toUtf8()).array())
        out.insert(v.toObject()["name"].toString(), v.toObject()["shape"].toArray());
    return out;
}

}  // namespace

class TestNestedControlFlow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void corpusIsThere() { QVERIFY2(cases().size() >= 6, "tests/data/nested/: run make_nested_programs.py"); }

    void programs_data() {
        QTest::addColumn<QString>("name");
        for (const QString& name : cases()) QTest::newRow(qPrintable(name)) << name;
    }

    void programs() {
        QFETCH(QString, name);
        const CliResult r =
            runIrscope({"run", nestedFile(name + ".pt2"), "--expected", nestedFile(name + ".expected.pt")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(": OK"), qPrintable(explainNested(r)));
    }

    void reportsEveryCallAtEveryDepth_data() { programs_data(); }
    void reportsEveryCallAtEveryDepth() {
        QFETCH(QString, name);
        QFile f(nestedFile(name + ".json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QStringList expected;
        for (const auto& v : QJsonDocument::fromJson(f.readAll()).object()["higher_order"].toArray())
            expected << runLine(v.toObject());
        const CliResult r = runIrscope({"run", nestedFile(name + ".pt2"), "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(explainNested(r)));
        QStringList got;
        for (const auto& v : QJsonDocument::fromJson(r.out.toUtf8()).object()["higher_order"].toArray())
            got << runLine(v.toObject());
        expected.sort();
        got.sort();
        QCOMPARE(got, expected);
        QVERIFY(expected.size() >= 2);
        // The text says the same, by position.
        const CliResult text = runIrscope({"run", nestedFile(name + ".pt2")});
        for (const auto& v : QJsonDocument::fromJson(r.out.toUtf8()).object()["higher_order"].toArray())
            QVERIFY2(text.out.contains(v.toObject()["path"].toString() + " (" + v.toObject()["op"].toString() + ")"),
                     qPrintable(explainNested(text)));
    }

    // Every value PyTorch computed inside every call, under its position.
    // (A higher-order op's unused outputs have no node in irscope's graph.)
    void dumpsInnerValuesPerCall_data() { programs_data(); }
    void dumpsInnerValuesPerCall() {
        QFETCH(QString, name);
        const QString dump = QDir::temp().filePath("irscope_nested_" + name + ".pt");
        const CliResult r = runIrscope({"run", nestedFile(name + ".pt2"), "--dump", dump});
        QVERIFY2(r.exitCode == 0, qPrintable(explainNested(r)));
        const auto got = listed(dump);
        QFile::remove(dump);
        const auto torch = listed(nestedFile(name + ".calls.pt"));
        int compared = 0;
        for (auto it = torch.begin(); it != torch.end(); ++it) {
            if (it.key().contains("_unused_")) continue;
            QVERIFY2(got.contains(it.key()), qPrintable("no value dumped for " + it.key()));
            QCOMPARE(got[it.key()], it.value());
            ++compared;
        }
        QVERIFY(compared >= 6);
    }

    // --until a node inside the second (or only) call of the deepest body.
    void stopsInsideACall_data() { programs_data(); }
    void stopsInsideACall() {
        QFETCH(QString, name);
        const auto torch = listed(nestedFile(name + ".calls.pt"));
        QString deepest;
        for (auto it = torch.begin(); it != torch.end(); ++it) {
            const QString& k = it.key();
            if (k.contains("/arg") || k.contains("_unused_")) continue;
            const auto depth = k.count('/'), best = deepest.count('/');
            if (deepest.isEmpty() || depth > best || (depth == best && k.contains("#2") && !deepest.contains("#2")))
                deepest = k;
        }
        QVERIFY(!deepest.isEmpty());
        const CliResult r = runIrscope({"run", nestedFile(name + ".pt2"), "--until", deepest, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(deepest + "\n" + explainNested(r)));
        const QJsonObject at = QJsonDocument::fromJson(r.out.toUtf8()).object()["stopped_at"].toObject();
        QCOMPARE(at["path"].toString(), deepest);
        const QJsonArray values = at["values"].toArray();
        QVERIFY2(!values.isEmpty(), qPrintable(r.out));
        QCOMPARE(values[0].toObject()["shape"].toArray(), torch[deepest]);
        const CliResult text = runIrscope({"run", nestedFile(name + ".pt2"), "--until", deepest});
        QVERIFY2(text.out.contains("stopped at " + deepest), qPrintable(explainNested(text)));
        // A call the program did not make is refused, with how many it made.
        const qsizetype hash = deepest.indexOf('#');
        if (hash >= 0) {
            const QString beyond = deepest.left(hash + 1) + "99" + deepest.mid(deepest.indexOf('/', hash));
            const CliResult no = runIrscope({"run", nestedFile(name + ".pt2"), "--until", beyond});
            QVERIFY2(no.exitCode == 2 && no.err.contains("not 99"), qPrintable(explainNested(no)));
        }
    }

    void badPositionsSayWhy() {
        const QString file = nestedFile("branch_in_loop.pt2");
        const CliResult body = runIrscope({"run", file, "--until", "while_loop/body/add"});
        QVERIFY2(body.exitCode == 2 && body.err.contains("has no subgraph 'body'") &&
                     body.err.contains("while_loop_body_graph_0"),
                 qPrintable(explainNested(body)));
        const CliResult zero = runIrscope({"run", file, "--until", "while_loop/while_loop_body_graph_0#0/add"});
        QVERIFY2(zero.exitCode == 2 && zero.err.contains("from 1"), qPrintable(explainNested(zero)));
        const CliResult open = runIrscope({"run", file, "--until", "while_loop/while_loop_body_graph_0"});
        QVERIFY2(open.exitCode == 2 && open.err.contains("ends in a subgraph"), qPrintable(explainNested(open)));
        const CliResult branch =
            runIrscope({"run", file, "--until", "while_loop/while_loop_body_graph_0#2/cond/true_graph_0/mul"});
        QVERIFY2(branch.exitCode == 2 && branch.err.contains("did not run its subgraph 'true_graph_0'"),
                 qPrintable(explainNested(branch)));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestNestedControlFlow)
#include "test_nested_control_flow.moc"
