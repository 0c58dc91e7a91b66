#pragma once
// The window's charts (Qt Charts) behind a few plain calls, built apart from
// the rest of the window. Qt Charts is bound at load (BIND_NOW) and brings Qt
// OpenGL, OpenGL Widgets and libOpenGL with it: 1.25 ms of a window's 37 ms
// start. The app keeps them in a module of their own (libirscope_charts.so,
// app/CMakeLists.txt) and loads it after the first frame, before the panels
// that draw charts are made. The window's module reaches it only through
// these calls, bound at their first use: no Qt Charts type, address or vtable
// crosses (cmake/check_late_calls.cmake holds the build to it). Every other
// program (the test suites) links them in directly.
//
// A panel asks chartsAvailable() (widgets/common/charts_availability.h)
// before it makes a view: without the module it shows why instead.
#include <functional>
#include <vector>

#include <QString>
#include <QStringList>

#include "core/exec/numerics/probe_types.h"

class QWidget;

namespace irscope::widgets::charts {

// An empty chart view under `parent`, antialiased, at least `minimumHeight` tall.
QWidget* newChartView(QWidget* parent, int minimumHeight);

// `view` (from newChartView) shows `histogram` as one filled step area, value
// axis below, count axis left; without finite values, an empty chart.
void showHistogram(QWidget* view, const exec::Histogram& histogram);

// Horizontal bars, drawn bottom-up: labels[0] and values[0] at the bottom.
// Without bars, an empty chart. Clicking bar i calls onClick(i).
struct Bars {
    QString title;
    QString seriesName;
    QStringList labels;
    std::vector<double> values;
};
void showBars(QWidget* view, const Bars& bars, std::function<void(int index)> onClick);

// `view` shows nothing (its chart keeps its frame).
void clearChart(QWidget* view);

}  // namespace irscope::widgets::charts
