#include "widgets/main_window/main_window.h"

#include <algorithm>
#include <fstream>
#include <utility>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/export/mermaid.h"
#include "core/export/svg_export.h"
#include "widgets/common/dialog_folders.h"
#include "widgets/common/document_path.h"
#include "widgets/common/view_state.h"
#include "widgets/graph_view/breadcrumb_bar.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/graph_view/image_export.h"
#include "widgets/main_window/recent_files.h"
#include "widgets/main_window/shortcuts_dialog.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/task_queue.h"

namespace irscope::widgets {

// The status bar's zoom: whole percents from 10 % up, then two significant
// digits, so that Fit on a 100,000-node graph reads "0.034%", never "0.0%".
QString zoomText(double zoom) {
    const double pct = zoom * 100;
    if (pct >= 10) return QStringLiteral("%1%").arg(pct, 0, 'f', 0);
    if (pct >= 1) return QStringLiteral("%1%").arg(pct, 0, 'f', 1);
    return QStringLiteral("%1%").arg(QString::number(pct, 'g', 2));
}

namespace {}  // namespace

MainWindow::MainWindow(QWidget* parent, PanelsAt panelsAt) : QMainWindow(parent) {
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    session_ = new GraphSession(this);
    panels_ = new PanelHost(*this, *session_, panelsAt);
    exportLane_ = new TaskQueue(QThread::LowPriority, this);
    connect(exportLane_, &TaskQueue::failed, this,
            [this](const QString& message) { showMessage(tr("Export failed: %1").arg(message), true, false); });
    view_ = new GraphView(session_, this);
    setCentralWidget(buildCentralArea());
    buildStatusBar();
    connectSession();
    buildActions();
    buildDocks();  // after the menus: panels add actions to them
    restoreSettings();
    updateTitle();
    updateInfo();
}

MainWindow::~MainWindow() = default;

// A message bar (errors, "changed on disk"), the breadcrumbs, the view.
QWidget* MainWindow::buildCentralArea() {
    auto* central = new QWidget(this);
    messageBar_ = new QWidget(central);
    messageBar_->setObjectName(QStringLiteral("messageBar"));
    messageBar_->setAutoFillBackground(true);
    messageLabel_ = new QLabel(messageBar_);
    messageLabel_->setObjectName(QStringLiteral("messageLabel"));
    messageLabel_->setWordWrap(true);
    // Selectable and copyable (Ctrl+C, context menu): paths and commands are meant to be pasted.
    messageLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    messageReload_ = new QPushButton(tr("Reload"), messageBar_);
    auto* dismiss = new QToolButton(messageBar_);
    dismiss->setText(QStringLiteral("✕"));
    dismiss->setAutoRaise(true);
    dismiss->setToolTip(tr("Dismiss"));
    auto* barLayout = new QHBoxLayout(messageBar_);
    barLayout->setContentsMargins(8, 4, 4, 4);
    barLayout->addWidget(messageLabel_, 1);
    barLayout->addWidget(messageReload_);
    barLayout->addWidget(dismiss);
    messageBar_->hide();
    connect(dismiss, &QToolButton::clicked, messageBar_, &QWidget::hide);
    connect(messageReload_, &QPushButton::clicked, this, [this] {
        messageBar_->hide();
        reload();
    });
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(messageBar_);
    breadcrumbs_ = new BreadcrumbBar(session_, central);
    centralLayout->addWidget(breadcrumbs_);
    viewSplitter_ = new QSplitter(Qt::Horizontal, central);
    viewSplitter_->setObjectName(QStringLiteral("viewSplitter"));
    viewSplitter_->setChildrenCollapsible(false);
    viewSplitter_->addWidget(view_);
    centralLayout->addWidget(viewSplitter_, 1);
    return central;
}

// File info, zoom, load progress with Cancel.
void MainWindow::buildStatusBar() {
    infoLabel_ = new QLabel(this);
    infoLabel_->setObjectName(QStringLiteral("infoLabel"));
    infoLabel_->setMinimumWidth(1);  // the model's line is cut, it does not widen the window
    zoomLabel_ = new QLabel(this);
    zoomLabel_->setContentsMargins(12, 0, 4, 0);  // apart from a long model line cut beside it
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(220);
    progress_->setRange(0, 100);
    progress_->setTextVisible(true);
    cancelButton_ = new QToolButton(this);
    cancelButton_->setText(tr("Cancel"));
    statusBar()->addWidget(infoLabel_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancelButton_);
    statusBar()->addPermanentWidget(zoomLabel_);
    progress_->hide();
    cancelButton_->hide();
    connect(cancelButton_, &QToolButton::clicked, session_, &GraphSession::cancelLoad);
    connect(view_, &GraphView::zoomChanged, this, [this](double z) { zoomLabel_->setText(zoomText(z)); });
}

// Loading progress and outcome, and the file watcher that offers a reload.
void MainWindow::connectSession() {
    watcher_ = new QFileSystemWatcher(this);
    connect(watcher_, &QFileSystemWatcher::fileChanged, this, [this](const QString& path) {
        if (path != session_->filePath()) return;
        showMessage(tr("%1 changed on disk.").arg(QFileInfo(path).fileName()), false, true);
        // Editors often replace the file: watch the new one.
        QTimer::singleShot(200, this, [this, path] {
            if (QFileInfo::exists(path) && !watcher_->files().contains(path)) watcher_->addPath(path);
        });
    });
    connect(session_, &GraphSession::loadStarted, this, [this](const QString& path) {
        loadingPath_ = path;
        progress_->setValue(0);
        progress_->setFormat(tr("Opening %p%"));
        progress_->show();
        cancelButton_->show();
        infoLabel_->setText(tr("Opening %1…").arg(QFileInfo(path).fileName()));
    });
    connect(session_, &GraphSession::loadProgress, this, [this](int percent, const QString& stage) {
        progress_->setValue(percent);
        progress_->setFormat(stage + QStringLiteral(" %p%"));
    });
    auto endProgress = [this] {
        progress_->hide();
        cancelButton_->hide();
    };
    connect(session_, &GraphSession::loadFailed, this,
            [this, endProgress](const QString& path, const QString& message) {
                endProgress();
                showMessage(tr("Could not open %1: %2").arg(QFileInfo(path).fileName(), message), true, false);
                updateInfo();
                updateTitle();
            });
    connect(session_, &GraphSession::loadCancelled, this, [this, endProgress] {
        endProgress();
        statusBar()->showMessage(tr("Opening cancelled"), 4000);
        updateInfo();
        updateTitle();
    });
    connect(session_, &GraphSession::graphLoaded, this, [this, endProgress] {
        endProgress();
        onGraphLoaded();
    });
    connect(session_, &GraphSession::layoutBusy, this, [this](bool busy) {
        if (busy)
            statusBar()->showMessage(tr("Laying out…"));
        else
            statusBar()->clearMessage();
    });
}

// ------------------------------------------------------------------ panels

QDockWidget* MainWindow::addPanel(PanelId id, const QString& title, QWidget* panel, const PanelPlacement& where) {
    return panels_->addPanel(id, title, panel, where);
}

QDockWidget* MainWindow::panelDock(PanelId id) const { return panels_->dock(id); }

void MainWindow::movePanel(PanelId id, const PanelPlacement& where) { panels_->move(id, where); }

void MainWindow::addPanelSection(PanelId id, QWidget* section, Qt::Edge edge) {
    panels_->addSection(id, section, edge);
}

// The panels that need only the session (Properties, Search, Op statistics,
// Modules, Call Stack, Diagnostics: each registers itself from its own file),
// then the arrangement around them: the graph gets the whole width, every
// dock shares the right column (Search is raised by Ctrl+F) like Qt
// Creator's side bar, and Diagnostics sits below.
void MainWindow::buildDocks() {
    installPanels({this, session_, nullptr, nullptr});
    if (QDockWidget* properties = panelDock(kPropertiesPanel)) {
        properties->raise();
        resizeDocks({properties}, {400}, Qt::Horizontal);
    }
    if (QDockWidget* diagnostics = panelDock(kDiagnosticsPanel)) resizeDocks({diagnostics}, {140}, Qt::Vertical);
}

void MainWindow::installPanels(const PanelContext& context) { panels_->install(context); }

void MainWindow::makeDeferredPanels(std::function<void()> done) {
    panels_->makeDeferred([this, done = std::move(done)] {
        if (isVisible()) restoreSavedPlaces();
        if (done) done();
    });
}

bool MainWindow::panelsDeferred() const { return panels_->deferred(); }

void MainWindow::addDocumentAction(QAction* action) {
    documentActions_ << action;
    action->setEnabled(session_->document() != nullptr);
}

void MainWindow::buildActions() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this,
                                 &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(recent_, &RecentFiles::openRequested, this, &MainWindow::openFile);
    // A torch.export archive holding several programs: which one is shown.
    programMenu_ = file->addMenu(tr("&Program"));
    programMenu_->setEnabled(false);
    connect(recent_, &RecentFiles::vanished, this, [this](const QString& path) {
        showMessage(tr("%1 is no longer there; it was taken off the recent files.").arg(path), true, false);
    });
    auto* reloadAction = file->addAction(tr("&Reload"), this, &MainWindow::reload);
    reloadAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    documentActions_ << reloadAction;
    auto* closeAction = file->addAction(tr("&Close"), this, &MainWindow::closeDocument);
    closeAction->setObjectName(QStringLiteral("closeDocumentAction"));
    closeAction->setShortcut(QKeySequence::Close);
    documentActions_ << closeAction;
    file->addSeparator();
    documentActions_ << file->addAction(tr("Export as &SVG…"), this, [this] {
        exportDialog(tr("SVG image (*.svg)"), QStringLiteral("svg"));
    }) << file->addAction(tr("Export as &PNG…"), this, [this] {
        exportDialog(tr("PNG image (*.png)"), QStringLiteral("png"));
    }) << file->addAction(tr("Export as &Mermaid…"), this, [this] {
        exportDialog(tr("Mermaid flowchart (*.mmd *.md)"), QStringLiteral("mmd"));
    });
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    buildViewMenu();
    buildGoMenu();

