#include "widgets/charts/charts.h"

#include <algorithm>

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QValueAxis>

namespace irscope::widgets::charts {

namespace {

QChartView* asView(QWidget* view) { return static_cast<QChartView*>(view); }

// The view takes `chart` and the chart it showed goes.
void replaceChart(QWidget* view, QChart* chart) {
    QChart* old = asView(view)->chart();
    asView(view)->setChart(chart);
    delete old;
}

QChart* histogramChart(const exec::Histogram& h) {
    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setMargins(QMargins(2, 2, 2, 2));
    if (h.finite <= 0 || h.counts.empty()) return chart;
    // Each bin is a flat step: two points on top, two on the base line.
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    const double w = (h.hi - h.lo) / h.counts.size();
    int64_t mx = 1;
    for (size_t i = 0; i < h.counts.size(); ++i) {
        const double x0 = h.lo + w * i, x1 = x0 + w;
        upper->append(x0, h.counts[i]);
        upper->append(x1, h.counts[i]);
        lower->append(x0, 0);
        lower->append(x1, 0);
        mx = std::max(mx, h.counts[i]);
    }
    auto* area = new QAreaSeries(upper, lower);
    // QAreaSeries does not own its boundary series (LeakSanitizer found them
    // leaked with every histogram): the area, which the chart owns, does now.
    upper->setParent(area);
    lower->setParent(area);
    area->setColor(QColor("#3b7dd8"));
    area->setBorderColor(QColor("#1f4e99"));
    chart->addSeries(area);
    auto* ax = new QValueAxis;
    ax->setRange(h.lo, h.hi);
    ax->setLabelFormat(QStringLiteral("%.3g"));
    ax->setTickCount(5);
    auto* ay = new QValueAxis;
    ay->setRange(0, mx * 1.05);
    ay->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    area->attachAxis(ax);
    area->attachAxis(ay);
    return chart;
}

}  // namespace

QWidget* newChartView(QWidget* parent, int minimumHeight) {
    auto* view = new QChartView(parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(minimumHeight);
    return view;
}

void showHistogram(QWidget* view, const exec::Histogram& histogram) { replaceChart(view, histogramChart(histogram)); }

void showBars(QWidget* view, const Bars& bars, std::function<void(int index)> onClick) {
    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    if (view->palette().color(QPalette::Window).lightness() < 110) chart->setTheme(QChart::ChartThemeDark);
    if (!bars.labels.isEmpty()) {
        auto* set = new QBarSet(bars.seriesName);
        set->setColor(QColor("#3a6ea5"));
        for (const double v : bars.values) *set << v;
        auto* series = new QHorizontalBarSeries;
        series->append(set);
        series->setLabelsVisible(true);
        series->setLabelsPosition(QAbstractBarSeries::LabelsInsideEnd);
        chart->addSeries(series);
        auto* axisY = new QBarCategoryAxis;
        axisY->append(bars.labels);
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
        chart->setTitle(bars.title);
        QObject::connect(set, &QBarSet::clicked, set, [onClick = std::move(onClick)](int index) {
            if (onClick) onClick(index);
        });
    }
    replaceChart(view, chart);
}

void clearChart(QWidget* view) {
    if (QChart* chart = asView(view)->chart()) chart->removeAllSeries();
}

}  // namespace irscope::widgets::charts
