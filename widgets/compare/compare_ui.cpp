#include "widgets/compare/compare_ui.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QSplitter>
#include <QTimer>

#include "widgets/compare/changes_panel.h"
#include "widgets/compare/compare_pane.h"
#include "widgets/compare/compare_session.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

namespace {

QString folderOf(const QString& path) { return path.isEmpty() ? QString() : QFileInfo(path).absolutePath(); }

void buildActions(MainWindow& w, CompareUi& ui, DebugController* controller) {
    CompareSession* compare = ui.session;
    ui.compareAction = new QAction(QObject::tr("Compare &With…"), &w);
    ui.compareAction->setObjectName(QStringLiteral("compareWith"));
    ui.compareAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+O")));
    ui.compareAction->setStatusTip(QObject::tr("Open a second IR beside this one and show what changed"));
    QObject::connect(ui.compareAction, &QAction::triggered, &w, [&w, compare] {
        const QString path = QFileDialog::getOpenFileName(
            &w, QObject::tr("Compare with"), folderOf(w.session()->filePath()),
            QObject::tr("Graphs (*.json *.pt2);;torch_ir JSON (*.json);;torch.export archive (*.pt2);;All files (*)"));
        if (!path.isEmpty()) compare->open(path);
    });
    ui.closeAction = new QAction(QObject::tr("&Close Comparison"), &w);
    QObject::connect(ui.closeAction, &QAction::triggered, compare, &CompareSession::close);
    ui.nextAction = new QAction(QObject::tr("&Next Change"), &w);
    ui.nextAction->setShortcut(QKeySequence(Qt::Key_F8));
    QObject::connect(ui.nextAction, &QAction::triggered, compare, [compare] { compare->goToChange(1); });
    ui.previousAction = new QAction(QObject::tr("&Previous Change"), &w);
    ui.previousAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F8));
    QObject::connect(ui.previousAction, &QAction::triggered, compare, [compare] { compare->goToChange(-1); });
    ui.stackedAction = new QAction(QObject::tr("&Stacked (B under A)"), &w);
    ui.stackedAction->setCheckable(true);
    QObject::connect(ui.stackedAction, &QAction::toggled, &w,
                     [&w](bool stacked) { w.viewSplitter()->setOrientation(stacked ? Qt::Vertical : Qt::Horizontal); });
    ui.dimAction = new QAction(QObject::tr("&Dim Unchanged Nodes"), &w);
    ui.dimAction->setCheckable(true);
    QObject::connect(ui.dimAction, &QAction::toggled, compare, &CompareSession::setDimUnchanged);
    ui.syncAction = new QAction(QObject::tr("Sync &Viewports"), &w);
    ui.syncAction->setCheckable(true);
    ui.syncAction->setChecked(true);
    QObject::connect(ui.syncAction, &QAction::toggled, ui.pane, &ComparePane::setSyncViewports);
    ui.valuesAction = new QAction(QObject::tr("Use B's &Values as the Reference…"), &w);
    ui.valuesAction->setStatusTip(
        QObject::tr("Load a dump of B's run (irscope run B --dump FILE): A's run is checked against it node for node"));
    QObject::connect(ui.valuesAction, &QAction::triggered, &w, [&w, compare, controller] {
        if (!controller || !compare->hasDiff()) return;
        const QString path = QFileDialog::getOpenFileName(
            &w, QObject::tr("Values of B's run"), folderOf(compare->pathB()),
            QObject::tr("Tensor files (*.safetensors *.pt *.pth *.bin *.npy);;All files (*)"));
        if (path.isEmpty()) return;
        controller->values()->loadRenamedReference(path, compare->tensorNamesBToA());
    });

    auto* fileMenu = w.menuBar()->actions().isEmpty() ? nullptr : w.menuBar()->actions().first()->menu();
    if (fileMenu && fileMenu->actions().size() > 1) fileMenu->insertAction(fileMenu->actions()[1], ui.compareAction);
    auto* menu = new QMenu(QObject::tr("&Compare"), &w);
    menu->addAction(ui.compareAction);
    menu->addAction(ui.closeAction);
    menu->addSeparator();
    menu->addAction(ui.nextAction);
    menu->addAction(ui.previousAction);
    menu->addSeparator();
    menu->addAction(ui.stackedAction);
    menu->addAction(ui.dimAction);
    menu->addAction(ui.syncAction);
    menu->addAction(ui.changesDock->toggleViewAction());
    menu->addSeparator();
    menu->addAction(ui.valuesAction);
    if (QMenu* help = w.helpMenu())
        w.menuBar()->insertMenu(help->menuAction(), menu);
    else
        w.menuBar()->addMenu(menu);
}

void setEnabled(CompareUi& ui) {
    const bool open = ui.session->isOpen();
    const bool ready = ui.session->hasDiff();
    ui.closeAction->setEnabled(open);
    ui.nextAction->setEnabled(ready);
    ui.previousAction->setEnabled(ready);
    ui.valuesAction->setEnabled(ready);
}

}  // namespace

void attachComparePanels(MainWindow& w, CompareUi& ui) { ui.changes = w.panelAs<ChangesPanel>(kChangesPanel); }

CompareUi installCompare(MainWindow& w, DebugController* controller) {
    CompareUi ui;
    ui.session = new CompareSession(w.session(), &w);
    ui.pane = new ComparePane(ui.session, w.graphView(), w.viewSplitter());
    w.viewSplitter()->addWidget(ui.pane);
    ui.pane->hide();
    w.installPanels({&w, w.session(), controller, ui.session});  // the Changes dock (changes_panel.cpp)
    attachComparePanels(w, ui);
    ui.changesDock = w.panelDock(kChangesPanel);
    ui.changesDock->hide();
    buildActions(w, ui, controller);
    setEnabled(ui);

    CompareSession* compare = ui.session;
    QObject::connect(compare, &CompareSession::opened, &w, [&w, pane = ui.pane, dock = ui.changesDock] {
        pane->show();
        dock->show();
        dock->raise();
        // Once the dock has taken its room: the list readable, A and B halves of what is left.
        QTimer::singleShot(0, &w, [&w, dock] {
            w.resizeDocks({dock}, {380}, Qt::Horizontal);
            QSplitter* split = w.viewSplitter();
            const int half =
                std::max(1, (split->orientation() == Qt::Horizontal ? split->width() : split->height()) / 2);
            split->setSizes({half, half});
        });
    });
    QObject::connect(compare, &CompareSession::closed, &w, [pane = ui.pane, dock = ui.changesDock] {
        pane->hide();
        dock->hide();
    });
    QObject::connect(ui.pane, &ComparePane::closeRequested, compare, &CompareSession::close);
    QObject::connect(compare, &CompareSession::failed, &w,
                     [&w](const QString& message) { w.showMessage(message, /*error=*/true, /*offerReload=*/false); });
    QObject::connect(compare, &CompareSession::opened, &w, [ui]() mutable { setEnabled(ui); });
    QObject::connect(compare, &CompareSession::closed, &w, [ui]() mutable { setEnabled(ui); });
    QObject::connect(compare, &CompareSession::diffReady, &w, [ui]() mutable { setEnabled(ui); });
    return ui;
}

}  // namespace irscope::widgets