    auto* help = helpMenu_ = menuBar()->addMenu(tr("&Help"));
    auto* keys = help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showShortcuts(*this); });
    keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    help->addSeparator();
    help->addAction(tr("&About irscope"), this, [this] {
        showMessage(tr("irscope %1: inspect, run and debug torch_ir graphs.").arg(QApplication::applicationVersion()),
                    false, false);
    });
}

void MainWindow::buildViewMenu() {
    auto* viewMenu = menuBar()->addMenu(tr("&View"));
    auto* zin = viewMenu->addAction(tr("Zoom &In"), view_, &GraphView::zoomIn);
    zin->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    auto* zout = viewMenu->addAction(tr("Zoom &Out"), view_, &GraphView::zoomOut);
    zout->setShortcut(QKeySequence::ZoomOut);
    // Ctrl+0: readable from the top (a tall graph scrolls); Fit to Window:
    // the whole drawing, at whatever zoom it takes.
    auto* readable = viewMenu->addAction(tr("&Readable View"), view_, &GraphView::showReadableFromTheTop);
    readable->setObjectName(QStringLiteral("readableViewAction"));
    readable->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    auto* fit = viewMenu->addAction(tr("&Fit to Window"), view_, &GraphView::fitToWindow);
    fit->setObjectName(QStringLiteral("fitAction"));
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_0));
    auto* actual = viewMenu->addAction(tr("&Actual Size"), view_, &GraphView::actualSize);
    actual->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));  // Ctrl+1..9: recent files
    documentActions_ << zin << zout << readable << fit << actual;
    viewMenu->addSeparator();
    minimapAction_ = viewMenu->addAction(tr("&Minimap"));
    minimapAction_->setCheckable(true);
    minimapAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    connect(minimapAction_, &QAction::toggled, view_, &GraphView::setMinimapVisible);
    weightsAction_ = viewMenu->addAction(tr("Show &Weights, Buffers and Constants"));
    weightsAction_->setCheckable(true);
    weightsAction_->setChecked(session_->showWeights());
    weightsAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    connect(weightsAction_, &QAction::toggled, session_, &GraphSession::setShowWeights);
    connect(session_, &GraphSession::showWeightsChanged, weightsAction_, &QAction::setChecked);
    viewMenu->addSeparator();
    groupAction_ = viewMenu->addAction(tr("&Group by Module"));
    groupAction_->setCheckable(true);
    groupAction_->setChecked(session_->groupByModule());
    groupAction_->setToolTip(tr("Draw modules as boxes and frames (inferred from weight names); off: every op"));
    connect(groupAction_, &QAction::toggled, session_, &GraphSession::setGroupByModule);
    connect(session_, &GraphSession::groupByModuleChanged, groupAction_, &QAction::setChecked);
    auto* depthMenu = viewMenu->addMenu(tr("&Expand Modules"));
    depthMenu->addAction(tr("First View (one level)"), this, [this] { session_->expandModulesToDepth(-1); });
    for (int depth = 1; depth <= 4; ++depth)
        depthMenu->addAction(tr("To Depth %1").arg(depth), this,
                             [this, depth] { session_->expandModulesToDepth(depth); });
    auto* all = depthMenu->addAction(tr("All"), this, [this] { session_->expandAllModules(); });
    all->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Plus));
    connect(groupAction_, &QAction::toggled, depthMenu, &QMenu::setEnabled);
    documentActions_ << depthMenu->actions();
    viewMenu->addSeparator();
    // Every dock in one place, the debugger's and the comparison's too: the
    // list is made when the menu opens, from the docks the window has then.
    auto* panels = viewMenu->addMenu(tr("&Panels"));
    panels->setObjectName(QStringLiteral("panelsMenu"));
    connect(panels, &QMenu::aboutToShow, this, [this, panels] { fillPanelsMenu(panels); });
}

