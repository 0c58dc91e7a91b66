// `irscope run --reference-intermediates` says what its first divergence is
// (tests/data/divergence/, make_divergence_fixtures.py): a flipped decision
// on a tie (gt of 0.3f against 0.3), float noise (the reference a little
// farther from float64 than this run), a wrong value (the reference far from
// it), in words and in --json's intermediates.first_divergence.
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::CliResult;
using irscope::test::dataPath;
using irscope::test::q;
using irscope::test::runIrscope;

namespace {

QString fixture(const char* file) { return q(dataPath(std::string("divergence/") + file)); }

CliResult runAgainst(const char* reference, QStringList more = {}) {
    return runIrscope(QStringList{"run", fixture("gate.json"), "--weights", fixture("gate.weights.pt"), "--inputs",
                                  fixture("gate.inputs.pt"), "--reference-intermediates", fixture(reference)} +
                      more);
}

QJsonObject firstDivergence(const CliResult& r) {
    return QJsonDocument::fromJson(r.out.toUtf8()).object()["intermediates"].toObject()["first_divergence"].toObject();
}

QString explain(const CliResult& r) { return "exit " + QString::number(r.exitCode) + "\n" + r.out + "\n" + r.err; }

}  // namespace

class TestDivergenceKinds : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // mul matches within float32's tolerance; gt flips on the tie: a
    // decision, margin 0, carried by mul.
    void decision() {
        const CliResult r = runAgainst("decision.pt", {"--json"});
        const QJsonObject d = firstDivergence(r);
        QVERIFY2(r.exitCode == 1 && d["node"].toString() == "gt" && d["kind"].toString() == "decision",
                 qPrintable(explain(r)));
        QCOMPARE(d["margin"].toObject()["flipped_within"].toDouble(), 0.0);
        QCOMPARE(d["margin"].toObject()["input"].toString(), QString("mul"));
        const CliResult text = runAgainst("decision.pt");
        QVERIFY2(text.out.contains("that is a flipped decision: 'gt'"), qPrintable(explain(text)));
    }

    // Compared exactly, mul diverges: the reference (0.300001) is farther
    // from float64's 0.30000000447 than this run's 0.30000001192.
    void noise() {
        const CliResult r = runAgainst("noise.pt", {"--json", "--rtol", "0", "--atol", "0"});
        const QJsonObject d = firstDivergence(r);
        QVERIFY2(d["node"].toString() == "mul" && d["kind"].toString() == "noise", qPrintable(explain(r)));
        const QJsonObject vs = d["vs_fp64"].toObject();
        QVERIFY2(vs["irscope"].toDouble() < vs["reference"].toDouble(), qPrintable(explain(r)));
        QVERIFY2(std::abs(vs["irscope"].toDouble() - (0.30000001192092896 - 0.1f * 3.0)) < 1e-12,
                 qPrintable(explain(r)));
        // The values printed with the digits that tell them apart, at the
        // largest absolute difference, its index beside them.
        const CliResult text = runAgainst("noise.pt", {"--rtol", "0", "--atol", "0"});
        QVERIFY2(text.out.contains("max abs diff 9.83e-07 at [0] (got 0.3, expected 0.300001), max rel diff"),
                 qPrintable(explain(text)));
    }

    // A reference of mul at 0.5, far from float64's 0.30000000447 where this
    // run is near it: a wrong value, the reference's.
    void value() {
        const CliResult r = runAgainst("value.pt", {"--json"});
        const QJsonObject d = firstDivergence(r);
        QVERIFY2(d["node"].toString() == "mul" && d["kind"].toString() == "value", qPrintable(explain(r)));
        QVERIFY2(std::abs(d["vs_fp64"].toObject()["reference"].toDouble() - (0.5 - 0.1f * 3.0)) < 1e-9,
                 qPrintable(explain(r)));
        QVERIFY2(d["explanation"].toString().contains("a wrong value in the reference"), qPrintable(explain(r)));
    }

    // Local mode feeds each node the reference's inputs: gt, fed the
    // reference's mul, agrees, and no kind is claimed for what it does not see.
    void localModeClaimsNoKind() {
        const CliResult r = runAgainst("value.pt", {"--json", "--local", "--rtol", "0", "--atol", "0"});
        const QJsonObject d = firstDivergence(r);
        QVERIFY2(d["node"].toString() == "mul" && !d.contains("kind"), qPrintable(explain(r)));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestDivergenceKinds)
#include "test_divergence_kinds.moc"
