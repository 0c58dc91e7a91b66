#pragma once
// MainWindow: menus, docks and the central graph view around one
// GraphSession. It wires panels to the session only (never to each other),
// and keeps geometry, dock layout and recent files in QSettings.
#include <QMainWindow>
#include <QStringList>

class QAction;
class QDockWidget;
class QFileSystemWatcher;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QToolButton;

namespace irscope::widgets {

class BreadcrumbBar;
class CallStackPanel;
class DiagnosticsPanel;
class ModulesPanel;
class GraphSession;
class GraphView;
class OpStatsPanel;
class PropertiesPanel;
class SearchPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    GraphSession* session() const { return session_; }
    GraphView* graphView() const { return view_; }
    PropertiesPanel* propertiesPanel() const { return properties_; }
    SearchPanel* searchPanel() const { return search_; }
    DiagnosticsPanel* diagnosticsPanel() const { return diagnostics_; }
    OpStatsPanel* opStatsPanel() const { return opStats_; }
    ModulesPanel* modulesPanel() const { return modules_; }
    CallStackPanel* callStackPanel() const { return callStack_; }
    QDockWidget* callStackDock() const { return callStackDock_; }
    BreadcrumbBar* breadcrumbBar() const { return breadcrumbs_; }
    // The bar above the view that reports load errors and on-disk changes.
    QString messageText() const;
    bool messageVisible() const;

    static constexpr int kMaxRecent = 10;

public slots:
    void openFile(const QString& path);
    void openDialog();
    void reload();
    bool exportTo(const QString& path);   // .svg, .png or .mmd by extension
    void showMessage(const QString& text, bool error, bool offerReload);

protected:
    void closeEvent(QCloseEvent*) override;
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;

private:
    void buildActions();
    void buildDocks();
    void restoreSettings();
    void saveSettings();
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void onGraphLoaded();
    void exportDialog(const QString& filter, const QString& suffix);
    void updateTitle();
    void updateInfo();

    GraphSession* session_;
    GraphView* view_;
    PropertiesPanel* properties_;
    SearchPanel* search_;
    DiagnosticsPanel* diagnostics_;
    OpStatsPanel* opStats_;
    ModulesPanel* modules_;
    CallStackPanel* callStack_;
    BreadcrumbBar* breadcrumbs_;
    QDockWidget* propertiesDock_;
    QDockWidget* searchDock_;
    QDockWidget* diagnosticsDock_;
    QDockWidget* opStatsDock_;
    QDockWidget* modulesDock_;
    QDockWidget* callStackDock_;

    QWidget* messageBar_;
    QLabel* messageLabel_;
    QPushButton* messageReload_;
    QProgressBar* progress_;
    QToolButton* cancelButton_;
    QLabel* zoomLabel_;
    QLabel* infoLabel_;
    QMenu* recentMenu_;
    QAction* minimapAction_;
    QAction* weightsAction_;
    QAction* groupAction_;
    QFileSystemWatcher* watcher_;
    QStringList recent_;
    QString loadingPath_;
};

}  // namespace irscope::widgets