void MainWindow::fillPanelsMenu(QMenu* menu) {
    menu->clear();
    QList<QDockWidget*> docks = findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly);
    std::sort(docks.begin(), docks.end(), [](QDockWidget* a, QDockWidget* b) {
        return QString::localeAwareCompare(a->windowTitle(), b->windowTitle()) < 0;
    });
    for (QDockWidget* dock : docks) {
        // Its title may carry counts ("Diagnostics (2 errors, …)"): the name before them.
        QString title = dock->windowTitle().section(QLatin1String(" ("), 0, 0);
        title.replace(QLatin1Char('&'), QLatin1String("&&"));
        QAction* a = menu->addAction(title);
        a->setCheckable(true);
        a->setChecked(dock->isVisible());
        connect(a, &QAction::triggered, dock, [dock](bool on) {
            if (!on) {
                dock->hide();
                return;
            }
            dock->show();
            dock->raise();  // in a tab group, shown is not enough: bring its tab to the front
        });
    }
}

void MainWindow::buildGoMenu() {
    // Find, Find Next and Find Previous come first: the Search panel adds them.
    auto* go = goMenu_ = menuBar()->addMenu(tr("&Go"));
    auto* up = go->addAction(tr("Go to &Producer"), session_->selectionModel(), &GraphSelection::walkToProducer);
    up->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Up));
    auto* down = go->addAction(tr("Go to &Consumer"), session_->selectionModel(), &GraphSelection::walkToConsumer);
    down->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Down));
    documentActions_ << up << down;
}

