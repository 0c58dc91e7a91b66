#pragma once
// A histogram (exec::Histogram: equal-width bins over the finite values) as a
// QtCharts chart: one filled step area, value axis below, count axis left.
#include "core/exec/debugger/debugger.h"

class QChart;

namespace irscope::widgets {

// A new chart (the caller owns it); without finite values, an empty one.
QChart* makeHistogramChart(const exec::Histogram& histogram);

}  // namespace irscope::widgets
