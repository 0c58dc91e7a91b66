#include "widgets/debugger/weight_filter.h"

#include <utility>

#include <QComboBox>
#include <QCoreApplication>

#include "widgets/debugger/weights_model.h"

namespace irscope::widgets {

void addWeightFilterModes(QComboBox* box) {
    auto add = [box](const char* text, WeightFilterMode mode) {
        box->addItem(QCoreApplication::translate("WeightsPanel", text), QVariant::fromValue(static_cast<int>(mode)));
    };
    add("All", WeightFilterMode::All);
    add("Problems", WeightFilterMode::Problems);
    add("Has value", WeightFilterMode::HasValue);
    add("Missing", WeightFilterMode::Missing);
    add("Shape mismatch", WeightFilterMode::ShapeMismatch);
    add("Dtype mismatch", WeightFilterMode::DtypeMismatch);
    add("Unused in file", WeightFilterMode::UnusedInFile);
    add("Constants", WeightFilterMode::Constants);
}

WeightFilter::WeightFilter(WeightsModel* m, bool constantsOnly, QObject* parent)
    : QSortFilterProxyModel(parent), m_(m), constantsOnly_(constantsOnly) {
    setSourceModel(m);
}

void WeightFilter::setMode(WeightFilterMode mode) {
    mode_ = mode;
    invalidateFilter();
}

// Every column compares the rows' own fields, never the display text: no
// QVariant or QString per comparison, so 70,000 rows sort at once. Names
// compare as people count, shapes by their numbers, status by severity.
bool WeightFilter::lessThan(const QModelIndex& a, const QModelIndex& b) const {
    const auto& x = m_->row(a.row());
    const auto& y = m_->row(b.row());
    switch (a.column()) {
    case WeightsModel::Placeholder: return x.placeholderRank < y.placeholderRank;  // natural order, ranked in core
    case WeightsModel::Original: return x.originalRank < y.originalRank;
    case WeightsModel::Kind: return x.kind < y.kind;
    case WeightsModel::IrShape: return x.irShape < y.irShape;
    case WeightsModel::IrDtype: return x.irDtype < y.irDtype;
    case WeightsModel::LoadedShape: return x.loadedShape < y.loadedShape;
    case WeightsModel::LoadedDtype: return x.loadedDtype < y.loadedDtype;
    case WeightsModel::Status: return std::pair(x.status, !x.used) < std::pair(y.status, !y.used);
    case WeightsModel::Source: return x.source < y.source;
    }
    return QSortFilterProxyModel::lessThan(a, b);
}

void WeightFilter::setPattern(NamePattern pattern) {
    pattern_ = std::move(pattern);
    invalidateFilter();
}

bool WeightFilter::filterAcceptsRow(int r, const QModelIndex&) const {
    const auto& w = m_->row(r);
    if (constantsOnly_ && !w.constantLike) return false;
    if (!pattern_.isEmpty() && !pattern_.matches(QString::fromStdString(w.originalName)) &&
        !pattern_.matches(QString::fromStdString(w.placeholder)))
        return false;
    using S = exec::WeightStatus;
    switch (mode_) {
    case WeightFilterMode::Problems:
        return w.status == S::Missing || w.status == S::ShapeMismatch || w.status == S::DTypeMismatch ||
               w.status == S::UnusedInFile;
    case WeightFilterMode::HasValue:
        return w.status == S::Loaded || w.status == S::FromIr || w.status == S::FromConstants || w.status == S::Entered;
    case WeightFilterMode::Missing: return w.status == S::Missing;
    case WeightFilterMode::ShapeMismatch: return w.status == S::ShapeMismatch;
    case WeightFilterMode::DtypeMismatch: return w.status == S::DTypeMismatch;
    case WeightFilterMode::UnusedInFile: return w.status == S::UnusedInFile;
    case WeightFilterMode::Constants: return w.constantLike;
    case WeightFilterMode::All: return true;
    }
    return true;
}

}  // namespace irscope::widgets