// ------------------------------------------------------------------ files

void MainWindow::openDialog() {
    const QString beside = session_->hasDocument()      ? session_->filePath()
                           : recent_->files().isEmpty() ? QString()
                                                        : recent_->files().front();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open torch_ir graph"), dialogStart(DialogKind::Ir, beside),
        tr("Graphs (*.json *.pt2);;torch_ir JSON (*.json);;torch.export archive (*.pt2);;All files (*)"));
    rememberDialogFolder(DialogKind::Ir, path);
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::openFile(const QString& path) {
    // Another document replaces this session's work: ask first, as Quit does
    // (reopening the same file keeps it, so it asks nothing).
    if (session_->hasDocument() && canonicalDocumentPath(path) != canonicalDocumentPath(session_->filePath()) &&
        !confirmLosingWork(tr("Open %1").arg(QFileInfo(path).fileName()),
                           tr("Save it before opening %1?").arg(QFileInfo(path).fileName()),
                           [this, path] { openFile(path); }))
        return;
    messageBar_->hide();
    session_->openFile(QFileInfo(path).absoluteFilePath());
}

void MainWindow::closeDocument() {
    if (!session_->hasDocument()) return;
    if (!confirmLosingWork(tr("Close %1").arg(QFileInfo(session_->filePath()).fileName()),
                           tr("Save it before closing?"), [this] { closeDocument(); }))
        return;
    messageBar_->hide();
    session_->closeDocument();
}

