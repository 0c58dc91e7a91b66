#include "widgets/debugger/differences_model.h"

#include <cmath>
#include <limits>
#include <optional>

#include <QColor>

#include "widgets/common/qt_text.h"

namespace irscope::widgets {

namespace {

// The metric columns are the table's rows, in its order (error_metric_table.h).
static_assert(DifferencesModel::Sqnr - DifferencesModel::kFirstMetric + 1 ==
              static_cast<int>(exec::kErrorMetrics.size()));

std::optional<exec::NodeMetric> metricOfColumn(int column) {
    const int k = column - DifferencesModel::kFirstMetric;
    if (k < 0 || k >= static_cast<int>(exec::kErrorMetrics.size())) return std::nullopt;
    return exec::kErrorMetrics[static_cast<size_t>(k)].metric;
}

QString number(double v) {
    if (std::isnan(v)) return QStringLiteral("NaN");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("+inf") : QStringLiteral("-inf");
    if (v == 0) return QStringLiteral("0");
    return QString::number(v, 'g', 4);
}

}  // namespace

DifferencesModel::DifferencesModel(QObject* parent) : QAbstractTableModel(parent) {}

void DifferencesModel::setRows(const std::vector<exec::OutputError>* rows) {
    beginResetModel();
    rows_ = rows;
    shown_ = rows ? static_cast<int>(rows->size()) : 0;
    endResetModel();
}

void DifferencesModel::rowsAppended() {
    const int now = rows_ ? static_cast<int>(rows_->size()) : 0;
    if (now < shown_) return setRows(rows_);
    if (now == shown_) return;
    beginInsertRows({}, shown_, now - 1);
    shown_ = now;
    endInsertRows();
}

void DifferencesModel::setThresholds(const exec::MetricThresholds& thresholds) {
    thresholds_ = thresholds;
    if (shown_ > 0) emit dataChanged(index(0, 0), index(shown_ - 1, Count - 1));
}

const exec::OutputError* DifferencesModel::rowAt(int row) const {
    // shown_ may be ahead of the rows for a moment: the controller refills them before it says so.
    return rows_ && row >= 0 && row < shown_ && static_cast<size_t>(row) < rows_->size()
               ? &(*rows_)[static_cast<size_t>(row)]
               : nullptr;
}

bool DifferencesModel::flagged(int row) const {
    const auto* r = rowAt(row);
    return r && thresholds_.flags(*r);
}

int DifferencesModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : shown_; }
int DifferencesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : Count; }

void DifferencesModel::setOverridden(QSet<QString> tensors) {
    if (tensors == overridden_) return;
    overridden_ = std::move(tensors);
    if (rowCount() > 0) emit dataChanged(index(0, Verdict), index(rowCount() - 1, Verdict));
}

