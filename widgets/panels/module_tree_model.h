#pragma once
// ModuleTreeModel: the inferred module tree (core/modules) as a Qt item
// model for the Modules dock. Rows are created lazily by Qt's view, so a
// 384-expert MoE (tens of thousands of modules) costs nothing until opened.
// Columns: module, kind, ops, weights, parameters, run status and time
// (from the session's aggregates of the debugger's node decorations).
#include <QAbstractItemModel>

#include "core/modules/module_tree.h"

namespace irscope::widgets {

class GraphSession;

class ModuleTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, Ops, Weights, Parameters, Status, Time, ColumnCount };
    static constexpr int kModuleIdRole = Qt::UserRole + 1;  // qint64 ModuleId

    explicit ModuleTreeModel(GraphSession* session, QObject* parent = nullptr);

    QModelIndex indexOf(modules::ModuleId id) const;
    modules::ModuleId moduleAt(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void reset();
    // Rows: module ids with ops (modules holding only weights are not drawn either).
    const std::vector<modules::ModuleId>& rows(modules::ModuleId parent) const;

    GraphSession* session_;
    const modules::ModuleTree* tree_ = nullptr;
    mutable std::vector<std::vector<modules::ModuleId>> rows_;  // by parent id, filled on demand
    mutable std::vector<char> rowsReady_;
    mutable std::vector<int> rowInParent_;
};

}  // namespace irscope::widgets