void MainWindow::reload() {
    if (session_->hasDocument()) openFile(session_->filePath());
}

void MainWindow::onGraphLoaded() {
    const QString path = session_->filePath();
    if (!watcher_->files().isEmpty()) watcher_->removePaths(watcher_->files());
    if (!path.isEmpty() && documentExists(path)) watcher_->addPath(documentFile(path));
    if (!path.isEmpty()) recent_->add(path);
    fillProgramMenu();
    messageBar_->hide();
    updateInfo();
    updateTitle();
}

void MainWindow::fillProgramMenu() {
    qDeleteAll(programMenu_->findChildren<QActionGroup*>(Qt::FindDirectChildrenOnly));
    programMenu_->clear();
    const auto* doc = session_->document();
    const auto& programs = doc ? doc->graph.archivePrograms : std::vector<std::string>{};
    programMenu_->setEnabled(programs.size() > 1);
    if (programs.size() < 2) return;
    const QString file = documentFile(session_->filePath());
    auto* group = new QActionGroup(programMenu_);
    for (const std::string& name : programs) {
        QString label = QString::fromStdString(name);
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        auto* a = programMenu_->addAction(label);
        a->setCheckable(true);
        a->setChecked(name == doc->graph.archiveProgram);
        group->addAction(a);
        const QString target = QString::fromStdString(ir::joinArchivePath(file.toStdString(), name));
        connect(a, &QAction::triggered, this, [this, target] { openFile(target); });
    }
}

void MainWindow::updateInfo() {
    const auto* doc = session_->document();
    // Without a graph there is nothing to zoom, export, find or reload.
    for (QAction* a : documentActions_) a->setEnabled(doc != nullptr);
    if (!doc) {
        infoLabel_->clear();
        return;
    }
    // Nodes and weights only: the drawing's rows (its layout levels) read as
    // the model's layers ("6 layers" for a 61-layer MoE).
    infoLabel_->setText(tr("%1 — %2 nodes, %3 weights")
                            .arg(QString::fromStdString(doc->graph.modelName))
                            .arg(doc->graph.nodes.size())
                            .arg(doc->graph.weights.size()));
}

