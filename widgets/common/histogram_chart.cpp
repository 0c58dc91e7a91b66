#include "widgets/common/histogram_chart.h"

#include <algorithm>

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

namespace irscope::widgets {

QChart* makeHistogramChart(const exec::Histogram& h) {
    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setMargins(QMargins(2, 2, 2, 2));
    if (h.finite <= 0) return chart;
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

}  // namespace irscope::widgets
