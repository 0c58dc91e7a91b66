#include "widgets/panels/op_stats_panel.h"

#include <algorithm>

#include "widgets/common/refresh_when_shown.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/export/info_summary.h"
#include "widgets/charts/charts.h"
#include "widgets/common/charts_availability.h"
#include "widgets/common/panel_registry.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

namespace {
constexpr int kBars = 12;

QString shortOp(const std::string& op) {
    QString s = QString::fromStdString(op);
    if (s.startsWith(QLatin1String("aten."))) s = s.mid(5);
    if (s.endsWith(QLatin1String(".default"))) s.chop(8);
    if (s == QLatin1String("<built-in function getitem>")) s = QStringLiteral("getitem");
    return s;
}
}  // namespace

OpStatsPanel::OpStatsPanel(GraphSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    setObjectName(QStringLiteral("opStatsPanel"));
    if (chartsAvailable()) {
        chartView_ = charts::newChartView(this, 160);
    } else {
        auto* why = new QLabel(tr("No chart: %1").arg(chartsMissingReason()), this);
        why->setWordWrap(true);
        why->setAlignment(Qt::AlignCenter);
        chartWidget_ = why;
    }
    table_ = new QTreeWidget(this);
    table_->setObjectName(QStringLiteral("opStatsTable"));
    table_->setRootIsDecorated(false);
    table_->setHeaderLabels({tr("Op type"), tr("Count")});
    table_->header()->setStretchLastSection(false);
    table_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("opStatsSplit"));  // its sizes are kept between launches
    split->addWidget(chartView_ ? chartView_ : chartWidget_);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(split);
    connect(table_, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem* item, int) { pickOpType(item->data(0, Qt::UserRole).toString()); });
    rebuildWhenShown_ = new RefreshWhenShown(this, [this] { rebuild(); });
    rebuild();
}

void OpStatsPanel::documentOpened(bool) { rebuildWhenShown_->request(); }

QTreeWidget* OpStatsPanel::table() const {
    rebuildWhenShown_->flush();
    return table_;
}

void OpStatsPanel::pickOpType(const QString& opType) {
    auto nodes = session_->selectionModel()->nodesOfOpType(opType);
    if (nodes.empty()) return;
    const ItemRef first = nodes.front();
    session_->selectionModel()->setHighlight(std::move(nodes));
    session_->selectionModel()->select(first, true);
}

void OpStatsPanel::rebuild() {
    table_->clear();
    barOps_.clear();
    charts::Bars bars;
    bars.seriesName = tr("nodes");
    if (const auto* doc = session_->document()) {
        const auto info = exporter::summarize(doc->graph);
        const auto& dist = info.opDistribution;  // largest first
        QList<QTreeWidgetItem*> rows;
        for (const auto& [op, count] : dist) {
            auto* item = new QTreeWidgetItem({shortOp(op), QString::number(count)});
            item->setData(0, Qt::UserRole, QString::fromStdString(op));
            item->setToolTip(0, QString::fromStdString(op));
            item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
            rows << item;
        }
        table_->addTopLevelItems(rows);
        table_->resizeColumnToContents(1);
        const int n = std::min<int>(kBars, static_cast<int>(dist.size()));
        // Horizontal bars are drawn bottom-up: put the largest at the top.
        for (int i = n - 1; i >= 0; --i) {
            bars.values.push_back(static_cast<double>(dist[i].second));
            bars.labels << shortOp(dist[i].first);
            barOps_ << QString::fromStdString(dist[i].first);
        }
        bars.title = tr("Op distribution (%1 nodes, %2 op types)").arg(doc->graph.nodes.size()).arg(dist.size());
    }
    if (!chartView_) return;
    charts::showBars(chartView_, bars, [this](int index) {
        if (index >= 0 && index < barOps_.size()) pickOpType(barOps_[index]);
    });
}

namespace {

const bool opStatsPanelRegistered = registerPanel({
    .id = kOpStatsPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Op statistics"),
    .order = 3,
    .make = [](const PanelContext& c) -> QWidget* { return new OpStatsPanel(c.session); },
    .where = {Qt::RightDockWidgetArea, {}, kSearchPanel},
});

}  // namespace

}  // namespace irscope::widgets
