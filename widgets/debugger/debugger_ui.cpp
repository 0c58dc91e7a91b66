#include <algorithm>
#include "widgets/debugger/debugger_ui.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QProgressBar>
#include <QScrollBar>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

#include "widgets/debugger/constants_panel.h"
#include "widgets/debugger/exec_info_panel.h"
#include "widgets/debugger/inputs_panel.h"
#include "widgets/debugger/missing_values_panel.h"
#include "widgets/debugger/weights_panel.h"
#include "widgets/debugger/tensor_viewer_area.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/panels/diagnostics_panel.h"
#include "widgets/panels/properties_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/node_decorator.h"

namespace irscope::widgets {

namespace {

bool isTensorFile(const QString& path) {
    const QString s = QFileInfo(path).suffix().toLower();
    return s == QLatin1String("pt") || s == QLatin1String("pth") || s == QLatin1String("bin") ||
           s == QLatin1String("safetensors") || s == QLatin1String("npy");
}

// Dropping .pt/.safetensors files on the window loads them as weights
// (names containing "const" as constants, "input" as inputs); IR files go on
// to the window.
class DropFilter : public QObject {
public:
    DropFilter(DebugController* c, QObject* parent) : QObject(parent), c_(c) {}

protected:
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() != QEvent::DragEnter && e->type() != QEvent::Drop) return false;
        auto* de = static_cast<QDropEvent*>(e);
        if (!de->mimeData()->hasUrls()) return false;
        QStringList tensors;
        for (const QUrl& u : de->mimeData()->urls())
            if (u.isLocalFile() && isTensorFile(u.toLocalFile())) tensors << u.toLocalFile();
        if (tensors.isEmpty()) return false;
        if (e->type() == QEvent::DragEnter) {
            static_cast<QDragEnterEvent*>(e)->acceptProposedAction();
            return true;
        }
        for (const QString& f : tensors) {
            const QString n = QFileInfo(f).fileName().toLower();
            if (n.contains(QLatin1String("const"))) c_->loadConstants(f);
            else if (n.contains(QLatin1String("input"))) c_->loadInputs(f);
            else if (n.contains(QLatin1String("expected"))) c_->loadExpected(f);
            else if (n.contains(QLatin1String("intermediate"))) c_->loadReferenceIntermediates(f);
            else c_->loadWeights(f);
        }
        de->acceptProposedAction();
        return true;
    }

private:
    DebugController* c_;
};

// Puts `extra` above or below the widget a dock shows.
void wrapDock(QWidget* panel, QWidget* extra, bool above) {
    auto* dock = qobject_cast<QDockWidget*>(panel ? panel->parentWidget() : nullptr);
    if (!dock) return;
    auto* box = new QWidget(dock);
    auto* lay = new QVBoxLayout(box);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(2);
    if (above) lay->addWidget(extra);
    lay->addWidget(panel, 1);
    if (!above) lay->addWidget(extra);
    dock->setWidget(box);
}

}  // namespace

