#include "widgets/debugger/debugger_ui.h"

#include <algorithm>
#include <memory>

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>

#include "core/ir/node_selection.h"
#include "widgets/common/dialog_folders.h"
#include "widgets/common/overlay_scale.h"
#include "widgets/common/panel_registry.h"
#include "widgets/debugger/breakpoints_panel.h"
#include "widgets/debugger/constants_panel.h"
#include "widgets/debugger/debugger_status_bar.h"
#include "widgets/debugger/differences_panel.h"
#include "widgets/debugger/exec_info_panel.h"
#include "widgets/debugger/inputs_panel.h"
#include "widgets/debugger/missing_values_panel.h"
#include "widgets/debugger/tensor_file_drop.h"
#include "widgets/debugger/tensor_viewer_area.h"
#include "widgets/debugger/value_table.h"
#include "widgets/debugger/weights_panel.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/node_decorator.h"
#include "widgets/session/numeric_checks.h"

namespace irscope::widgets {

namespace {

// The panels that need the controller (weights, tensor, constants, inputs,
// the execution section, the pre-flight list: each registers itself, see
// common/panel_registry.h), then the layout around them: the module call
// stack joins the value docks under the graph, and the bottom row gets its
// widths. DebuggerUi's handles of the docks are looked up by id here, those
// of the panels once they are made (attachDebuggerPanels), for scripts and
// tests; the menus find a panel when they are used.
void installDocks(MainWindow& w, DebuggerUi& ui) {
    w.installPanels({&w, w.session(), ui.controller, nullptr});
    ui.weightsDock = w.panelDock(kWeightsPanel);
    ui.tensorDock = w.panelDock(kTensorPanel);
    ui.constantsDock = w.panelDock(kConstantsPanel);
    ui.inputsDock = w.panelDock(kInputsPanel);
    ui.differencesDock = w.panelDock(kDifferencesPanel);
    ui.breakpointsDock = w.panelDock(kBreakpointsPanel);

    w.movePanel(kCallStackPanel, {Qt::BottomDockWidgetArea, {}, kInputsPanel});
    if (QDockWidget* stack = w.panelDock(kCallStackPanel)) stack->show();
    ui.weightsDock->raise();
    ui.tensorDock->raise();  // ahead of Differences and Breakpoints in its tab group
    if (QDockWidget* diagnostics = w.panelDock(kDiagnosticsPanel))
        w.resizeDocks({diagnostics, ui.weightsDock, ui.tensorDock}, {400, 480, 520}, Qt::Horizontal);
    else
        w.resizeDocks({ui.weightsDock, ui.tensorDock}, {560, 640}, Qt::Horizontal);
    w.resizeDocks({ui.weightsDock}, {300}, Qt::Vertical);
}

// The overlay choices, each carrying its exec::OverlayKind.
QComboBox* makeOverlayBox(QWidget* parent, DebugController* c) {
    auto* box = new QComboBox(parent);
    box->setObjectName(QStringLiteral("overlayBox"));
    auto add = [box](const QString& text, exec::OverlayKind kind) {
        box->addItem(text, QVariant::fromValue(static_cast<int>(kind)));
    };
    using K = exec::OverlayKind;
    for (K kind : {K::None, K::Time, K::MaxAbs, K::NanInf, K::Difference, K::ErrorMaxRel, K::ErrorMeanAbs, K::ErrorMse,
                   K::ErrorCosine, K::ErrorSqnr, K::Imported})
        add(QObject::tr("Overlay: %1").arg(overlayName(kind)), kind);
    box->setToolTip(
        QObject::tr("Colour the nodes by a number: time, max |x|, NaN/Inf, an error metric against "
                    "the reference (Differences dock), or node data imported from a file"));
    QObject::connect(box, &QComboBox::currentIndexChanged, c, [c, box] {
        const auto kind = static_cast<exec::OverlayKind>(box->currentData().toInt());
        c->checks()->setOverlay(kind);
    });
    // The controller may change it too (importing node data shows it).
    QObject::connect(c->checks(), &NumericChecks::overlayChanged, box, [c, box] {
        const QSignalBlocker block(box);
        box->setCurrentIndex(box->findData(static_cast<int>(c->checks()->overlay())));
    });
    return box;
}

void installWatchMenu(MainWindow& w, DebuggerUi& ui, QMenu* menu);

// The run actions in the Debug menu and toolbar (shortcuts work anywhere in the app).
void installRunActions(MainWindow& w, DebuggerUi& ui, QMenu* menu, QToolBar* bar) {
    DebugController* c = ui.controller;
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
    ui.stepAction =
        action(QObject::tr("Step Over"), QKeySequence(Qt::Key_F10),
               QObject::tr("Run the next node, or the whole closed module it is in"), &DebugController::stepOver);
    ui.stepIntoAction =
        action(QObject::tr("Step Into"), QKeySequence(Qt::Key_F11),
               QObject::tr("Open the closed module around the next node to run (runs nothing); else run one node"),
               &DebugController::stepInto);
    ui.stepOutAction = action(QObject::tr("Step Out"), QKeySequence(Qt::SHIFT | Qt::Key_F11),
                              QObject::tr("Run to the end of the Call Stack's top module"), &DebugController::stepOut);
    ui.runToAction = action(QObject::tr("Run to selected"), QKeySequence(Qt::CTRL | Qt::Key_F10),
                            QObject::tr("Run until the selected node is next (stops before it, as a breakpoint)"),
                            &DebugController::runToSelected);
    ui.breakpointAction = action(QObject::tr("Toggle breakpoint"), QKeySequence(Qt::Key_F9),
                                 QObject::tr("Stop before the selected node, or at the entry of the selected module"),
                                 &DebugController::toggleBreakpointAtSelection);
    ui.stopAction = action(QObject::tr("Stop"), QKeySequence(Qt::CTRL | Qt::Key_Pause),
                           QObject::tr("Stop the run before the next node"), &DebugController::stop);
    ui.resetAction =
        action(QObject::tr("Reset"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
               QObject::tr("Back to the first node; computed values are dropped"), &DebugController::reset);
    menu->addSeparator();
    bar->addSeparator();
    installWatchMenu(w, ui, menu);
    ui.divergenceAction = action(QObject::tr("First divergence"), QKeySequence(Qt::CTRL | Qt::Key_D),
                                 QObject::tr("Go to the first node whose output differs from the reference"),
                                 [checks = c->checks()] { checks->goToFirstDivergence(); });
    ui.stopAction->setEnabled(false);
}

// Watchpoints on every node: a checkable condition each, and max |x| above a
// limit asked for when checked.
void installWatchMenu(MainWindow& w, DebuggerUi& ui, QMenu* menu) {
    DebugController* c = ui.controller;
    auto* watch = menu->addMenu(QObject::tr("Watchpoints (every node)"));
    watch->setObjectName(QStringLiteral("watchMenu"));
    auto* nan = watch->addAction(QObject::tr("Break on NaN"));
    auto* inf = watch->addAction(QObject::tr("Break on Inf"));
    auto* diff = watch->addAction(QObject::tr("Break on difference from the reference"));
    auto* absMax = watch->addAction(QObject::tr("Break when max |x| exceeds…"));
    nan->setObjectName(QStringLiteral("watchNan"));
    inf->setObjectName(QStringLiteral("watchInf"));
    diff->setObjectName(QStringLiteral("watchDiff"));
    absMax->setObjectName(QStringLiteral("watchAbsMax"));
    diff->setToolTip(QObject::tr("Stops after the first node whose output fails the tolerance against the reference"));
    for (auto* a : {nan, inf, diff, absMax}) a->setCheckable(true);
    auto apply = [c, nan, inf, diff, absMax, &w] {
        exec::WatchCondition cond = c->checks()->globalWatch();
        cond.nan = nan->isChecked();
        cond.inf = inf->isChecked();
        cond.diff = diff->isChecked();
        if (!absMax->isChecked()) {
            cond.absMax.reset();
        } else if (!cond.absMax) {
            bool ok = false;
            const double v =
                QInputDialog::getDouble(&w, QObject::tr("Watch every node"),
                                        QObject::tr("Stop after a node whose max |x| exceeds:"), 1e4, 0, 1e300, 6, &ok);
            if (ok)
                cond.absMax = v;
            else
                absMax->setChecked(false);
        }
        c->checks()->setGlobalWatch(cond);
    };
    for (auto* a : {nan, inf, diff, absMax}) QObject::connect(a, &QAction::triggered, &w, apply);
    QObject::connect(c->checks(), &NumericChecks::watchesChanged, &w, [c, nan, inf, diff, absMax] {
        const exec::WatchCondition g = c->checks()->globalWatch();
        nan->setChecked(g.nan);
        inf->setChecked(g.inf);
        diff->setChecked(g.diff);
        absMax->setChecked(g.absMax.has_value());
        absMax->setText(g.absMax ? QObject::tr("Break when max |x| exceeds %1").arg(*g.absMax)
                                 : QObject::tr("Break when max |x| exceeds…"));
    });
}

// "Extract as runnable IR…" on a node (alone, with its neighbours, its
// module), a module box, or the nodes marked with Shift+click / Shift+drag:
// the cut and the values of this run at it.
void addExtractActions(MainWindow& w, DebugController* c, QMenu& menu, const ItemRef& ref) {
    const LoadedDocument* doc = c->session()->document();
    if (!doc || !c->hasDocument()) return;
    const auto* tree = c->session()->moduleTree();
    auto moduleNodes = [tree](int64_t m) {
        std::vector<int64_t> out;
        for (size_t i = 0; i < tree->nodeModules().size(); ++i)
            if (tree->isAncestorOrSelf(m, tree->moduleOfNode(static_cast<int64_t>(i))))
                out.push_back(static_cast<int64_t>(i));
        return out;
    };
    auto offer = [c, &w](QMenu* into, const QString& text, std::vector<int64_t> nodes, const QString& name) {
        QObject::connect(into->addAction(text), &QAction::triggered, c, [c, &w, nodes, name] {
            const QString path = QFileDialog::getSaveFileName(
                &w, QObject::tr("Extract as runnable IR"),
                dialogStart(DialogKind::Export, c->session()->filePath(), name + QStringLiteral(".json")),
                QObject::tr("torch_ir IR (*.json)"));
            rememberDialogFolder(DialogKind::Export, path);
            if (!path.isEmpty()) c->extract(nodes, path);
        });
    };
    // The marked nodes (Shift+click, Shift+drag), wherever the menu opens.
    if (const auto& marked = c->session()->selectionModel()->markedNodes(); !marked.empty()) {
        offer(&menu,
              QObject::tr("Extract the %n marked node(s) as runnable IR…", nullptr, static_cast<int>(marked.size())),
              marked, QStringLiteral("marked"));
        QObject::connect(menu.addAction(QObject::tr("Clear the marks")), &QAction::triggered, c->session(),
                         [c] { c->session()->selectionModel()->setMarked({}); });
        menu.addSeparator();
    }
    if (!(ref.isNode() || ref.isModule())) return;
    if (ref.isModule()) {
        if (!tree) return;
        const QString path = QString::fromStdString(tree->module(ref.index).path);
        offer(&menu, QObject::tr("Extract %1 as runnable IR…").arg(path), moduleNodes(ref.index), path);
        return;
    }
    auto* sub = menu.addMenu(QObject::tr("Extract as runnable IR"));
    sub->setObjectName(QStringLiteral("extractMenu"));
    const QString name = QString::fromStdString(doc->graph.nodes[static_cast<size_t>(ref.index)].name);
    offer(sub, QObject::tr("This node…"), {ref.index}, name);
    offer(sub, QObject::tr("With its neighbours (2 edges)…"),
          ir::selectNodesAround(*doc->index, doc->graph.nodes[static_cast<size_t>(ref.index)].name, 2),
          name + QStringLiteral("_around"));
    if (tree && tree->moduleOfNode(ref.index) > modules::kRootModule) {
        const auto m = tree->moduleOfNode(ref.index);
        const QString path = QString::fromStdString(tree->module(m).path);
        offer(sub, QObject::tr("Its module %1…").arg(path), moduleNodes(m), path);
    }
    menu.addSeparator();
}

// Edit and continue on a node's first output: replace it with the
// reference's value, a file's or typed text, and continue from there (the
// run comes back to where it was); clear it again.
void addOverrideActions(MainWindow& w, DebugController* c, QMenu& menu, const ItemRef& ref) {
    if (!ref.isNode() || !c->hasDocument()) return;
    const auto& outs = c->session()->document()->graph.nodes[static_cast<size_t>(ref.index)].outputs;
    if (outs.empty()) return;
    const QString tensor = QString::fromStdString(outs.front().name);
    auto* over = menu.addMenu(QObject::tr("Override output '%1'").arg(tensor));
    over->setObjectName(QStringLiteral("nodeOverrideMenu"));
    over->setEnabled(!c->isRunning());
    auto* fromRef = over->addAction(QObject::tr("With the reference's value"));
    fromRef->setEnabled(c->checks()->checking());
    QObject::connect(fromRef, &QAction::triggered, c,
                     [c, tensor] { c->overrideOutput(tensor, DebugController::OverrideSource::Reference); });
    QObject::connect(over->addAction(QObject::tr("From a file…")), &QAction::triggered, c, [c, tensor, &w] {
        const QString path = QFileDialog::getOpenFileName(&w, QObject::tr("Value of '%1'").arg(tensor),
                                                          dialogStart(DialogKind::Weights, c->session()->filePath()),
                                                          tensorFileFilter());
        if (!path.isEmpty()) c->overrideOutput(tensor, DebugController::OverrideSource::File, path);
    });
    QObject::connect(over->addAction(QObject::tr("Type a value…")), &QAction::triggered, c, [c, tensor, &w] {
        bool ok = false;
        const QString text =
            QInputDialog::getMultiLineText(&w, QObject::tr("Value of '%1'").arg(tensor),
                                           QObject::tr("A nested list, e.g. [[0.5, 1], [2, 3]]:"), QString(), &ok);
        if (ok && !text.trimmed().isEmpty()) c->overrideOutput(tensor, DebugController::OverrideSource::Text, text);
    });
    if (c->overridden().contains(tensor)) {
        over->addSeparator();
        QObject::connect(over->addAction(QObject::tr("Clear the override")), &QAction::triggered, c,
                         [c, tensor] { c->clearOverride(tensor); });
    }
}

// Right-click on a node: breakpoint, run to it, and what to watch on it.
void installNodeMenu(MainWindow& w, DebuggerUi& ui) {
    DebugController* c = ui.controller;
    GraphView* view = w.graphView();
    if (!view) return;
    view->addContextMenuHook([c, &w](QMenu& menu, const ItemRef& ref) {
        if (!ref.isNode() || !c->hasDocument()) return;
        const qint64 node = ref.index;
        auto* bp = menu.addAction(c->debugger()->hasBreakpoint(node) ? QObject::tr("Remove breakpoint")
                                                                     : QObject::tr("Set breakpoint (F9)"));
        QObject::connect(bp, &QAction::triggered, c, [c, node] { c->toggleBreakpoint(node); });
        auto* runTo = menu.addAction(QObject::tr("Run to here (Ctrl+F10)"));
        runTo->setEnabled(!c->isRunning());
        QObject::connect(runTo, &QAction::triggered, c, [c, node] { c->runToNode(node); });
        auto* watch = menu.addMenu(QObject::tr("Watch this node's output"));
        watch->setObjectName(QStringLiteral("nodeWatchMenu"));
        const auto all = c->checks()->watches();
        const auto it = all.find(node);
        const exec::WatchCondition cur = it == all.end() ? exec::WatchCondition{} : it->second;
        auto toggle = [&](const QString& text, bool on, auto change) {
            auto* a = watch->addAction(text);
            a->setCheckable(true);
            a->setChecked(on);
            QObject::connect(a, &QAction::triggered, c, [c, node, cur, change](bool checked) {
                exec::WatchCondition next = cur;
                change(next, checked);
                c->checks()->setWatch(node, next);
            });
            return a;
        };
        toggle(QObject::tr("NaN"), cur.nan, [](exec::WatchCondition& w2, bool on) { w2.nan = on; });
        toggle(QObject::tr("Inf"), cur.inf, [](exec::WatchCondition& w2, bool on) { w2.inf = on; });
        toggle(QObject::tr("Difference from the reference"), cur.diff,
               [](exec::WatchCondition& w2, bool on) { w2.diff = on; });
        auto* limit = watch->addAction(cur.absMax ? QObject::tr("max |x| above %1…").arg(*cur.absMax)
                                                  : QObject::tr("max |x| above…"));
        limit->setCheckable(true);
        limit->setChecked(cur.absMax.has_value());
        QObject::connect(limit, &QAction::triggered, c, [c, node, cur, &w](bool checked) {
            exec::WatchCondition next = cur;
            next.absMax.reset();
            if (checked) {
                bool ok = false;
                const double v = QInputDialog::getDouble(&w, QObject::tr("Watch this node"),
                                                         QObject::tr("Stop after it when its max |x| exceeds:"),
                                                         cur.absMax.value_or(1e4), 0, 1e300, 6, &ok);
                if (!ok) return;
                next.absMax = v;
            }
            c->checks()->setWatch(node, next);
        });
        if (cur.any()) {
            watch->addSeparator();
            QObject::connect(watch->addAction(QObject::tr("Stop watching")), &QAction::triggered, c,
                             [c, node] { c->checks()->setWatch(node, {}); });
        }
    });
    view->addContextMenuHook([c, &w](QMenu& menu, const ItemRef& ref) { addOverrideActions(w, c, menu, ref); });
    view->addContextMenuHook([c, &w](QMenu& menu, const ItemRef& ref) { addExtractActions(w, c, menu, ref); });
}

// Memory (retention), loading and saving values, the value docks' toggles.
void installValueMenus(MainWindow& w, DebuggerUi& ui, QMenu* menu) {
    DebugController* c = ui.controller;
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
    QObject::connect(freeAfter, &QAction::triggered, c,
                     [c] { c->setRetention(exec::RetentionPolicy::FreeAfterLastUse); });
    menu->addSeparator();
    auto* loadMenu = menu->addMenu(QObject::tr("Load"));
    // Each action finds its panel when used (the panels may be made after the menus).
    QObject::connect(loadMenu->addAction(QObject::tr("Weights…")), &QAction::triggered, &w, [&w] {
        if (auto* weights = w.panelAs<WeightsPanel>(kWeightsPanel)) weights->loadDialog();
    });
    QObject::connect(loadMenu->addAction(QObject::tr("Weights folder (sharded checkpoint)…")), &QAction::triggered, &w,
                     [&w] {
                         if (auto* weights = w.panelAs<WeightsPanel>(kWeightsPanel)) weights->loadFolderDialog();
                     });
    QObject::connect(loadMenu->addAction(QObject::tr("Constants…")), &QAction::triggered, &w, [&w] {
        if (auto* constants = w.panelAs<ConstantsPanel>(kConstantsPanel)) constants->loadDialog();
    });
    // What the Differences dock's hint names: the files a run is measured against.
    loadMenu->addSeparator();
    const std::pair<const char*, exec::ValueFile> runFiles[] = {
        {QT_TRANSLATE_NOOP("QObject", "Inputs…"), exec::ValueFile::Inputs},
        {QT_TRANSLATE_NOOP("QObject", "Expected outputs…"), exec::ValueFile::Expected},
        {QT_TRANSLATE_NOOP("QObject", "Reference intermediates…"), exec::ValueFile::ReferenceIntermediates}};
    for (const auto& [label, file] : runFiles) {
        auto* a = loadMenu->addAction(QObject::tr(label));
        QObject::connect(a, &QAction::triggered, &w, [&w, file = file] {
            if (auto* inputs = w.panelAs<InputsPanel>(kInputsPanel)) inputs->loadDialog(file);
        });
    }
    loadMenu->addSeparator();
    QObject::connect(menu->addAction(QObject::tr("Save entered constants…")), &QAction::triggered, &w, [&w] {
        if (auto* constants = w.panelAs<ConstantsPanel>(kConstantsPanel)) constants->saveDialog();
    });
    auto* importData = loadMenu->addAction(QObject::tr("Node data as an overlay (Model Explorer JSON)…"));
    importData->setObjectName(QStringLiteral("importNodeData"));
    QObject::connect(importData, &QAction::triggered, &w, [c, &w] {
        const QString path = QFileDialog::getOpenFileName(&w, QObject::tr("Import node data"),
                                                          dialogStart(DialogKind::NodeData, c->session()->filePath()),
                                                          QObject::tr("Node data (*.json);;All files (*)"));
        rememberDialogFolder(DialogKind::NodeData, path);
        if (!path.isEmpty()) c->checks()->importNodeData(path);
    });
}

void installMenus(MainWindow& w, DebuggerUi& ui) {
    // Before Help, which stays last (compare_ui.cpp puts Compare there too).
    auto* menu = new QMenu(QObject::tr("&Debug"), &w);
    w.menuBar()->insertMenu(w.helpMenu()->menuAction(), menu);
    auto* bar = w.addToolBar(QObject::tr("Debug"));
    bar->setObjectName(QStringLiteral("debugToolBar"));
    installRunActions(w, ui, menu, bar);
    ui.overlay = makeOverlayBox(bar, ui.controller);
    bar->addWidget(ui.overlay);
    menu->addSeparator();
    installValueMenus(w, ui, menu);
}

// Whenever a run pauses (a step, a breakpoint, a pre-flight stop, a failure)
// the next node is brought on screen, scrolled to only when it is not in view,
// as a debugger scrolls to the next statement; while a run goes on the view
// stays where the user put it. Go > Show Next Node (Alt+Num *, Visual
// Studio's key) goes to it at any time, opening the modules around it.
void followCurrentNode(MainWindow& w, const DebuggerUi& ui) {
    DebugController* c = ui.controller;
    auto shown = std::make_shared<int64_t>(0);  // a fresh run's node 0 is where the view starts anyway
    const auto paused = [c] { return !c->isRunning() && c->runCursor() >= 0 && c->runCursor() < c->nodeCount(); };
    QObject::connect(c, &DebugController::nodeStatesChanged, &w, [shown, c, &w, paused] {
        GraphView* view = w.graphView();
        if (!view || !paused() || c->runCursor() == *shown) return;
        *shown = c->runCursor();
        view->ensureVisible(ItemRef::node(*shown));
    });
    QObject::connect(c, &DebugController::debuggerReset, &w, [shown] { *shown = 0; });
    QObject::connect(ui.resetAction, &QAction::triggered, &w, [shown] { *shown = 0; });

    QMenu* go = w.goMenu();
    if (!go) return;
    go->addSeparator();
    auto* next = go->addAction(QObject::tr("Show Ne&xt Node"), &w, [c, &w, paused] {
        if (paused()) w.session()->selectionModel()->select(ItemRef::node(c->runCursor()), true);
    });
    next->setObjectName(QStringLiteral("showNextNodeAction"));
    next->setShortcuts({QKeySequence(QKeyCombination(Qt::AltModifier | Qt::KeypadModifier, Qt::Key_Asterisk)),
                        QKeySequence(Qt::ALT | Qt::Key_Asterisk)});
    next->setStatusTip(QObject::tr("Show the node the run will execute next"));
    const auto update = [next, paused] { next->setEnabled(paused()); };
    QObject::connect(c, &DebugController::nodeStatesChanged, next, update);
    QObject::connect(c, &DebugController::runStateChanged, next, update);
    QObject::connect(c, &DebugController::debuggerReset, next, update);
    update();
}

}  // namespace

DebuggerUi installDebugger(MainWindow& w) {
    DebuggerUi ui;
    ui.controller = new DebugController(w.session(), &w);
    // First of the controller's observers: the graph is decorated before the panels hear of a change.
    ui.decorator = new NodeDecorator(ui.controller, w.session(), ui.controller);
    installDocks(w, ui);
    installMenus(w, ui);
    installStatusBar(w, ui);
    connectRunState(w, ui);
    followCurrentNode(w, ui);
    installNodeMenu(w, ui);
    w.installEventFilter(new TensorFileDrop(ui.controller, &w));
    // Typed constants live only in the session until saved: quitting asks.
    DebugController* c = ui.controller;
    w.addCloseGuard({[c] { return c->unsavedWork(); },
                     [c, &w](std::function<void(bool)> done) {
                         // Edited tensors have no file to go to; typed constants do.
                         auto* constants = w.panelAs<ConstantsPanel>(kConstantsPanel);
                         if (!c->values()->constantsUnsaved() || !constants) return done(true);
                         constants->saveDialog(std::move(done));
                     }});
    if (!w.panelsDeferred()) attachDebuggerPanels(w, ui);
    return ui;
}

void attachDebuggerPanels(MainWindow& w, DebuggerUi& ui) {
    ui.weights = w.panelAs<WeightsPanel>(kWeightsPanel);
    ui.constants = w.panelAs<ConstantsPanel>(kConstantsPanel);
    ui.inputs = w.panelAs<InputsPanel>(kInputsPanel);
    ui.tensors = w.panelAs<TensorViewerArea>(kTensorPanel);
    ui.execInfo = w.panelAs<ExecInfoPanel>(kExecInfoSection);
    ui.missing = w.panelAs<MissingValuesPanel>(kMissingValuesSection);
    ui.differences = w.panelAs<DifferencesPanel>(kDifferencesPanel);
    ui.breakpoints = w.panelAs<BreakpointsPanel>(kBreakpointsPanel);
    connectMissingValues(w, ui);
}

}  // namespace irscope::widgets
