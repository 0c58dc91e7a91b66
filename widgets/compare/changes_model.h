#pragma once
// The Changes dock's table: one row per difference of a comparison
// (diff::ChangeRow, computed in core), coloured by kind of change. Display
// only: the rows and their order come from CompareSession.
#include <memory>
#include <vector>

#include <QAbstractTableModel>

#include "core/diff/change_rows.h"

namespace irscope::widgets {

class ChangesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ChangeCol, NameCol, DetailCol, OpCol, ModuleCol, WhatCol, ColumnCount };
    static constexpr int kRowRole = Qt::UserRole + 1;   // index into the session's rows
    static constexpr int kKindRole = Qt::UserRole + 2;  // diff::ChangeRow::Change as int

    using QAbstractTableModel::QAbstractTableModel;
    void setRows(std::shared_ptr<const std::vector<diff::ChangeRow>> rows);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const std::vector<diff::ChangeRow>> rows_;  // kept alive while shown
};

}  // namespace irscope::widgets
