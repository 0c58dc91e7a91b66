#pragma once
// ModulesPanel: the Modules dock. The inferred module tree with ops,
// weights, parameters and, after a run, each module's status. Clicking a
// module selects it (the view opens its parents and centres it);
// double-clicking opens or closes it in the graph; the selection's module
// is followed in the tree.
#include <QWidget>

class QTreeView;

namespace irscope::widgets {

class GraphSession;
class ModuleTreeModel;

class ModulesPanel : public QWidget {
    Q_OBJECT
public:
    explicit ModulesPanel(GraphSession* session, QWidget* parent = nullptr);

    QTreeView* treeView() const { return view_; }
    ModuleTreeModel* model() const { return model_; }

private:
    void followSelection();

    GraphSession* session_;
    ModuleTreeModel* model_;
    QTreeView* view_;
    bool syncing_ = false;
};

}  // namespace irscope::widgets
