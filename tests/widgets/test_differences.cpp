// Numerical debugging in the real window (offscreen): llama_block
// run with one weight perturbed against a second run with the good weights.
// The Differences dock fills as the run goes, sorts by a metric, hides what
// passes, marks what crosses a threshold and names the culprit in local
// mode; a click goes to the node; the graph is coloured by SQNR with a
// legend and the collapsed module shows its worst op; node data goes out
// and comes back in as an overlay; watchpoints set from the window stop the
// run and are listed with the breakpoints. Expected values: numerics.json
// from PyTorch (tests/data/make_numerics_fixture.py).
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include "debugger_window.h"
#include "test_support.h"
#include "wait_idle.h"
#include "widgets/debugger/breakpoints_panel.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/differences_model.h"
#include "widgets/debugger/differences_panel.h"
#include "widgets/debugger/inputs_panel.h"
#include "widgets/debugger/weights_panel.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/graph_view/overlay_legend.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/numeric_checks.h"
#include "widgets/session/tensor_queries.h"

using namespace irscope;
using namespace irscope::widgets;

using irscope::test::irFixture;

namespace {

QJsonObject numerics() {
    QFile f(irFixture(QStringLiteral("numerics.json")));
    f.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(f.readAll()).object();
}

}  // namespace

class TestDifferences : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;
    DebuggerUi ui_;
    QString culprit_;

    GraphSession* session() const { return window_->session(); }
    DebugController* ctl() const { return ui_.controller; }
    QTableView* table() const { return ui_.differences->table(); }

    // llama_block with the perturbed weights, measured against a run with the good ones.
    void open() {
        QVERIFY(irscope::test::openInFreshWindow(window_, ui_, irFixture(QStringLiteral("llama_block.json"))));
        ctl()->values()->loadWeights(irFixture(QStringLiteral("llama_block.weights_perturbed.pt")));
        ctl()->values()->loadInputs(irFixture(QStringLiteral("llama_block.inputs.pt")));
        exec::ReferenceChoice c;
        c.kind = exec::ReferenceChoice::Kind::Weights;
        c.weightsPath = irFixture(QStringLiteral("llama_block.weights.pt")).toStdString();
        ctl()->checks()->setReferenceChoice(c);
        QVERIFY(irscope::test::waitIdle(*ctl()));
    }
    void runToEnd() {
        ui_.continueAction->trigger();
        QVERIFY(irscope::test::waitIdle(*ctl()));
    }
    int64_t nodeIndex(const QString& name) const {
        const auto& nodes = session()->document()->graph.nodes;
        for (size_t i = 0; i < nodes.size(); ++i)
            if (QString::fromStdString(nodes[i].name) == name) return static_cast<int64_t>(i);
        return -1;
    }
    QStringList failingShown() const {
        QStringList out;
        for (int r = 0; r < table()->model()->rowCount(); ++r)
            out << table()->model()->index(r, DifferencesModel::Node).data().toString();
        out.removeDuplicates();
        return out;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        culprit_ =
            numerics()[QStringLiteral("perturbed")].toObject()[QStringLiteral("readers")].toArray()[0].toString();
    }
    void cleanupTestCase() { delete window_; }

    // The dock's hint sends the user to Debug ▸ Load for expected outputs and
    // reference intermediates: the menu has both (it had weights and
    // constants only).
    void hintNamesEntriesTheMenuHas() {
        QVERIFY(irscope::test::openInFreshWindow(window_, ui_, irFixture(QStringLiteral("simple_mlp.json"))));
        QMenu* debug = nullptr;
        for (QAction* a : window_->menuBar()->actions())
            if (a->menu() && a->text().remove(QLatin1Char('&')) == QLatin1String("Debug")) debug = a->menu();
        QVERIFY(debug);
        QMenu* load = nullptr;
        for (QAction* a : debug->actions())
            if (a->menu() && a->text().remove(QLatin1Char('&')) == QLatin1String("Load")) load = a->menu();
        QVERIFY(load);
        QStringList entries;
        for (QAction* a : load->actions()) entries << a->text();
        for (const char* named : {"Expected outputs…", "Reference intermediates…", "Inputs…"})
            QVERIFY2(entries.contains(QString::fromUtf8(named)), qPrintable(entries.join(QLatin1Char('|'))));
    }

    // "Go to first divergence" before running says nothing was compared
    // yet; stepping through to the end (F10 on every node, no Continue) then
    // matches the expected outputs: the dock says so, and the run has its
    // verdict. The stale "nothing compared yet" stayed.
    void steppingToTheEndReplacesNothingComparedYet() {
        QVERIFY(irscope::test::openInFreshWindow(window_, ui_, irFixture(QStringLiteral("simple_mlp.json"))));
        ctl()->values()->loadWeights(irFixture(QStringLiteral("simple_mlp.weights.pt")));
        ctl()->values()->loadInputs(irFixture(QStringLiteral("simple_mlp.inputs.pt")));
        ctl()->values()->loadExpected(irFixture(QStringLiteral("simple_mlp.expected.pt")));
        ctl()->checks()->findFirstDivergence();
        QVERIFY(irscope::test::waitIdle(*ctl()));
        auto* label = window_->findChild<QLabel*>(QStringLiteral("divergenceLabel"));
        QVERIFY(label);
        QVERIFY2(label->text().contains(QLatin1String("nothing compared yet")), qPrintable(label->text()));
        while (ctl()->runCursor() < ctl()->nodeCount()) {
            ui_.stepAction->trigger();
            QVERIFY(irscope::test::waitIdle(*ctl()));
        }
        QVERIFY2(!label->text().contains(QLatin1String("nothing compared yet")), qPrintable(label->text()));
        QVERIFY2(ctl()->verdict().startsWith(QLatin1String("outputs match")), qPrintable(ctl()->verdict()));
    }

    // A bfloat16 second run as the reference, with the expected outputs
    // loaded: the run is right (it matches the expected outputs, as
    // `irscope run --expected` says), and the bfloat16 run only measures how
    // far that precision moves it. The verdict said "output differs".
    void lowerPrecisionReferenceDoesNotOverruleExpectedOutputs() {
        QVERIFY(irscope::test::openInFreshWindow(window_, ui_, irFixture(QStringLiteral("llama_block.json"))));
        ctl()->values()->loadWeights(irFixture(QStringLiteral("llama_block.weights.pt")));
        ctl()->values()->loadInputs(irFixture(QStringLiteral("llama_block.inputs.pt")));
        ctl()->values()->loadExpected(irFixture(QStringLiteral("llama_block.expected.pt")));
        exec::ReferenceChoice bf16;
        bf16.kind = exec::ReferenceChoice::Kind::Dtype;
        bf16.dtype = "bfloat16";
        ctl()->checks()->setReferenceChoice(bf16);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        runToEnd();
        const QString verdict = ctl()->verdict();
        QVERIFY2(verdict.startsWith(QLatin1String("outputs match the expected outputs")), qPrintable(verdict));
        QVERIFY2(verdict.contains(QLatin1String("against a second run in bfloat16")), qPrintable(verdict));
        QVERIFY2(ctl()->lastStatus().contains(QLatin1String("outputs match the expected outputs")),
                 qPrintable(ctl()->lastStatus()));
    }

    // Cumulative: the dock lists every output, the culprit first among the
    // failing; local: only the culprit fails and the summary names it.
    void dockNamesTheCulprit() {
        open();
        QVERIFY(ui_.differences && ui_.differencesDock);
        QVERIFY(ui_.differences->summary().contains(QLatin1String("Nothing measured yet")));
        runToEnd();
        const int all = table()->model()->rowCount();
        QVERIFY(all > 20);
        ui_.differences->setFailingOnly(true);
        const QStringList cumulative = failingShown();
        QVERIFY(cumulative.size() > 1);
        QCOMPARE(cumulative.front(), culprit_);  // sorted by node: execution order
        QVERIFY(ui_.differences->summary().contains(QLatin1String("First failing")));
        QVERIFY(ui_.differences->summary().contains(culprit_));

        auto* mode = ui_.differences->findChild<QComboBox*>(QStringLiteral("errorMode"));
        QVERIFY(mode);
        mode->setCurrentIndex(mode->findData(static_cast<int>(exec::ErrorMode::Local)));
        emit mode->activated(mode->currentIndex());
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(ctl()->checks()->errorMode(), exec::ErrorMode::Local);
        QCOMPARE(table()->model()->rowCount(), 0);  // the run started over
        runToEnd();
        QCOMPARE(failingShown(), QStringList{culprit_});
        QVERIFY2(ui_.differences->summary().contains(QLatin1String("wrong by itself")),
                 qPrintable(ui_.differences->summary()));
        // The status line speaks of local errors as local: the graph's own
        // outputs were not computed from its own values, so no "outputs match".
        QVERIFY2(ctl()->verdict().startsWith(QLatin1String("local error: node '") + culprit_ +
                                             QLatin1String("' is wrong by itself")),
                 qPrintable(ctl()->verdict()));
        QVERIFY2(ctl()->verdict().contains(QLatin1String("fed the reference's inputs")), qPrintable(ctl()->verdict()));
        QVERIFY(!ctl()->lastStatus().contains(QLatin1String("outputs match")));
        ui_.differences->setFailingOnly(false);
        QCOMPARE(table()->model()->rowCount(), all);

        // Sorting by SQNR puts the culprit (the lowest) first.
        table()->sortByColumn(DifferencesModel::Sqnr, Qt::AscendingOrder);
        const QModelIndex top = table()->model()->index(0, DifferencesModel::Node);
        QCOMPARE(top.data().toString(), culprit_);
        const double want = numerics()[QStringLiteral("perturbed")]
                                .toObject()[QStringLiteral("first_local")]
                                .toObject()[QStringLiteral("sqnr_db")]
                                .toDouble();
        const double got =
            table()->model()->index(0, DifferencesModel::Sqnr).data(DifferencesModel::kSortRole).toDouble();
        QVERIFY2(std::fabs(got - want) < 1e-3, qPrintable(QString::number(got)));

        // A click goes to the node and shows its tensor.
        QTest::mouseClick(table()->viewport(), Qt::LeftButton, {}, table()->visualRect(top).center());
        QCOMPARE(session()->selectionModel()->selection().index, nodeIndex(culprit_));
        QCOMPARE(ctl()->tensors()->focusTensor(), culprit_);

        // A threshold flags rows that pass the tolerance: SQNR below 200 dB is
        // more than the culprit (exact rows have +inf and stay out).
        ui_.differences->setFailingOnly(true);
        QVERIFY(ui_.differences->setThreshold(QStringLiteral("sqnr_db"), QStringLiteral("200")));
        const int flagged = table()->model()->rowCount();
        QVERIFY(flagged >= 1);
        QVERIFY(!ui_.differences->setThreshold(QStringLiteral("sqnr_db"), QStringLiteral("lots")));
        QVERIFY(ui_.differences->setThreshold(QStringLiteral("sqnr_db"), QString()));
        QCOMPARE(failingShown(), QStringList{culprit_});
    }

    // The graph coloured by SQNR: a legend says what the colours mean; export then import as node data.
    // The verdict's tolerance: float32 rounding against a float64 second run
    // passes by default (assert_close's float32 band, not allclose's atol
    // 1e-8); the dock's rtol/atol fields override it for every dtype, the
    // summary says which applied, and the fields outlive the window.
    void toleranceFromTheDock() {
        QSettings().remove(QStringLiteral("differences"));
        open();
        ctl()->values()->loadWeights(irFixture(QStringLiteral("llama_block.weights.pt")));  // the good weights
        exec::ReferenceChoice f64;
        f64.kind = exec::ReferenceChoice::Kind::Dtype;
        f64.dtype = "float64";
        ctl()->checks()->setReferenceChoice(f64);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        runToEnd();
        const int all = table()->model()->rowCount();
        QVERIFY(all > 20);
        ui_.differences->setFailingOnly(true);
        QCOMPARE(table()->model()->rowCount(), 0);
        QVERIFY2(ui_.differences->summary().contains(QLatin1String("float32 default (rtol 1.3e-06, atol 1e-05)")),
                 qPrintable(ui_.differences->summary()));
        QVERIFY2(ctl()->verdict().startsWith(QLatin1String("outputs match")),
                 qPrintable(ctl()->verdict() + " / " + ctl()->lastStatus()));
        QVERIFY2(ctl()->verdict().contains(QLatin1String("tolerance float32 default")), qPrintable(ctl()->verdict()));

        // torch.allclose's old defaults, typed into the dock: the same rounding fails.
        auto* rtol = ui_.differences->findChild<QLineEdit*>(QStringLiteral("rtolEdit"));
        auto* atol = ui_.differences->findChild<QLineEdit*>(QStringLiteral("atolEdit"));
        QVERIFY(rtol && atol);
        rtol->setText(QStringLiteral("1e-5"));
        atol->setText(QStringLiteral("1e-8"));
        emit atol->editingFinished();
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(ctl()->checks()->tolerance().rtol.value_or(-1), 1e-5);
        QVERIFY(table()->model()->rowCount() > 0);  // measured again, no rerun needed
        QVERIFY2(ui_.differences->summary().contains(QLatin1String("rtol 1e-05, atol 1e-08 (set)")),
                 qPrintable(ui_.differences->summary()));
        auto* button = ui_.differences->findChild<QToolButton*>(QStringLiteral("toleranceButton"));
        QVERIFY(button);
        QCOMPARE(button->text(), QStringLiteral("rtol 1e-05, atol 1e-08"));
        // Not a number: refused, nothing changes.
        QVERIFY(!ui_.differences->setTolerance(QStringLiteral("tight"), QString()));
        QCOMPARE(ctl()->checks()->tolerance().atol.value_or(-1), 1e-8);

        // A new window starts with the user's tolerance.
        open();
        QCOMPARE(ctl()->checks()->tolerance().rtol.value_or(-1), 1e-5);
        QCOMPARE(ctl()->checks()->tolerance().atol.value_or(-1), 1e-8);
        QCOMPARE(ui_.differences->findChild<QLineEdit*>(QStringLiteral("atolEdit"))->text(), QStringLiteral("1e-08"));
        // Cleared: the dtypes' defaults again, and forgotten.
        QVERIFY(ui_.differences->setTolerance(QString(), QString()));
        QVERIFY(!ctl()->checks()->tolerance().userSet());
        QVERIFY(!QSettings().contains(QStringLiteral("differences/atol")));
        QCOMPARE(ui_.differences->findChild<QToolButton*>(QStringLiteral("toleranceButton"))->text(),
                 QStringLiteral("Tolerance"));
    }

    // Edit and continue, the way a user bisects by hand: the culprit's output
    // replaced by the reference's value, the run back where it was; the
    // culprit's row says it was overridden and nothing after it fails any
    // more (the perturbed weight is read by that node alone). Cleared, the
    // failures come back.
    void overrideWithTheReferenceAndContinue() {
        open();
        ui_.differences->setFailingOnly(true);
        runToEnd();
        QVERIFY(failingShown().size() > 1);
        QCOMPARE(failingShown().front(), culprit_);
        const auto& nodes = session()->document()->graph.nodes;
        const QString out =
            QString::fromStdString(nodes[static_cast<size_t>(nodeIndex(culprit_))].outputs.front().name);
        ctl()->overrideOutput(out, DebugController::OverrideSource::Reference);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY2(ctl()->lastStatus().contains(QLatin1String("overridden with the reference's value")),
                 qPrintable(ctl()->lastStatus()));
        QCOMPARE(ctl()->runCursor(), ctl()->nodeCount());  // back where it was: the end
        QCOMPARE(ctl()->overridden(), QStringList{out});
        QCOMPARE(failingShown(), QStringList{});
        ui_.differences->setFailingOnly(false);
        bool marked = false;
        for (int r = 0; r < table()->model()->rowCount(); ++r)
            if (table()->model()->index(r, DifferencesModel::Node).data().toString() == culprit_)
                marked = table()
                             ->model()
                             ->index(r, DifferencesModel::Verdict)
                             .data()
                             .toString()
                             .contains(QLatin1String("overridden"));
        QVERIFY(marked);
        // A value of the wrong shape is refused, and says why.
        QSignalSpy refused(ctl(), &DebugController::errorOccurred);
        ctl()->overrideOutput(out, DebugController::OverrideSource::Text, QStringLiteral("[1, 2, 3]"));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QTRY_COMPARE(refused.size(), 1);
        QVERIFY2(refused.first().first().toString().contains(QLatin1String("shape")),
                 qPrintable(refused.first().first().toString()));
        auto* banner = window_->findChild<QWidget*>(QStringLiteral("messageBar"));
        QVERIFY(banner && banner->isVisible());
        // Cleared: the node's own result, and the failures, again.
        ctl()->clearOverride(out);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(ctl()->overridden().isEmpty());
        ui_.differences->setFailingOnly(true);
        QCOMPARE(failingShown().front(), culprit_);
        ui_.differences->setFailingOnly(false);
        // The refusal's banner went with the next run (clearing the override
        // reruns): it is about a run that is gone (it stayed up through
        // every later run).
        QVERIFY(!banner->isVisible());
    }

    void overlayByMetricWithLegendAndNodeData() {
        open();
        ctl()->checks()->setErrorMode(exec::ErrorMode::Local);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        runToEnd();
        ctl()->checks()->setOverlay(exec::OverlayKind::ErrorSqnr);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        auto* legend = window_->graphView()->findChild<OverlayLegend*>();
        QVERIFY(legend);
        QVERIFY(legend->isVisible());
        QVERIFY2(legend->title().contains(QLatin1String("SQNR")), qPrintable(legend->title()));
        QVERIFY(legend->entries().size() >= 2);
        const int64_t i = nodeIndex(culprit_);
        const auto* deco = session()->decorations()->nodeDecoration(i);
        QVERIFY(deco && deco->overlay.isValid());
        QVERIFY2(deco->badge.endsWith(QLatin1String("dB")), qPrintable(deco->badge));
        // An exact node is green and has no badge.
        const auto* exact = session()->decorations()->nodeDecoration(0);
        QVERIFY(exact && exact->badge.isEmpty());
        QCOMPARE(exact->overlay, QColor("#c9f2c9"));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sqnr.json"));
        QString written = QStringLiteral("not yet");
        ctl()->checks()->exportNodeData(path, exec::NodeMetric::SqnrDb, [&written](const QString& e) { written = e; });
        QTRY_COMPARE(written, QString());
        ctl()->checks()->setOverlay(exec::OverlayKind::None);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(!legend->isVisible());
        ctl()->checks()->importNodeData(path);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(ctl()->checks()->overlay(), exec::OverlayKind::Imported);
        QCOMPARE(ui_.overlay->currentData().toInt(), static_cast<int>(exec::OverlayKind::Imported));
        QVERIFY(legend->isVisible());
        QVERIFY2(legend->title().contains(QLatin1String("thresholds")), qPrintable(legend->title()));
        const double want = numerics()[QStringLiteral("perturbed")]
                                .toObject()[QStringLiteral("first_local")]
                                .toObject()[QStringLiteral("sqnr_db")]
                                .toDouble();
        QVERIFY(std::fabs(ctl()->checks()->overlayValues()[i] - want) < 1e-3);
        // A file that is not node data: an error naming it, the overlay unchanged.
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"results\": {\"mul\": {\"value\": \"high\"}}}");
        f.close();
        QSignalSpy errors(ctl(), &DebugController::errorOccurred);
        ctl()->checks()->importNodeData(bad);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(errors[0][0].toString().contains(QLatin1String("bad.json")), qPrintable(errors[0][0].toString()));
        QCOMPARE(ctl()->checks()->overlay(), exec::OverlayKind::Imported);
    }

    // Watchpoints: on every node from the Debug menu, on one node; listed with breakpoints; the run stops.
    void watchpointsStopAndAreListed() {
        open();
        auto* breakpoints = ui_.breakpoints;
        QVERIFY(breakpoints);
        QVERIFY(breakpoints->entries().isEmpty());
        auto* watchDiff = window_->findChild<QAction*>(QStringLiteral("watchDiff"));
        QVERIFY(watchDiff);
        watchDiff->trigger();
        QVERIFY(ctl()->checks()->globalWatch().diff);
        QCOMPARE(breakpoints->entries().size(), 1);
        QVERIFY(breakpoints->entries()[0].contains(QLatin1String("every node: diff")));
        runToEnd();
        QVERIFY(ctl()->lastRunFailed() == false);
        QCOMPARE(ctl()->runCursor(), nodeIndex(culprit_) + 1);  // stopped right after the culprit
        QVERIFY2(ctl()->lastStatus().contains(QLatin1String("watchpoint")), qPrintable(ctl()->lastStatus()));
        QCOMPARE(session()->selectionModel()->selection().index,
                 nodeIndex(culprit_));  // the node that fired, not the next one
        QCOMPARE(ctl()->tensors()->focusTensor(), culprit_);
        watchDiff->trigger();  // off
        QVERIFY(!ctl()->checks()->globalWatch().any());

        // One node, with a breakpoint beside it.
        const int64_t later = nodeIndex(culprit_) + 3;
        exec::WatchCondition big;
        big.absMax = 1e-30;  // any non-zero output
        ctl()->checks()->setWatch(later, big);
        ctl()->toggleBreakpoint(later - 1);
        QCOMPARE(breakpoints->entries().size(), 2);
        runToEnd();
        QCOMPARE(ctl()->runCursor(), later - 1);  // the breakpoint stops before its node
        runToEnd();
        QCOMPARE(ctl()->runCursor(), later + 1);  // the watch after its node
        breakpoints->removeAll();
        QVERIFY(breakpoints->entries().isEmpty());
        QVERIFY(ctl()->checks()->watches().empty());
        runToEnd();
        QVERIFY(ctl()->runCursor() == ctl()->nodeCount());
    }

    // File > Close leaves nothing of the closed model: no verdict, no
    // Differences row, no value in the Tensor dock, no weight or input row,
    // no overlay legend, and the actions that need a model disabled.
    void closeLeavesNothingBehind() {
        open();
        runToEnd();
        ctl()->checks()->setOverlay(exec::OverlayKind::ErrorSqnr);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        session()->selectionModel()->select(ItemRef::node(nodeIndex(culprit_)));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(!ui_.status->text().isEmpty());
        QVERIFY(table()->model()->rowCount() > 0);
        QVERIFY(ui_.weights->table()->model()->rowCount() > 0);
        auto* closeAction = window_->findChild<QAction*>(QStringLiteral("closeDocumentAction"));
        QVERIFY(closeAction);
        closeAction->trigger();
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(!session()->hasDocument());
        QVERIFY2(ui_.status->text().isEmpty(), qPrintable(ui_.status->text()));
        QVERIFY2(window_->statusBar()->currentMessage().isEmpty(), qPrintable(window_->statusBar()->currentMessage()));
        QCOMPARE(ui_.differences->table()->model()->rowCount(), 0);
        QCOMPARE(ui_.weights->table()->model()->rowCount(), 0);
        QCOMPARE(ui_.inputs->table()->model()->rowCount(), 0);
        for (QAction* a : {ui_.continueAction, ui_.stepAction, ui_.breakpointAction, ui_.divergenceAction,
                           ui_.runToAction, ui_.resetAction})
            QVERIFY2(!a->isEnabled(), qPrintable(a->text()));
        for (auto* legend : window_->graphView()->findChildren<OverlayLegend*>())
            QVERIFY2(!legend->isVisible() || legend->title().isEmpty(), qPrintable(legend->title()));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestDifferences)
#include "test_differences.moc"
