#pragma once
// DifferencesPanel: "which op is wrong?". A sortable table of
// every node output measured against the reference as the run goes (max
// abs, max rel, mean abs, MSE, cosine, SQNR, mismatches, NaN/Inf, verdict),
// with the choices that shape it above: what the reference is (the files
// loaded as the reference, or a second run with other weights or in
// float64 / float16 / bfloat16), cumulative or local error, "failing only",
// a threshold per metric, and the export of any metric as Model Explorer
// node data. A summary line names the culprit. A click selects the node and
// shows its tensor (run, reference and difference in the tensor viewer).
#include <vector>

#include <QWidget>

#include "core/exec/numerics/error_report.h"

#include "widgets/common/panel_id.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QToolButton;

namespace irscope::widgets {

class DebugController;
class DifferencesFilter;
class DifferencesModel;
class RefreshWhenShown;

inline constexpr PanelId kDifferencesPanel{"differencesDock"};

class DifferencesPanel : public QWidget {
    Q_OBJECT
public:
    explicit DifferencesPanel(DebugController* controller, QWidget* parent = nullptr);

    // For tests and scripts.
    // Read directly: brought up to date first if it waited to be shown.
    QTableView* table() const;
    DifferencesModel* model() const;
    QString summary() const;
    void setFailingOnly(bool on);
    // "max_abs" ... "sqnr_db"; an empty text removes the limit. False when not a number.
    bool setThreshold(const QString& metric, const QString& text);
    // The user's rtol and atol (an empty text: the dtype's default); remembered
    // in the settings. False when one is not a non-negative number.
    bool setTolerance(const QString& rtol, const QString& atol);

private:
    void rowsChanged();
    void checksChanged();
    void chooseReference(int index);
    void exportDialog(int metric);
    QWidget* makeThresholdEditor();
    QWidget* makeToleranceEditor();
    QString toleranceSummary(const std::vector<exec::OutputError>& rows) const;

    DebugController* c_;
    DifferencesModel* model_;
    DifferencesFilter* filter_;
    RefreshWhenShown* rowsWhenShown_ = nullptr;
    QTableView* table_;
    QComboBox* reference_;
    QComboBox* mode_;
    QCheckBox* failingOnly_;
    QToolButton* thresholds_;
    QToolButton* tolerance_;
    QLineEdit* rtolEdit_ = nullptr;
    QLineEdit* atolEdit_ = nullptr;
    QToolButton* export_;
    QLabel* summary_;
    uint64_t generation_ = ~uint64_t(0);  // of the controller's rows the model shows
};

}  // namespace irscope::widgets
