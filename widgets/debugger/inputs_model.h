#pragma once
// InputsModel: the controller's graph input rows as a table: name, IR shape
// and dtype, where the value comes from (random, zeros, ones, a file), the
// value's shape and dtype, and what is wrong with it (in red).
#include <vector>

#include <QAbstractTableModel>

#include "core/exec/debugger/debugger.h"

namespace irscope::widgets {

class DebugController;

class InputsModel : public QAbstractTableModel {
public:
    enum Column { Name, IrShape, IrDtype, Source, Value, Problem, ColumnCount };
    explicit InputsModel(DebugController* controller, QObject* parent = nullptr);
    // Takes the controller's current rows.
    void refresh();
    const exec::InputRow& row(int r) const { return rows_[r]; }
    int rowCount(const QModelIndex& p = {}) const override;
    int columnCount(const QModelIndex& p = {}) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    QVariant data(const QModelIndex& index, int role) const override;

private:
    DebugController* c_;
    std::vector<exec::InputRow> rows_;
};

}  // namespace irscope::widgets