void MainWindow::updateTitle() {
    const QString path = session_->filePath();
    const QString model =
        session_->document() ? QString::fromStdString(session_->document()->graph.modelName) : QString();
    // "TinyLlama — model.json — irscope": the model first, as users name it.
    if (path.isEmpty())
        setWindowTitle(QStringLiteral("irscope"));
    else if (model.isEmpty())
        setWindowTitle(QStringLiteral("%1 — irscope").arg(QFileInfo(path).fileName()));
    else
        setWindowTitle(QStringLiteral("%1 — %2 — irscope").arg(model, QFileInfo(path).fileName()));
    setWindowFilePath(path);
}

void MainWindow::showMessage(const QString& text, bool error, bool offerReload) {
    messageLabel_->setText(text);
    messageIsError_ = error;
    messageReload_->setVisible(offerReload);
    QPalette pal = messageBar_->palette();
    const bool dark = palette().color(QPalette::Window).lightness() < 110;
    pal.setColor(QPalette::Window, error ? (dark ? QColor("#5a1f1f") : QColor("#fde2e1"))
                                         : (dark ? QColor("#4a4220") : QColor("#fff4cc")));
    pal.setColor(QPalette::WindowText, dark ? QColor("#f0f0f0") : QColor("#1a1a1a"));
    messageBar_->setPalette(pal);
    messageBar_->show();
}

void MainWindow::clearError() {
    if (messageIsError_) messageBar_->hide();
}

QString MainWindow::messageText() const { return messageLabel_->text(); }
bool MainWindow::messageVisible() const { return !messageBar_->isHidden(); }

void MainWindow::exportDialog(const QString& filter, const QString& suffix) {
    if (!session_->hasDocument()) return;
    const QFileInfo src(session_->filePath());
    const QString suggested =
        src.absolutePath() + QLatin1Char('/') + src.completeBaseName() + QLatin1Char('.') + suffix;
    const QString remembered = dialogStart(DialogKind::Export, session_->filePath());
    const QString start = remembered.isEmpty()
                              ? suggested
                              : QDir(remembered).filePath(src.completeBaseName() + QLatin1Char('.') + suffix);
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), start, filter);
    rememberDialogFolder(DialogKind::Export, path);
    if (!path.isEmpty()) exportTo(path);
}

void MainWindow::exportTo(const QString& path, std::function<void(bool written)> done) {
    const auto doc = session_->documentPtr();
    const auto lay = session_->layoutPtr();
    if (!doc || !lay) {
        if (done) done(false);
        return;
    }
    const QString ext = QFileInfo(path).suffix().toLower();
    const bool weights = session_->showWeights();
    // Drawn and written on a worker: a 100,000-node drawing takes seconds.
    // The document and its layout are immutable and shared; the image is a
    // QImage, which a worker may paint.
    statusBar()->showMessage(tr("Exporting %1…").arg(QFileInfo(path).fileName()));
    exportLane_->post(QStringLiteral("export:") + path, this,
                      [this, doc, lay, ext, weights, path,
                       done = std::move(done)](const TaskQueue::Context&) -> TaskQueue::Continuation {
                          bool ok = false;
                          if (ext == QLatin1String("png")) {
                              ok = renderLayoutImage(*lay, clampExportScale(*lay, 1.0)).save(path, "PNG");
                          } else {
                              std::string text;
                              if (ext == QLatin1String("svg")) {
                                  text = exporter::layoutToSvg(lay->result);
                              } else {
                                  exporter::MermaidOptions mo;
                                  mo.maxNodes = static_cast<int>(doc->graph.nodes.size());
                                  mo.includeWeights = weights;
                                  text = exporter::graphToMermaid(doc->graph, mo) + "\n";
                              }
                              QSaveFile f(path);
                              ok = f.open(QIODevice::WriteOnly) &&
                                   f.write(text.data(), static_cast<qint64>(text.size())) ==
                                       static_cast<qint64>(text.size()) &&
                                   f.commit();
                          }
                          // On the UI thread, and only while this window lives (the lane is its child).
                          return [this, ok, path, done] {
                              if (ok)
                                  statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
                              else
                                  showMessage(tr("Could not write %1").arg(path), true, false);
                              if (done) done(ok);
                          };
                      });
}

