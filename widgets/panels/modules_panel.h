#pragma once
// ModulesPanel: the Modules dock. The inferred module tree with ops,
// weights, parameters and, after a run, each module's status. Clicking a
// module selects it (the view opens its parents and centres it);
// double-clicking opens or closes it in the graph; the selection's module
// is followed in the tree. A filter box keeps the modules whose path
// matches (widgets/common/name_pattern.h) with their parents; long names
// are elided in the middle ("layers.60.mlp…experts.383"), the whole path in
// the tooltip.
#include <QModelIndex>
#include <QWidget>

#include "widgets/common/panel_events.h"

class QLineEdit;
class QSortFilterProxyModel;
class QTimer;
class QTreeView;

namespace irscope::widgets {

class GraphSession;
class ModuleTreeModel;

class ModulesPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit ModulesPanel(GraphSession* session, QWidget* parent = nullptr);

    QTreeView* treeView() const { return view_; }
    ModuleTreeModel* model() const { return model_; }
    QLineEdit* filterEdit() const { return filter_; }
    // Filters as typing in the box does (at once, without the box's pause).
    void setFilterText(const QString& text);
    // The tree view's index of a module (invalid when the filter hides it), and back.
    QModelIndex viewIndexOf(int64_t module) const;
    int64_t moduleAt(const QModelIndex& viewIndex) const;

private:
    void documentOpened(bool sameModel) override;
    void selectionChanged(const ItemRef&) override { followSelection(); }
    void followSelection();

    void applyFilter();
    void fitColumns();

    GraphSession* session_;
    ModuleTreeModel* model_;
    QSortFilterProxyModel* proxy_;
    QLineEdit* filter_;
    QTimer* debounce_;
    QTimer* fitPause_ = nullptr;  // coalesces the column fits of one burst of changes
    QTreeView* view_;
    bool syncing_ = false;
};

}  // namespace irscope::widgets
