#include "widgets/panels/op_stats_panel.h"

#include "widgets/common/refresh_when_shown.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include "core/export/info_summary.h"
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
    chartView_ = new QChartView(this);
    chartView_->setRenderHint(QPainter::Antialiasing);
    chartView_->setMinimumHeight(160);
    table_ = new QTreeWidget(this);
    table_->setObjectName(QStringLiteral("opStatsTable"));
    table_->setRootIsDecorated(false);
    table_->setHeaderLabels({tr("Op type"), tr("Count")});
    table_->header()->setStretchLastSection(false);
    table_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("opStatsSplit"));  // its sizes are kept between launches
    split->addWidget(chartView_);
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
    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    if (palette().color(QPalette::Window).lightness() < 110) chart->setTheme(QChart::ChartThemeDark);
    table_->clear();
    barOps_.clear();
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

        auto* set = new QBarSet(tr("nodes"));
        set->setColor(QColor("#3a6ea5"));
        QStringList categories;
        const int n = std::min<int>(kBars, static_cast<int>(dist.size()));
        // Horizontal bars are drawn bottom-up: put the largest at the top.
        for (int i = n - 1; i >= 0; --i) {
            *set << static_cast<qreal>(dist[i].second);
            categories << shortOp(dist[i].first);
            barOps_ << QString::fromStdString(dist[i].first);
        }
        auto* series = new QHorizontalBarSeries;
        series->append(set);
        series->setLabelsVisible(true);
        series->setLabelsPosition(QAbstractBarSeries::LabelsInsideEnd);
        chart->addSeries(series);
        auto* axisY = new QBarCategoryAxis;
        axisY->append(categories);
        // QtCharts cuts a label to "…" once the dock is narrow, and in a
        // 400 px dock that was every op name: whole names, the bars shorter.
        axisY->setTruncateLabels(false);
        chart->addAxis(axisY, Qt::AlignLeft);
        series->attachAxis(axisY);
        auto* axisX = new QValueAxis;
        axisX->setLabelFormat(QStringLiteral("%d"));
        axisX->setMin(0);
        chart->addAxis(axisX, Qt::AlignBottom);
        series->attachAxis(axisX);
        chart->setTitle(tr("Op distribution (%1 nodes, %2 op types)").arg(doc->graph.nodes.size()).arg(dist.size()));
        connect(set, &QBarSet::clicked, this, [this](int index) {
            if (index >= 0 && index < barOps_.size()) pickOpType(barOps_[index]);
        });
    }
    QChart* old = chartView_->chart();
    chartView_->setChart(chart);
    delete old;
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
