// A backend check's report in the window. `irscope check-dump` judges an
// NPU-style dump of a small CNN (tests/data/backend_dumps/, made by
// make_npu_dump.py: block1 dropped its bias, block2 and head inherit the
// error); its report opened in the Backend dock lists the groups in
// execution order with their verdicts, says the first fault in its
// headline, selects and highlights block1's ops, and colours the nodes by
// their group: red past the tolerance, green within it. A report naming
// nodes this program does not have is refused, and says so. check-dump run
// from the window's Backend dock gives the same verdicts on the values the
// window holds.
#include <QDockWidget>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "core/modules/module_tree.h"
#include "debugger_window.h"
#include "wait_idle.h"
#include "widgets/debugger/backend_panel.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/node_decoration.h"
#include "widgets/session/numeric_checks.h"

using namespace irscope::widgets;

namespace {

QString dumpData(const QString& file) {
    return QString::fromUtf8(IRSCOPE_TEST_DATA) + QStringLiteral("/backend_dumps/") + file;
}

}  // namespace

class TestBackendWindow : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;
    DebuggerUi ui_;
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanupTestCase() { delete window_; }

    void aDumpsReportNamesTheFirstFault() {
        // The report, as a user makes it.
        const QString report = dir_.filePath(QStringLiteral("report.json"));
        QProcess check;
        check.start(QString::fromUtf8(IRSCOPE_BINARY),
                    {QStringLiteral("check-dump"), dumpData(QStringLiteral("cnn.pt2")), QStringLiteral("--dump"),
                     dumpData(QStringLiteral("npu_dump.pt")), QStringLiteral("--groups"),
                     dumpData(QStringLiteral("npu_groups.json")), QStringLiteral("--report"), report});
        QVERIFY(check.waitForFinished(120000));
        QCOMPARE(check.exitCode(), 1);  // a fault found

        QVERIFY(irscope::test::openInFreshWindow(window_, ui_, dumpData(QStringLiteral("cnn.pt2"))));
        DebugController* c = ui_.controller;
        GraphSession* s = window_->session();
        QVERIFY(irscope::test::waitIdle(*c));
        auto* panel = window_->panelAs<BackendPanel>(kBackendPanel);
        QVERIFY(panel);
        panel->open(report);
        QTRY_VERIFY_WITH_TIMEOUT(!panel->rows().isEmpty(), 10000);
        QVERIFY(irscope::test::waitIdle(*c));
        QCOMPARE(panel->rows(), (QStringList{QStringLiteral("stem  ok"), QStringLiteral("block1  backend fault"),
                                             QStringLiteral("block2  inherits"), QStringLiteral("head  inherits")}));
        QVERIFY2(panel->headline().contains(QStringLiteral("first fault: block1")), qPrintable(panel->headline()));

        // block1's ops selected and highlighted.
        const auto& index = *s->document()->index;
        const int64_t conv = *index.nodeIndex("conv2d_1"), relu = *index.nodeIndex("relu_1");
        QCOMPARE(s->selectionModel()->selection(), ItemRef::node(conv));
        // Coloured by group: block1 red, stem green.
        QTRY_VERIFY_WITH_TIMEOUT(
            s->decorations()->nodeDecoration(relu) && s->decorations()->nodeDecoration(relu)->overlay.isValid(), 10000);
        QCOMPARE(s->decorations()->nodeDecoration(relu)->overlay.name(), QStringLiteral("#d32f2f"));
        // An open module is outlined in its group's colour: block1 red.
        const auto block1 = s->moduleTree()->find("block1");
        QCOMPARE(s->decorations()->moduleOverlayColour(block1).name(), QStringLiteral("#d32f2f"));
        QCOMPARE(s->decorations()->moduleOverlayColour(s->moduleTree()->find("stem")).name(),
                 QStringLiteral("#2e9d4f"));
        // The legend says what the colours mean.
        QCOMPARE(s->decorations()->overlayLegendTitle(), QStringLiteral("dump: error ÷ allowed"));
        QCOMPARE(s->decorations()->overlayLegend().back().second, QStringLiteral("> 1: backend fault"));
        const int64_t stem = *index.nodeIndex("conv2d");
        QVERIFY(s->decorations()->nodeDecoration(stem));
        QCOMPARE(s->decorations()->nodeDecoration(stem)->overlay.name(), QStringLiteral("#2e9d4f"));

        // A click on a row selects that group's ops.
        panel->chooseRow(0);
        QCOMPARE(s->selectionModel()->selection(), ItemRef::node(stem));
    }

    // check-dump run from the window, on the values the window holds (the
    // archive's weights and example inputs): the same verdicts as the CLI's.
    void aDumpIsCheckedInTheWindow() {
        QVERIFY(irscope::test::openInFreshWindow(window_, ui_, dumpData(QStringLiteral("cnn.pt2"))));
        DebugController* c = ui_.controller;
        QVERIFY(irscope::test::waitIdle(*c));
        auto* panel = window_->panelAs<BackendPanel>(kBackendPanel);
        QVERIFY(panel);
        QVERIFY(panel->rows().isEmpty());
        panel->checkDump(dumpData(QStringLiteral("npu_dump")), dumpData(QStringLiteral("npu_groups.json")));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->rows().isEmpty(), 60000);
        QCOMPARE(panel->rows(), (QStringList{QStringLiteral("stem  ok"), QStringLiteral("block1  backend fault"),
                                             QStringLiteral("block2  inherits"), QStringLiteral("head  inherits")}));
        QVERIFY2(panel->headline().startsWith(QStringLiteral("dump on ")) &&
                     panel->headline().contains(QStringLiteral("cnn.pt2")),
                 qPrintable(panel->headline()));
        // A groups file naming a module the program does not have: refused, said.
        QSignalSpy errors(c, &DebugController::errorOccurred);
        const QString groups = dir_.filePath(QStringLiteral("bad_groups.json"));
        QFile f(groups);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"groups": {"stem": {"module": "no.such.module"}}})");
        f.close();
        panel->checkDump(dumpData(QStringLiteral("npu_dump.pt")), groups);
        QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), 60000);
        QVERIFY2(errors.last()[0].toString().startsWith(QStringLiteral("check-dump refused: ")),
                 qPrintable(errors.last()[0].toString()));
    }

    void aReportOfAnotherProgramIsRefused() {
        const QString other = dir_.filePath(QStringLiteral("other.json"));
        QFile f(other);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"backend": "inductor", "program": "llama.pt2", "groups": [)"
                R"({"group": "layers.0", "nodes": ["q_proj"], "max_abs": 1, "verdict": "backend fault"}]})");
        f.close();
        auto* panel = window_->panelAs<BackendPanel>(kBackendPanel);
        const QStringList before = panel->rows();
        QSignalSpy errors(ui_.controller, &DebugController::errorOccurred);
        panel->open(other);
        QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), 10000);
        const QString message = errors.last()[0].toString();
        QVERIFY2(message.contains(QStringLiteral("names nodes this program does not have (q_proj)")),
                 qPrintable(message));
        QCOMPARE(panel->rows(), before);  // what was shown stays
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestBackendWindow)
#include "test_backend_window.moc"
