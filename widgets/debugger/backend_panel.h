#pragma once
// BackendPanel: where a backend first goes wrong, from a backend check's
// report (`irscope check-backend --report`, the Python package's
// torch.compile backends; `irscope check-dump --report`, an NPU's dump).
// One row per group in execution order: its ops, its verdict (backend fault
// or float noise) and its error against float64 beside eager float32's, in
// units of what the tolerance allows. Opening a report colours every node
// by its group (the overlay: green up to the tolerance, red past it, the
// number in units of it), selects the first fault's nodes and shows them;
// a click on a row selects that group's. A report of another program is
// refused, naming the nodes it does not have.
#include <memory>

#include <QString>
#include <QWidget>

#include "core/export/backend_report.h"
#include "widgets/common/panel_events.h"
#include "widgets/common/panel_id.h"

class QLabel;
class QTemporaryDir;
class QTreeWidget;

namespace irscope::widgets {

class DebugController;
class TaskQueue;

inline constexpr PanelId kBackendPanel{"backendDock"};

class BackendPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit BackendPanel(DebugController* controller, QWidget* parent = nullptr);
    ~BackendPanel() override;

    // Reads the report off the UI thread; a bad file is reported as the debugger's errors are.
    void open(const QString& path);
    void openDialog();
    // check-dump in the window: the backend's dump (a tensor file or a folder
    // of .npy) and its groups file judged on the run lane against this run's
    // values; the report (kept in a temporary folder) is then opened as above.
    void checkDump(const QString& dump, const QString& groups);
    void checkDumpDialog();
    // The rows' texts, "group  verdict" (tests), and the report's headline.
    QStringList rows() const;
    QString headline() const;
    // Selects the nodes of row `row` as a click does (-1: the first fault's).
    void chooseRow(int row);

private:
    void documentOpened(bool sameModel) override;
    void show(exporter::BackendReport report, const QString& path);
    void selectGroup(const exporter::BackendGroup& group);

    DebugController* c_;
    TaskQueue* lane_;
    QLabel* headline_;
    QTreeWidget* table_;
    exporter::BackendReport report_;
    std::unique_ptr<QTemporaryDir> reports_;  // check-dump's reports, made on first use
};

}  // namespace irscope::widgets
