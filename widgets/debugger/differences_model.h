#pragma once
// DifferencesModel: the Differences dock's table, one row per node output
// measured against the reference (the controller's errorRows), with every
// metric of core/exec/numerics/error_metric_table.h as a column. Numbers sort as numbers (Qt::UserRole,
// NaN as the worst value of its column); a cell across a user threshold and
// a failing row are tinted. "Failing only" is the proxy's business
// (DifferencesFilter), through flagged().
#include <vector>

#include <QAbstractTableModel>
#include <QSet>
#include <QSortFilterProxyModel>

#include "core/exec/numerics/error_report.h"
#include "core/exec/numerics/metric_thresholds.h"

namespace irscope::widgets {

class DifferencesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Node,
        Op,
        Output,
        Shape,
        MaxAbs,
        MaxRel,
        MeanAbs,
        Mse,
        Cosine,
        Sqnr,
        Mismatches,
        NanInf,
        Verdict,
        Count
    };
    // MaxAbs..Sqnr: one column per row of exec::kErrorMetrics, in its order.
    static constexpr int kFirstMetric = MaxAbs;
    static constexpr int kSortRole = Qt::UserRole;
    static constexpr int kNodeRole = Qt::UserRole + 1;    // the row's node index
    static constexpr int kTensorRole = Qt::UserRole + 2;  // its output's tensor name

    explicit DifferencesModel(QObject* parent = nullptr);

    // `rows` must stay alive and unchanged until the next call (the controller's snapshot).
    void setRows(const std::vector<exec::OutputError>* rows);
    // Only rows appended since the last call are new (a run went on).
    void rowsAppended();
    void setThresholds(const exec::MetricThresholds& thresholds);
    const exec::MetricThresholds& thresholds() const { return thresholds_; }
    // Node outputs replaced by the user (edit and continue): their rows say
    // so, and the reference-side note (a reference op computed in float32)
    // shows in the verdict's tooltip.
    void setOverridden(QSet<QString> tensors);
    bool flagged(int row) const;
    const exec::OutputError* rowAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const std::vector<exec::OutputError>* rows_ = nullptr;
    int shown_ = 0;  // rows the view knows of
    exec::MetricThresholds thresholds_;
    QSet<QString> overridden_;
};

// "Failing only": keeps the rows the model flags (failing the tolerance or
// across a threshold).
class DifferencesFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setFailingOnly(bool on);
    bool failingOnly() const { return failingOnly_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool failingOnly_ = false;
};

}  // namespace irscope::widgets
