#pragma once
// MainWindow: menus, docks and the central graph view around one
// GraphSession. It wires panels to the session only (never to each other),
// and keeps geometry, dock layout and recent files in QSettings.
//
// Panels come through the registry (common/panel_registry.h): installPanels
// makes those a context allows, and they are found and arranged by PanelId
// (panelAs, panelDock, movePanel): the debugger and the comparison install
// theirs the same way, and the window's code names no panel.
#include <functional>
#include <vector>

#include <optional>

#include <QHash>
#include <QMainWindow>
#include <QStringList>

#include "widgets/common/panel_registry.h"
#include "widgets/main_window/panel_host.h"

class QAction;
class QDockWidget;
class QFileSystemWatcher;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QSplitter;
class QToolButton;

namespace irscope::widgets {

class BreadcrumbBar;
class GraphSession;
class GraphView;
class RecentFiles;
class TaskQueue;

// "150%", "2.5%", "0.034%" (main_window.cpp).
QString zoomText(double zoom);

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // `panelsAt`: when the panels are made (PanelHost): AfterFirstFrame places
    // their docks empty until makeDeferredPanels (the app's start).
    explicit MainWindow(QWidget* parent = nullptr, PanelsAt panelsAt = PanelsAt::Construction);
    ~MainWindow() override;

    GraphSession* session() const { return session_; }
    GraphView* graphView() const { return view_; }
    BreadcrumbBar* breadcrumbBar() const { return breadcrumbs_; }
    // Holds the graph view; a comparison adds the other graph's view beside it.
    QSplitter* viewSplitter() const { return viewSplitter_; }
    // The menu bar's Help menu, for parts that add their menus before it.
    QMenu* helpMenu() const { return helpMenu_; }
    QMenu* goMenu() const { return goMenu_; }
    QMenu* programMenu() const {
        return programMenu_;
    }  // File ▸ Program: an archive's programs  // the debugger adds Show Next Node
    // The bar above the view that reports load errors and on-disk changes.
    QString messageText() const;
    bool messageVisible() const;

    RecentFiles* recentFiles() const { return recent_; }

    // ---- closing with work the session would lose (Qt Creator's "save
    // changes before closing?"): each part that holds such work registers a
    // guard; closing the window lists what every guard says would be lost
    // and offers Save (each guard's save; Cancel there keeps the window),
    // Discard or Cancel.
    struct CloseGuard {
        std::function<QStringList()> unsaved;  // one line per thing lost; empty: nothing
        // Saves it, off the UI thread where it writes; `done(false)`: not
        // saved (cancelled or failed), and what was asked for does not happen.
        std::function<void(std::function<void(bool saved)> done)> save;
    };
    void addCloseGuard(CloseGuard guard);
    // Lists what the guards would lose and offers Save, Discard, Cancel.
    // True: go on now (nothing is lost, or the user discarded it). False:
    // cancelled, or being saved; then `afterSave` runs once every guard has
    // saved (it asks again, and finds nothing unsaved). Asked on Quit and
    // before another document replaces this one.
    bool confirmLosingWork(const QString& title, const QString& question, std::function<void()> afterSave);

    // ---- panels (hosted by PanelHost, panel_host.h)
    // Makes and places every registered panel not installed yet whose needs
    // `context` meets (its window and session are this window's). With
    // PanelsAt::AfterFirstFrame, until makeDeferredPanels, it places an empty
    // dock for each and makes the panel later.
    void installPanels(const PanelContext& context);
    // The panels whose docks wait empty (PanelsAt::AfterFirstFrame) are
    // made, one per turn of the event loop; then `done` runs, and from then
    // on installPanels makes panels at once. A panel shows the session as it
    // finds it when made (tests/widgets/test_panels_after_first_frame.cpp).
    // Called again meanwhile, its `done` waits for the same panels; for a
    // window whose panels are made, `done` runs at once.
    void makeDeferredPanels(std::function<void()> done = {});
    bool panelsDeferred() const;
    // A panel installed under `id` (nullptr when none); typed, for scripts and tests.
    QWidget* panel(PanelId id) const { return panels_->panel(id); }
    template <class T>
    T* panelAs(PanelId id) const {
        return qobject_cast<T*>(panel(id));
    }
    // An action that needs a document (enabled only while one is open).
    void addDocumentAction(QAction* action);
    // Puts `panel` in a new dock titled `title`, placed as `where` says; the
    // window owns both. Returns the dock (its toggle action is the caller's to offer).
    QDockWidget* addPanel(PanelId id, const QString& title, QWidget* panel, const PanelPlacement& where);
    // The dock of a panel added under `id`; nullptr when none.
    QDockWidget* panelDock(PanelId id) const;
    // Moves a panel's dock (e.g. the call stack under the graph, with the run's docks).
    void movePanel(PanelId id, const PanelPlacement& where);
    // Shows `section` above (Qt::TopEdge) or below (Qt::BottomEdge) the panel, in its dock.
    void addPanelSection(PanelId id, QWidget* section, Qt::Edge edge);

public slots:
    void openFile(const QString& path);
    void openDialog();
    void reload();
    // File ▸ Close (Ctrl+W): asks first when work would be lost, as Quit does.
    void closeDocument();
    // .svg, .png or .mmd by extension, drawn and written off the UI thread;
    // `done` (on the UI thread) says whether the file was written.
    void exportTo(const QString& path, std::function<void(bool written)> done = {});
    void showMessage(const QString& text, bool error, bool offerReload);
    // Takes the bar down if it reports an error: a later load succeeded (a
    // note that the file changed on disk stays).
    void clearError();

protected:
    void closeEvent(QCloseEvent*) override;
    void showEvent(QShowEvent*) override;
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;

private:
    void saveGuards(size_t first, std::function<void()> then);
    QWidget* buildCentralArea();
    void buildStatusBar();
    void connectSession();
    void buildActions();
    void buildViewMenu();
    void fillPanelsMenu(QMenu* menu);
    void buildGoMenu();
    void buildDocks();
    void restoreSavedPlaces();
    void restoreSettings();
    void saveSettings();
    void onGraphLoaded();
    void exportDialog(const QString& filter, const QString& suffix);
    void updateTitle();
    void updateInfo();
    void fillProgramMenu();

    GraphSession* session_;
    // Exports (File ▸ Export): drawn and written off the UI thread, one
    // after another; the same path asked for again replaces a waiting one.
    TaskQueue* exportLane_;
    GraphView* view_;
    BreadcrumbBar* breadcrumbs_;
    QSplitter* viewSplitter_;
    QMenu* helpMenu_ = nullptr;
    QMenu* goMenu_ = nullptr;
    QMenu* programMenu_ = nullptr;
    std::vector<CloseGuard> closeGuards_;
    bool dockPlacesRestored_ = false;
    bool viewStatesRestored_ = false;
    PanelHost* panels_;

    QWidget* messageBar_;
    QList<QAction*> documentActions_;  // enabled only while a graph is open
    bool messageIsError_ = false;
    QLabel* messageLabel_;
    QPushButton* messageReload_;
    QProgressBar* progress_;
    QToolButton* cancelButton_;
    QLabel* zoomLabel_;
    QLabel* infoLabel_;
    QAction* minimapAction_;
    QAction* weightsAction_;
    QAction* groupAction_;
    QFileSystemWatcher* watcher_;
    RecentFiles* recent_ = nullptr;
    QString loadingPath_;
};

}  // namespace irscope::widgets