// ------------------------------------------------------------------ settings, drops

void MainWindow::restoreSettings() {
    QSettings s;
    recent_->load();
    if (!restoreGeometry(s.value(QStringLiteral("mainWindow/geometry")).toByteArray())) resize(1400, 900);
    // The docks' places: on the first show (showEvent), once the debugger
    // and the comparison have added theirs; restored here, their docks
    // would not exist yet and keep their default places.
    minimapAction_->setChecked(s.value(QStringLiteral("view/minimap"), true).toBool());
    view_->setMinimapVisible(minimapAction_->isChecked());
    session_->setShowWeights(s.value(QStringLiteral("view/showWeights"), true).toBool());
    session_->setGroupByModule(s.value(QStringLiteral("view/groupByModule"), true).toBool());
}

void MainWindow::saveSettings() {
    QSettings s;
    s.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    s.setValue(QStringLiteral("mainWindow/state"), saveState());
    s.setValue(QStringLiteral("view/minimap"), minimapAction_->isChecked());
    s.setValue(QStringLiteral("view/showWeights"), session_->showWeights());
    s.setValue(QStringLiteral("view/groupByModule"), session_->groupByModule());
    recent_->save();
    saveViewStates(*this, s);
}

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    restoreSavedPlaces();
}

// The first time only, once every part has added its panels: the docks'
// places, and the views' columns and splitters once the panels are made.
void MainWindow::restoreSavedPlaces() {
    if (dockPlacesRestored_ && viewStatesRestored_) return;
    QSettings s;
    if (!std::exchange(dockPlacesRestored_, true))
        restoreState(s.value(QStringLiteral("mainWindow/state")).toByteArray());
    if (!panels_->deferred() && !std::exchange(viewStatesRestored_, true)) restoreViewStates(*this, s);
}

void MainWindow::addCloseGuard(CloseGuard guard) { closeGuards_.push_back(std::move(guard)); }

bool MainWindow::confirmLosingWork(const QString& title, const QString& question, std::function<void()> afterSave) {
    QStringList lost;
    for (const auto& g : closeGuards_) lost << g.unsaved();
    if (lost.isEmpty()) return true;
    QMessageBox box(QMessageBox::Warning, title, tr("This session holds work that is in no file yet:"),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("unsavedWorkBox"));
    box.setInformativeText(QStringLiteral("• ") + lost.join(QStringLiteral("\n• ")) + QStringLiteral("\n\n") +
                           question);
    box.setStandardButtons(QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Save);
    const int answer = box.exec();
    if (answer == QMessageBox::Discard) return true;
    if (answer == QMessageBox::Save) saveGuards(0, std::move(afterSave));
    return false;
}

// Saves guard `first` and the ones after it, one at a time (each may write
// off the UI thread), then runs `then`; a guard not saved stops the chain.
void MainWindow::saveGuards(size_t first, std::function<void()> then) {
    while (first < closeGuards_.size() && closeGuards_[first].unsaved().isEmpty()) ++first;
    if (first == closeGuards_.size()) {
        if (then) then();
        return;
    }
    closeGuards_[first].save([this, first, then = std::move(then)](bool saved) mutable {
        if (saved) saveGuards(first + 1, std::move(then));
    });
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (!confirmLosingWork(tr("Quit irscope"), tr("Save it before quitting?"), [this] { close(); })) {
        e->ignore();
        return;
    }
    saveSettings();
    QMainWindow::closeEvent(e);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls() && !e->mimeData()->urls().isEmpty() && e->mimeData()->urls().front().isLocalFile())
        e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const auto urls = e->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) {
        openFile(urls.front().toLocalFile());
        e->acceptProposedAction();
    }
}

}  // namespace irscope::widgets
