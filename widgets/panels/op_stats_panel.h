#pragma once
// OpStatsPanel: the op distribution (as `pytorch-ir info` counts it) as a bar
// chart of the most frequent op types and a full table. Clicking a bar or a
// row highlights every node of that type and selects the first.
#include <QWidget>

#include "widgets/common/panel_events.h"

class QTreeWidget;

namespace irscope::widgets {

class GraphSession;
class RefreshWhenShown;

class OpStatsPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit OpStatsPanel(GraphSession* session, QWidget* parent = nullptr);
    // Read directly (tests, scripts): brought up to date first if it waited to be shown.
    QTreeWidget* table() const;
    // Highlights every node of `opType` and selects the first: what a click does.
    void pickOpType(const QString& opType);

private:
    // Tabbed behind Properties most of the time: rebuilt when next shown
    // (a 100,000-node graph's chart and table cost a new document's first
    // event-loop turn ~13 ms for nothing).
    void documentOpened(bool) override;
    void rebuild();
    GraphSession* session_;
    RefreshWhenShown* rebuildWhenShown_ = nullptr;
    QWidget* chartView_ = nullptr;    // charts::newChartView
    QWidget* chartWidget_ = nullptr;  // instead, without the charts: why
    QTreeWidget* table_;
    QStringList barOps_;
};

}  // namespace irscope::widgets
