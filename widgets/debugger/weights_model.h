#pragma once
// WeightsModel: the controller's weight rows (every IR weight, buffer and
// constant, and what the loaded files hold) as a table: names, IR and loaded
// shape and dtype, status (coloured), source. The Weights and Constants docks
// show it through a WeightFilter.
#include <memory>
#include <vector>

#include <QAbstractTableModel>

#include "core/exec/debugger/debugger.h"

namespace irscope::widgets {

class DebugController;
struct LoadedDocument;

class WeightsModel : public QAbstractTableModel {
public:
    enum Column {
        Placeholder,
        Original,
        Kind,
        IrShape,
        IrDtype,
        LoadedShape,
        LoadedDtype,
        Status,
        Source,
        ColumnCount
    };
    explicit WeightsModel(DebugController* controller, QObject* parent = nullptr);
    // Takes the controller's current rows.
    void refresh();
    const exec::WeightRow& row(int r) const { return (*rows_)[r]; }
    int rowCount(const QModelIndex& p = {}) const override;
    int columnCount(const QModelIndex& p = {}) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    // Qt::UserRole: the row's exec::WeightStatus as an int.
    QVariant data(const QModelIndex& index, int role) const override;

private:
    QString displayText(const exec::WeightRow& r, int column) const;
    DebugController* c_;
    std::shared_ptr<const std::vector<exec::WeightRow>> rows_ = std::make_shared<const std::vector<exec::WeightRow>>();
    std::weak_ptr<const LoadedDocument> rowsDocument_;  // the document rows_ are of
};

}  // namespace irscope::widgets
