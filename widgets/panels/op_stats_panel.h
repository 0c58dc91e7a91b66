#pragma once
// OpStatsPanel: the op distribution (as `pytorch-ir info` counts it) as a bar
// chart of the most frequent op types and a full table. Clicking a bar or a
// row highlights every node of that type and selects the first.
#include <QWidget>

#include "widgets/common/panel_events.h"

class QChartView;
class QTreeWidget;

namespace irscope::widgets {

class GraphSession;

class OpStatsPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit OpStatsPanel(GraphSession* session, QWidget* parent = nullptr);
    QTreeWidget* table() const { return table_; }
    // Highlights every node of `opType` and selects the first: what a click does.
    void pickOpType(const QString& opType);

private:
    void documentOpened(bool) override { rebuild(); }
    void rebuild();
    GraphSession* session_;
    QChartView* chartView_;
    QTreeWidget* table_;
    QStringList barOps_;
};

}  // namespace irscope::widgets