QVariant DifferencesModel::data(const QModelIndex& index, int role) const {
    const exec::OutputError* r = rowAt(index.row());
    if (!r) return {};
    const exec::ErrorMetrics& m = r->metrics;
    const int col = index.column();
    const auto metric = metricOfColumn(col);
    if (role == kNodeRole) return QVariant::fromValue(static_cast<qint64>(r->node));
    if (role == kTensorRole) return q(r->output);
    if (role == Qt::DisplayRole) {
        if (metric) return m.comparable() ? number(exec::metricOf(*r, *metric)) : QStringLiteral("—");
        switch (col) {
        case Node: return q(r->nodeName);
        case Op: return q(r->opType);
        case Output: return r->index == 0 ? q(r->output) : QStringLiteral("%1 [%2]").arg(q(r->output)).arg(r->index);
        case Shape: return shapeText(r->shape);
        case Mismatches: return m.comparable() ? QStringLiteral("%1 / %2").arg(m.mismatches).arg(m.numel) : QString();
        case NanInf:
            return QStringLiteral("%1 / %2").arg(m.nanActual + m.infActual).arg(m.nanReference + m.infReference);
        case Verdict: {
            QString v = !m.comparable()                 ? q(m.problem)
                        : r->dtypeDiffers && r->failing ? tr("dtype differs")
                        : r->failing                    ? tr("fails")
                                                        : tr("ok");
            if (overridden_.contains(q(r->output))) v += tr(" (overridden)");
            if (!r->referenceNote.empty()) v += tr(" (ref. in float32)");
            return v;
        }
        default: return {};
        }
    }
    if (role == kSortRole) {
        if (metric) {
            // NaN (not comparable, NaN in the data) sorts as the worst value.
            double v = exec::metricOf(*r, *metric);
            if (std::isnan(v)) v = exec::higherIsBetter(*metric) ? -INFINITY : INFINITY;
            return v;
        }
        switch (col) {
        case Node: return static_cast<qint64>(r->node) * 64 + r->index;  // execution order
        case Mismatches: return static_cast<qint64>(m.mismatches);
        case NanInf: return static_cast<qint64>(m.nanActual + m.infActual + m.nanReference + m.infReference);
        case Verdict: return r->failing ? 1 : 0;
        default: return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole && (metric || col == Mismatches || col == NanInf))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::BackgroundRole) {
        if (metric && thresholds_.crosses(*r, *metric)) return QColor("#ffcdd2");
        if (col == Verdict && r->failing) return QColor("#ffcdd2");
    }
    if (role == Qt::ForegroundRole && r->failing && (col == Node || col == Verdict)) return QColor("#b71c1c");
    if (role == Qt::ToolTipRole) {
        if (col == Verdict && overridden_.contains(q(r->output)))
            return tr("This value was replaced by hand (Override output); the nodes after it computed from it");
        if (col == Verdict && !r->referenceNote.empty()) return q(r->referenceNote);
        if (!m.comparable()) return q(m.problem);
        if (col == Verdict && m.worstIndex >= 0)
            return tr("worst element: flat index %1, run %2, reference %3")
                .arg(m.worstIndex)
                .arg(number(m.worstActual), number(m.worstReference));
        if (metric) {
            if (auto l = thresholds_.limit(*metric))
                return tr("threshold: %1 %2").arg(exec::higherIsBetter(*metric) ? "≥" : "≤", number(*l));
        }
    }
    return {};
}

QVariant DifferencesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= Count) return {};
    // The metric columns: the table's titles and meanings (error_metric_table.h).
    if (const auto metric = metricOfColumn(section)) {
        const exec::ErrorMetricInfo* info = exec::errorMetricInfo(*metric);
        if (role == Qt::DisplayRole) return tr(info->title);
        if (role == Qt::ToolTipRole) return tr(info->meaning);
        return {};
    }
    static const char* const titles[Count] = {"Node", "Op", "Output", "Shape"};
    static const char* const tips[Count] = {"The node, in execution order", "Its ATen op", "The output tensor measured",
                                            "Its shape"};
    const char* title = section < kFirstMetric  ? titles[section]
                        : section == Mismatches ? "Mismatches"
                        : section == NanInf     ? "NaN+Inf run / ref"
                                                : "Verdict";
    const char* tip = section < kFirstMetric ? tips[section]
                      : section == Mismatches
                          ? "Elements outside the tolerance (unequal, for integers and bools) of all elements"
                      : section == NanInf ? "NaN and Inf counts in the run and in the reference"
                                          : "allclose under the tolerance (rtol, atol)";
    if (role == Qt::DisplayRole) return tr(title);
    if (role == Qt::ToolTipRole) return tr(tip);
    return {};
}

void DifferencesFilter::setFailingOnly(bool on) {
    if (on == failingOnly_) return;
    failingOnly_ = on;
    invalidateRowsFilter();
}

bool DifferencesFilter::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
    if (!failingOnly_) return true;
    const auto* model = qobject_cast<const DifferencesModel*>(sourceModel());
    return model && model->flagged(sourceRow);
}

}  // namespace irscope::widgets
