// The debugger's status bar and what drives it (split from debugger_ui.cpp):
// the status text, the run's progress bar (nodes run of all; a value file's
// load with Cancel while one is read), bytes held, and the reactions to the
// controller's state: actions enabled, stops, the dock that supplies a
// missing value brought up, errors in the message bar.
#include "widgets/debugger/debugger_status_bar.h"

#include <algorithm>
#include <memory>

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QSet>
#include <QStatusBar>
#include <QToolButton>

#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/missing_values_panel.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/engine_start.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/numeric_checks.h"

namespace irscope::widgets {

namespace {

// The dock where the user supplies what `remedy` says.
QDockWidget* dockForRemedy(const DebuggerUi& ui, exec::Remedy remedy) {
    switch (remedy) {
    case exec::Remedy::ChooseInputSource: return ui.inputsDock;
    case exec::Remedy::LoadStateDict:
    case exec::Remedy::CastToIrDtype: return ui.weightsDock;
    case exec::Remedy::EnterConstant:
    case exec::Remedy::EnterNonPersistentBuffer: return ui.constantsDock;  // a state_dict cannot have these
    }
    return nullptr;
}

void raiseDock(QDockWidget* dock) {
    if (!dock) return;
    dock->show();
    dock->raise();  // in front of its tab group
}

// "state_dict", "constants", ...: what a value file is to the user.
QString valueFileWord(exec::ValueFile file) {
    switch (file) {
    case exec::ValueFile::Weights: return QObject::tr("weights");
    case exec::ValueFile::Constants: return QObject::tr("constants");
    case exec::ValueFile::Inputs: return QObject::tr("inputs");
    case exec::ValueFile::Expected: return QObject::tr("expected outputs");
    case exec::ValueFile::ReferenceIntermediates: return QObject::tr("reference intermediates");
    }
    return QObject::tr("values");
}

// The run's progress bar as it is when no file loads: nodes run of all.
void showRunProgress(const DebuggerUi& ui) {
    const DebugController* c = ui.controller;
    ui.progress->setMaximum(static_cast<int>(std::max<int64_t>(c->nodeCount(), 1)));
    ui.progress->setValue(static_cast<int>(std::min(c->runCursor(), c->nodeCount())));
    ui.progress->setFormat(QObject::tr("%v/%m nodes"));
    ui.progress->setVisible(c->hasDocument());
}

// "3 value(s) missing", "no state_dict loaded", or back to "ready" once they
// are supplied; while a value file loads, "Loading weights… 42%" and nothing
// about values not read yet.
void showValuesStatus(const DebuggerUi& ui) {
    const DebugController* c = ui.controller;
    const auto& m = c->values()->missing();
    if (c->values()->isLoadingValues()) {
        const auto& load = c->values()->valuesLoad();
        ui.progress->setMaximum(100);
        ui.progress->setValue(load.percent);
        ui.progress->setFormat(QObject::tr("Loading %1 %p%").arg(valueFileWord(load.file)));
        ui.cancelLoad->show();
        ui.status->setText(QObject::tr("Loading %1…").arg(QFileInfo(load.path).fileName()));
        ui.status->setToolTip(load.path);
        return;
    }
    ui.cancelLoad->hide();
    if (c->isRunning()) return;  // the run owns the bar and the status until it stops
    showRunProgress(ui);
    const auto alarming = std::count_if(m.begin(), m.end(), [](const auto& r) { return !r.awaitsStateDict; });
    const auto wrongDtype = std::count_if(m.begin(), m.end(), [](const auto& r) { return r.value.wrongDtype(); });
    // An input the program's ranges refuse is there, and wrong: said as such.
    const auto refused = std::count_if(m.begin(), m.end(), [](const auto& r) { return !r.value.refusal.empty(); });
    if (alarming > 0) {
        QString text, why;
        if (refused > 0) {
            text = QObject::tr("%n input(s) outside the program's ranges", nullptr, static_cast<int>(refused));
            for (const auto& r : m)
                if (!r.value.refusal.empty())
                    why += (why.isEmpty() ? QString() : QStringLiteral("\n")) + QString::fromStdString(r.value.refusal);
        }
        if (alarming > wrongDtype + refused)
            text += (text.isEmpty() ? QString() : QStringLiteral(", ")) +
                    QObject::tr("%n value(s) missing", nullptr, static_cast<int>(alarming - wrongDtype - refused));
        if (wrongDtype > 0)
            text += (text.isEmpty() ? QString() : QStringLiteral(", ")) +
                    QObject::tr("%n value(s) not in the IR's dtype", nullptr, static_cast<int>(wrongDtype));
        ui.status->setText(
            QStringLiteral("<span style='color:#d0302a'>%1 — %2</span>").arg(text, QObject::tr("see Diagnostics")));
        ui.status->setToolTip(why);
    } else if (!m.empty()) {
        ui.status->setText(QObject::tr("no state_dict loaded"));
    } else if (ui.status->text().contains(QLatin1String("missing")) ||
               ui.status->text().contains(QLatin1String("ranges")) ||
               ui.status->text().contains(QLatin1String("dtype")) ||
               ui.status->text().contains(QLatin1String("state_dict")) ||
               ui.status->text().startsWith(QLatin1String("Loading"))) {
        ui.status->setText(QObject::tr("ready"));
        ui.status->setToolTip({});
    }
}

}  // namespace

// The status label's width: what the bar has left beside the progress,
// the bytes held and the zoom (a verdict cut at a fixed 460 px read
// "within toleran…" on a wide window), never under 300 px.
namespace {
int statusWidth(const MainWindow& w) { return std::max(300, w.width() - 560); }
}  // namespace

// Status, progress and bytes held in the status bar.
void installStatusBar(MainWindow& w, DebuggerUi& ui) {
    ui.status = new QLabel(&w);
    ui.status->setObjectName(QStringLiteral("debugStatus"));
    // A long message is cut at this width (its whole text is the tooltip), so
    // it never pushes the progress bar and the zoom off the status bar.
    ui.status->setMaximumWidth(460);
    ui.status->setMinimumWidth(1);  // nor sets the window's minimum width (a QLabel's is its text's)
    ui.progress = new QProgressBar(&w);
    ui.progress->setObjectName(QStringLiteral("runProgress"));
    ui.progress->setMinimumWidth(150);
    ui.progress->setFormat(QObject::tr("%v/%m nodes"));
    ui.progress->setValue(0);
    ui.progress->hide();  // until a graph is open: an empty window has no "0/1 nodes"
    ui.cancelLoad = new QToolButton(&w);
    ui.cancelLoad->setObjectName(QStringLiteral("cancelValuesLoad"));
    ui.cancelLoad->setText(QObject::tr("Cancel"));
    ui.cancelLoad->setToolTip(QObject::tr("Stop loading; the values stay as they were"));
    ui.cancelLoad->hide();
    QObject::connect(ui.cancelLoad, &QToolButton::clicked, ui.controller->values(), &DebugValues::cancelValuesLoad);
    ui.bytes = new QLabel(&w);
    ui.bytes->setObjectName(QStringLiteral("bytesHeld"));
    ui.bytes->setToolTip(QObject::tr("Memory held by computed values (see Debug ▸ Memory)"));
    w.statusBar()->addPermanentWidget(ui.status);
    w.statusBar()->addPermanentWidget(ui.progress);
    w.statusBar()->addPermanentWidget(ui.cancelLoad);
    w.statusBar()->addPermanentWidget(ui.bytes);
}

// The controller's state in the actions, the status bar and the message bar.
void connectRunState(MainWindow& w, const DebuggerUi& ui) {
    DebugController* c = ui.controller;
    auto actionsEnabled = [ui, c](bool running) {
        for (auto* a : {ui.continueAction, ui.stepAction, ui.stepIntoAction, ui.stepOutAction, ui.runToAction,
                        ui.resetAction, ui.breakpointAction, ui.divergenceAction})
            a->setEnabled(!running && c->hasDocument());
        ui.stopAction->setEnabled(running);
    };
    QObject::connect(c, &DebugController::runStateChanged, &w, actionsEnabled);
    QObject::connect(c, &DebugController::progress, &w, [ui](qint64 done, qint64 total, double secs) {
        ui.progress->setMaximum(static_cast<int>(std::max<qint64>(total, 1)));
        ui.progress->setValue(static_cast<int>(done));
        ui.progress->setFormat(QObject::tr("%v/%m nodes · %1 s").arg(secs, 0, 'f', 2));
        // Wide enough for its text ("2401/2500 nodes · 0.04 s" was cut); it only grows, so it never jitters.
        const int needed = ui.progress->fontMetrics().horizontalAdvance(ui.progress->text()) + 24;
        if (needed > ui.progress->minimumWidth()) ui.progress->setMinimumWidth(needed);
    });
    QObject::connect(c, &DebugController::bytesHeldChanged, &w, [ui](qint64 b) {
        ui.bytes->setText(
            QObject::tr("held: %1").arg(QString::fromStdString(exec::formatBytes(static_cast<size_t>(b)))));
    });
    QObject::connect(c, &DebugController::stopped, &w, [ui, &w](const QString& msg, bool failed) {
        // The verdict is said once, in the status label, as wide as the bar
        // allows (statusWidth); only when even that cuts it (with an
        // ellipsis; the whole of it is the tooltip) does the message area
        // beside it show a failure whole.
        ui.status->setMaximumWidth(statusWidth(w));
        const QString shown = ui.status->fontMetrics().elidedText(msg, Qt::ElideRight, ui.status->maximumWidth() - 8);
        ui.status->setText(failed ? QStringLiteral("<span style='color:#d0302a'>%1</span>").arg(shown.toHtmlEscaped())
                                  : shown);
        ui.status->setToolTip(msg);
        if (failed && shown != msg)
            w.statusBar()->showMessage(msg, 15000);
        else if (w.statusBar()->currentMessage() == w.property("irscopeLastFailure").toString())
            w.statusBar()->clearMessage();  // the failure it showed is not the state any more
        w.setProperty("irscopeLastFailure", failed && shown != msg ? msg : QString());
    });
    // An extract's paths and its rerun command are longer than the status
    // bar: the message bar above the graph shows them whole, selectable.
    QObject::connect(c, &DebugController::extracted, &w, [&w](const QString& summary, const QString& command) {
        w.showMessage(command.isEmpty() ? summary : summary + QObject::tr("\nReproduce: ") + command, false, false);
    });
    // Stopped before a node for a value it lacks: the dock that supplies it comes up.
    QObject::connect(c, &DebugController::stoppedForMissingValue, &w, [ui, c](const QString& name, const QString&) {
        exec::Remedy remedy = exec::Remedy::LoadStateDict;
        for (const auto& row : c->values()->missing())
            if (row.value.name == name.toStdString()) remedy = row.remedy;
        raiseDock(dockForRemedy(ui, remedy));
    });
    // On opening, values the run lacks bring up the dock that supplies the
    // first of them (the Constants dock for a meta extraction's dropped
    // constants), once per document and unless --show-dock chose one.
    auto raisedOnOpen = std::make_shared<bool>(false);
    QObject::connect(c, &DebugController::debuggerReset, &w, [raisedOnOpen] { *raisedOnOpen = false; });
    auto raiseForMissing = [ui, c, raisedOnOpen, &w] {
        if (*raisedOnOpen || c->values()->isLoadingValues() || w.property(kDockChosenProperty).toBool()) return;
        for (const auto& row : c->values()->missing())
            if (!row.awaitsStateDict) {
                raiseDock(dockForRemedy(ui, row.remedy));
                *raisedOnOpen = true;
                return;
            }
    };
    QObject::connect(c->values(), &DebugValues::valuesChanged, &w, raiseForMissing);
    QObject::connect(c->values(), &DebugValues::valuesLoadChanged, &w, raiseForMissing);  // the last load done
    QObject::connect(c->checks(), &NumericChecks::divergenceAnswered, &w,
                     [&w](const QString& message, bool) { w.statusBar()->showMessage(message, 15000); });
    QObject::connect(c, &DebugController::errorOccurred, &w,
                     [&w](const QString& msg) { w.showMessage(msg, true, false); });
    QObject::connect(c, &DebugController::notice, &w,
                     [&w](const QString& msg) { w.statusBar()->showMessage(msg, 15000); });
    QObject::connect(c->values(), &DebugValues::valuesChanged, &w, [ui] { showValuesStatus(ui); });
    QObject::connect(c->values(), &DebugValues::valuesLoadChanged, &w, [ui] { showValuesStatus(ui); });
    // A file that loads supersedes the error of one of its kind that did not
    // (another state_dict after a bad one); it leaves standing the error of
    // another kind: an archive's example inputs loading after its weights
    // failed took the weights' error down, and the window then said nothing.
    auto failed = std::make_shared<QSet<int>>();
    QObject::connect(c->values(), &DebugValues::valuesLoadFailed, &w,
                     [failed](exec::ValueFile file) { failed->insert(static_cast<int>(file)); });
    QObject::connect(c->values(), &DebugValues::valuesLoaded, &w, [&w, failed](exec::ValueFile file) {
        failed->remove(static_cast<int>(file));
        if (failed->isEmpty()) w.clearError();
    });
    QObject::connect(c, &DebugController::debuggerReset, &w, [failed] { failed->clear(); });
    // A run or step starting: an error about the last action (an override
    // refused, a watch that could not be set) is about a run that is gone;
    // a value file that failed to load still stands.
    QObject::connect(c, &DebugController::runStateChanged, &w, [&w, failed](bool running) {
        if (running && failed->isEmpty()) w.clearError();
    });
    // A document's debugger may come after the document: the window's
    // first, drawn before the engine is in. Meanwhile the bar says so.
    // (Queued: after the document's own graphLoaded handlers, which clear the bar.)
    auto sayWaiting = [ui, c] {
        if (!c->hasDocument() && EngineStart::instance().failure().isEmpty())
            ui.status->setText(QObject::tr("starting the engine (libtorch)…"));
    };
    QObject::connect(c, &DebugController::waitingForEngine, &w, sayWaiting, Qt::QueuedConnection);
    // The bar made after the document came (the window's panels after its first frame).
    if (w.session()->hasDocument()) sayWaiting();
    QObject::connect(&EngineStart::instance(), &EngineStart::failed, &w, [ui] { ui.status->clear(); });
    QObject::connect(c, &DebugController::debuggerReset, &w, [ui, actionsEnabled, c] {
        showRunProgress(ui);
        ui.status->clear();
        actionsEnabled(c->isRunning());
    });
    // Reset (Shift+F5) puts the cursor back: the bar says so, not the last run's time.
    QObject::connect(c, &DebugController::nodeStatesChanged, &w, [ui, c] {
        if (!c->isRunning() && !c->values()->isLoadingValues() && c->runCursor() == 0) showRunProgress(ui);
    });
    actionsEnabled(false);
    // Another document, or none (File > Close): nothing of the last run stays.
    QObject::connect(w.session(), &GraphSession::graphLoaded, &w, [actionsEnabled, ui, &w, c] {
        actionsEnabled(false);
        if (c->hasDocument()) return;
        ui.status->clear();
        ui.status->setToolTip({});
        ui.bytes->clear();
        showRunProgress(ui);
        w.statusBar()->clearMessage();
    });
    // Selecting a failed node shows its error in the status bar.
    QObject::connect(w.session()->selectionModel(), &GraphSelection::selectionChanged, &w, [c, &w](const ItemRef& ref) {
        if (!ref.isNode() || ref.index >= (int64_t)c->nodeInfos().size()) return;
        const auto& i = c->nodeInfos()[ref.index];
        if (!i.error.empty()) w.statusBar()->showMessage(QString::fromStdString(i.error), 15000);
    });
}

// A missing value clicked in Diagnostics: its node is selected (the panel
// does that) and the dock that supplies it comes up.
void connectMissingValues(MainWindow& w, DebuggerUi& ui) {
    if (!ui.missing) return;
    DebugController* c = ui.controller;
    QObject::connect(ui.missing->list(), &QListWidget::itemClicked, &w, [ui, c](QListWidgetItem* it) {
        const int r = it->data(Qt::UserRole).toInt();
        if (r >= 0 && r < static_cast<int>(c->values()->missing().size()))
            raiseDock(dockForRemedy(ui, c->values()->missing()[r].remedy));
    });
}

}  // namespace irscope::widgets