DebuggerUi installDebugger(MainWindow& w) {
    DebuggerUi ui;
    auto* c = new DebugController(w.session(), &w);
    ui.controller = c;
    // First of the controller's observers: the graph is decorated before the panels hear of a change.
    ui.decorator = new NodeDecorator(c, w.session(), c);

    // ---- docks
    auto dock = [&w](const QString& title, const QString& name, QWidget* content, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, &w);
        d->setObjectName(name);
        d->setWidget(content);
        w.addDockWidget(area, d);
        return d;
    };
    ui.weights = new WeightsPanel(c);
    ui.constants = new ConstantsPanel(c);
    ui.inputs = new InputsPanel(c);
    ui.tensors = new TensorViewerArea(c);
    ui.weightsDock = dock(QObject::tr("Weights"), QStringLiteral("weightsDock"), ui.weights, Qt::BottomDockWidgetArea);
    ui.constantsDock = dock(QObject::tr("Constants"), QStringLiteral("constantsDock"), ui.constants, Qt::BottomDockWidgetArea);
    ui.inputsDock = dock(QObject::tr("Inputs && references"), QStringLiteral("inputsDock"), ui.inputs, Qt::BottomDockWidgetArea);
    ui.tensorDock = dock(QObject::tr("Tensor"), QStringLiteral("tensorDock"), ui.tensors, Qt::BottomDockWidgetArea);
    w.splitDockWidget(ui.weightsDock, ui.tensorDock, Qt::Horizontal);
    w.tabifyDockWidget(ui.weightsDock, ui.constantsDock);
    w.tabifyDockWidget(ui.weightsDock, ui.inputsDock);
    // The module call stack belongs with the run's docks, under the graph.
    if (QDockWidget* stack = w.callStackDock()) {
        w.removeDockWidget(stack);
        w.addDockWidget(Qt::BottomDockWidgetArea, stack);
        w.tabifyDockWidget(ui.inputsDock, stack);
        stack->show();
    }
    ui.weightsDock->raise();
    // Bottom row: Diagnostics (pre-flight), the value docks, the tensor viewer.
    if (auto* diagnostics = w.findChild<QDockWidget*>(QStringLiteral("diagnosticsDock")))
        w.resizeDocks({diagnostics, ui.weightsDock, ui.tensorDock}, {400, 480, 520}, Qt::Horizontal);
    else
        w.resizeDocks({ui.weightsDock, ui.tensorDock}, {560, 640}, Qt::Horizontal);
    w.resizeDocks({ui.weightsDock}, {300}, Qt::Vertical);

    ui.execInfo = new ExecInfoPanel(c);
    wrapDock(w.propertiesPanel(), ui.execInfo, false);
    ui.missing = new MissingValuesPanel(c);
    wrapDock(w.diagnosticsPanel(), ui.missing, true);

    // ---- actions
    auto* menu = w.menuBar()->addMenu(QObject::tr("&Debug"));
    auto* bar = w.addToolBar(QObject::tr("Debug"));
    bar->setObjectName(QStringLiteral("debugToolBar"));
    auto action = [&](const QString& text, const QKeySequence& key, const QString& tip, auto slot) {
        auto* a = new QAction(text, &w);
        a->setShortcut(key);
        a->setShortcutContext(Qt::ApplicationShortcut);
        a->setToolTip(QStringLiteral("%1 (%2)<br>%3").arg(text, key.toString(QKeySequence::NativeText), tip));
        QObject::connect(a, &QAction::triggered, c, slot);
        menu->addAction(a);
        bar->addAction(a);
        return a;
    };
    ui.continueAction = action(QObject::tr("Continue"), QKeySequence(Qt::Key_F5),
                               QObject::tr("Run to the end or the next breakpoint"), &DebugController::continueRun);
    ui.stepAction = action(QObject::tr("Step Over"), QKeySequence(Qt::Key_F10),
                           QObject::tr("Run the current node, or the whole closed module it is in"), &DebugController::stepOver);
    ui.stepIntoAction = action(QObject::tr("Step Into"), QKeySequence(Qt::Key_F11),
                               QObject::tr("Open the closed module around the current node (runs nothing); else run one node"),
                               &DebugController::stepInto);
    ui.stepOutAction = action(QObject::tr("Step Out"), QKeySequence(Qt::SHIFT | Qt::Key_F11),
                              QObject::tr("Run to the end of the module around the current node"), &DebugController::stepOut);
    ui.runToAction = action(QObject::tr("Run to selected"), QKeySequence(Qt::CTRL | Qt::Key_F10),
                            QObject::tr("Run until the selected node has run"), &DebugController::runToSelected);
    ui.breakpointAction = action(QObject::tr("Toggle breakpoint"), QKeySequence(Qt::Key_F9),
                                 QObject::tr("Stop before the selected node"), &DebugController::toggleBreakpointAtSelection);
    ui.stopAction = action(QObject::tr("Stop"), QKeySequence(Qt::CTRL | Qt::Key_Pause),
                           QObject::tr("Stop the run before the next node"), &DebugController::stop);
    ui.resetAction = action(QObject::tr("Reset"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
                            QObject::tr("Back to the first node; computed values are dropped"), &DebugController::reset);
    menu->addSeparator();
    bar->addSeparator();
    ui.divergenceAction = action(QObject::tr("First divergence"), QKeySequence(Qt::CTRL | Qt::Key_D),
                                 QObject::tr("Go to the first node whose output differs from the reference"),
                                 &DebugController::goToFirstDivergence);
    ui.stopAction->setEnabled(false);

    ui.overlay = new QComboBox(bar);
    ui.overlay->setObjectName(QStringLiteral("overlayBox"));
    ui.overlay->addItems({QObject::tr("Overlay: none"), QObject::tr("Overlay: time"), QObject::tr("Overlay: max |x|"),
                          QObject::tr("Overlay: NaN/Inf"), QObject::tr("Overlay: difference")});
    bar->addWidget(ui.overlay);
    QObject::connect(ui.overlay, &QComboBox::currentIndexChanged, c,
                     [c](int i) { c->setOverlay(static_cast<exec::OverlayKind>(i)); });

    menu->addSeparator();
    auto* retention = menu->addMenu(QObject::tr("Memory"));
    auto* group = new QActionGroup(&w);
    auto* keepAll = retention->addAction(QObject::tr("Keep every intermediate"));
    auto* freeAfter = retention->addAction(QObject::tr("Free after last use (keep outputs, pinned, selected)"));
    for (auto* a : {keepAll, freeAfter}) {
        a->setCheckable(true);
        group->addAction(a);
    }
    keepAll->setChecked(true);
    QObject::connect(keepAll, &QAction::triggered, c, [c] { c->setRetention(exec::RetentionPolicy::KeepAll); });
    QObject::connect(freeAfter, &QAction::triggered, c, [c] { c->setRetention(exec::RetentionPolicy::FreeAfterLastUse); });
    menu->addSeparator();
    auto* loadMenu = menu->addMenu(QObject::tr("Load"));
    QObject::connect(loadMenu->addAction(QObject::tr("Weights…")), &QAction::triggered, ui.weights, &WeightsPanel::loadDialog);
    QObject::connect(loadMenu->addAction(QObject::tr("Constants…")), &QAction::triggered, ui.constants, &ConstantsPanel::loadDialog);
    QObject::connect(menu->addAction(QObject::tr("Save entered constants…")), &QAction::triggered, ui.constants,
                     &ConstantsPanel::saveDialog);
    auto* viewMenu = menu->addMenu(QObject::tr("Panels"));
    for (auto* d : {ui.weightsDock, ui.constantsDock, ui.inputsDock, ui.tensorDock}) viewMenu->addAction(d->toggleViewAction());

    // ---- status bar
    ui.status = new QLabel(&w);
    ui.status->setObjectName(QStringLiteral("debugStatus"));
    ui.progress = new QProgressBar(&w);
    ui.progress->setObjectName(QStringLiteral("runProgress"));
    ui.progress->setMinimumWidth(210);
    ui.progress->setFormat(QObject::tr("%v/%m nodes"));
    ui.progress->setValue(0);
    ui.bytes = new QLabel(&w);
    ui.bytes->setObjectName(QStringLiteral("bytesHeld"));
    ui.bytes->setToolTip(QObject::tr("Memory held by computed values (see Debug ▸ Memory)"));
    w.statusBar()->addPermanentWidget(ui.status);
    w.statusBar()->addPermanentWidget(ui.progress);
    w.statusBar()->addPermanentWidget(ui.bytes);

    auto actionsEnabled = [ui, c](bool running) {
        for (auto* a : {ui.continueAction, ui.stepAction, ui.stepIntoAction, ui.stepOutAction, ui.runToAction, ui.resetAction})
            a->setEnabled(!running && c->hasDocument());
        ui.stopAction->setEnabled(running);
    };
    QObject::connect(c, &DebugController::runStateChanged, &w, actionsEnabled);
    QObject::connect(c, &DebugController::progress, &w, [ui](qint64 done, qint64 total, double secs) {
        ui.progress->setMaximum(static_cast<int>(std::max<qint64>(total, 1)));
        ui.progress->setValue(static_cast<int>(done));
        ui.progress->setFormat(QObject::tr("%v/%m nodes · %1 s").arg(secs, 0, 'f', 2));
    });
    QObject::connect(c, &DebugController::bytesHeldChanged, &w, [ui](qint64 b) {
        ui.bytes->setText(QObject::tr("held: %1").arg(QString::fromStdString(exec::formatBytes(static_cast<size_t>(b)))));
    });
    QObject::connect(c, &DebugController::stopped, &w, [ui, &w](const QString& msg, bool failed) {
        ui.status->setText(failed ? QStringLiteral("<span style='color:#d0302a'>%1</span>").arg(msg.toHtmlEscaped().left(160)) : msg.left(160));
        ui.status->setToolTip(msg);
        if (failed) w.statusBar()->showMessage(msg, 15000);
    });
    QObject::connect(c, &DebugController::errorOccurred, &w, [&w](const QString& msg) { w.showMessage(msg, true, false); });
    QObject::connect(c, &DebugController::valuesChanged, &w, [ui, c] {
        const auto& m = c->missing();
        ui.progress->setMaximum(static_cast<int>(std::max<int64_t>(c->nodeCount(), 1)));
        ui.progress->setValue(static_cast<int>(c->cursor()));
        const auto alarming = std::count_if(m.begin(), m.end(), [](const auto& r) { return !r.awaitsStateDict; });
        if (alarming > 0) {
            ui.status->setText(QObject::tr("<span style='color:#d0302a'>%n value(s) missing — see Diagnostics</span>", nullptr,
                                           static_cast<int>(alarming)));
        } else if (!m.empty()) {
            ui.status->setText(QObject::tr("no state_dict loaded"));
        } else if (ui.status->text().contains(QLatin1String("missing")) ||
                   ui.status->text().contains(QLatin1String("state_dict"))) {
            ui.status->setText(QObject::tr("ready"));
        }
    });
    QObject::connect(c, &DebugController::debuggerReset, &w, [ui, c] {
        ui.progress->setMaximum(static_cast<int>(std::max<int64_t>(c->nodeCount(), 1)));
        ui.progress->setValue(0);
        ui.status->clear();
    });
    actionsEnabled(false);
    QObject::connect(w.session(), &GraphSession::graphLoaded, &w, [actionsEnabled] { actionsEnabled(false); });

    // ---- follow the current node unless the user moved the view
    struct Follow {
        int h = -1, v = -1;
        int64_t node = -1;
    };
    auto follow = std::make_shared<Follow>();
    QObject::connect(c, &DebugController::nodeStatesChanged, &w, [follow, c, &w] {
        GraphView* view = w.graphView();
        const int64_t cur = c->cursor() < c->nodeCount() ? c->cursor() : -1;
        if (!view || cur < 0 || cur == follow->node) return;
        const bool moved = follow->h >= 0 && (view->horizontalScrollBar()->value() != follow->h ||
                                              view->verticalScrollBar()->value() != follow->v);
        follow->node = cur;
        if (moved) return;
        view->centerOn(ItemRef::node(cur));
        follow->h = view->horizontalScrollBar()->value();
        follow->v = view->verticalScrollBar()->value();
    });
    QObject::connect(ui.resetAction, &QAction::triggered, &w, [follow] { *follow = Follow{}; });
    QObject::connect(w.session(), &GraphSession::graphLoaded, &w, [follow] { *follow = Follow{}; });

    // Selecting a failed node shows its error in the status bar.
    QObject::connect(w.session(), &GraphSession::selectionChanged, &w, [c, &w](const ItemRef& ref) {
        if (!ref.isNode() || ref.index >= (int64_t)c->nodeInfos().size()) return;
        const auto& i = c->nodeInfos()[ref.index];
        if (!i.error.empty()) w.statusBar()->showMessage(QString::fromStdString(i.error), 15000);
    });

    w.installEventFilter(new DropFilter(c, &w));
    return ui;
}

}  // namespace irscope::widgets
