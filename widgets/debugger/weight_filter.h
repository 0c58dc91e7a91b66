#pragma once
// WeightFilter: which weight rows a dock shows (by status group: problems,
// has value, missing, ...; the Constants dock only constant-like rows; by
// name, the state_dict key or the placeholder, as widgets/common/
// name_pattern.h reads the filter box), sorted by name as people count
// (layers.9 before layers.10).
#include <QSortFilterProxyModel>

#include "widgets/common/name_pattern.h"

class QComboBox;

namespace irscope::widgets {

class WeightsModel;

// The Weights dock's "Show:" choices, in the box's order.
enum class WeightFilterMode { All, Problems, HasValue, Missing, ShapeMismatch, DtypeMismatch, UnusedInFile, Constants };

// Fills `box` with the modes, each carried as its item data.
void addWeightFilterModes(QComboBox* box);

class WeightFilter : public QSortFilterProxyModel {
public:
    WeightFilter(WeightsModel* model, bool constantsOnly, QObject* parent = nullptr);
    void setMode(WeightFilterMode mode);
    void setPattern(NamePattern pattern);

protected:
    bool lessThan(const QModelIndex& a, const QModelIndex& b) const override;
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    WeightsModel* m_;
    bool constantsOnly_;
    WeightFilterMode mode_ = WeightFilterMode::All;
    NamePattern pattern_;
};

}  // namespace irscope::widgets
