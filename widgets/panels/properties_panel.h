#pragma once
// PropertiesPanel: everything the IR says about the selection (a node, a
// graph input, a weight or an output), as a tree. Producers and consumers are
// links: clicking one selects it through the session.
#include <QWidget>

#include "core/ir/op_node.h"
#include "widgets/common/panel_events.h"
#include "widgets/session/item_ref.h"

class QTreeWidget;
class QTreeWidgetItem;

namespace irscope::widgets {

class GraphSession;

class PropertiesPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit PropertiesPanel(GraphSession* session, QWidget* parent = nullptr);
    QTreeWidget* tree() const { return tree_; }
    // Text of the "Name" row ("" when nothing is selected): what tests read.
    QString shownName() const;

private:
    void documentOpened(bool) override { rebuild(); }
    void selectionChanged(const ItemRef&) override { rebuild(); }
    void rebuild();
    void showNode(int64_t node);
    void showNodeAttributes(const ir::OpNode& node);
    void showSubgraphs(const ir::OpNode& node);
    void showSubgraphNode(const ItemRef& ref);
    void addAttribute(QTreeWidgetItem* parent, const QString& key, const ir::AttrMap& value);
    void showNodeInputs(int64_t node);
    void showNodeOutputs(int64_t node);
    void showModule(int64_t module);
    void showGraphInput(int64_t input);
    void showWeight(const ItemRef& ref);
    void showWeightQuantization(const std::string& placeholder);
    void showOutput(int64_t output);
    void showSummary();

    QTreeWidgetItem* row(QTreeWidgetItem* parent, const QString& key, const QString& value);
    QTreeWidgetItem* section(const QString& title);
    QTreeWidgetItem* link(QTreeWidgetItem* parent, const QString& key, const QString& text, const ItemRef& target);

    GraphSession* session_;
    QTreeWidget* tree_;
};

}  // namespace irscope::widgets
