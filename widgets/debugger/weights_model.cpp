#include "widgets/debugger/weights_model.h"

#include <QColor>
#include <QFileInfo>

#include "widgets/common/qt_text.h"
#include "widgets/debugger/remedy_text.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"

namespace irscope::widgets {

namespace {

QColor statusColor(exec::WeightStatus s) {
    switch (s) {
    case exec::WeightStatus::Missing: return QColor("#d0302a");
    case exec::WeightStatus::ShapeMismatch:
    case exec::WeightStatus::DTypeMismatch: return QColor("#c06000");
    case exec::WeightStatus::UnusedInFile: return QColor("#808080");
    case exec::WeightStatus::Entered: return QColor("#2060c0");
    default: return QColor("#2a8a3a");
    }
}

}  // namespace

WeightsModel::WeightsModel(DebugController* c, QObject* parent) : QAbstractTableModel(parent), c_(c) {}

namespace {

// Two row sets of one document hold the same weights when they end in the
// same file entries no IR weight maps to: the IR's own weights come first, in
// the graph's order, whatever was loaded (exec::weightRows).
bool sameWeights(const std::vector<exec::WeightRow>& a, const std::vector<exec::WeightRow>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = a.size(); i-- > 0;) {
        const bool unusedA = a[i].status == exec::WeightStatus::UnusedInFile;
        const bool unusedB = b[i].status == exec::WeightStatus::UnusedInFile;
        if (unusedA != unusedB) return false;
        if (!unusedA) return true;  // the IR's own rows from here on
        if (a[i].originalName != b[i].originalName) return false;
    }
    return true;
}

}  // namespace

void WeightsModel::refresh() {
    auto rows = c_->values()->sharedWeightRows();  // shared, not copied (70,000 rows in a large MoE)
    auto doc = c_->documentPtr();
    // The same weights with new values (a state_dict loaded, a value
    // entered): the views hear of the value columns only, so a sorted view
    // of 70,000 rows keeps its order and its proxy's mapping (a reset sorted
    // them all again: ~15 ms of the UI thread) and refilters the rows alone.
    if (doc && rowsDocument_.lock() == doc && !rows_->empty() && sameWeights(*rows_, *rows)) {
        rows_ = std::move(rows);
        emit dataChanged(index(0, LoadedShape), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    rows_ = std::move(rows);
    rowsDocument_ = doc;
    endResetModel();
}

int WeightsModel::rowCount(const QModelIndex& p) const { return p.isValid() ? 0 : static_cast<int>(rows_->size()); }
int WeightsModel::columnCount(const QModelIndex& p) const { return p.isValid() ? 0 : ColumnCount; }

QVariant WeightsModel::headerData(int s, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Placeholder",  "Original name", "Kind",   "IR shape", "IR dtype",
                                  "Loaded shape", "Loaded dtype",  "Status", "Source"};
    return QString::fromLatin1(names[s]);
}

QString WeightsModel::displayText(const exec::WeightRow& r, int column) const {
    switch (column) {
    case Placeholder: return r.placeholder.empty() ? QStringLiteral("—") : q(r.placeholder);
    case Original: return q(r.originalName);
    case Kind: return r.kind == '?' ? QStringLiteral("—") : QString(QLatin1Char(r.kind)) + QLatin1Char('_');
    case IrShape: return r.irDtype.empty() && r.irShape.empty() ? QString() : shapeText(r.irShape);
    case IrDtype: return q(r.irDtype);
    case LoadedShape: return r.hasValue() ? shapeText(r.loadedShape) : QString();
    case LoadedDtype: return q(r.loadedDtype);
    case Status:
        return q(exec::weightStatusName(r.status)) +
               (r.used || r.placeholder.empty() ? QString() : QStringLiteral(" (unused)"));
    case Source: return QFileInfo(q(r.source)).fileName().isEmpty() ? q(r.source) : QFileInfo(q(r.source)).fileName();
    }
    return {};
}

QVariant WeightsModel::data(const QModelIndex& i, int role) const {
    const auto& r = (*rows_)[static_cast<size_t>(i.row())];
    if (role == Qt::DisplayRole) return displayText(r, i.column());
    if (role == Qt::ForegroundRole && i.column() == Status) return statusColor(r.status);
    if (role == Qt::ToolTipRole) return r.message.empty() ? q(r.source) : weightRowMessage(r);
    if (role == Qt::UserRole) return static_cast<int>(r.status);
    return {};
}

}  // namespace irscope::widgets
