#include "core/exec/numerics/metric_thresholds.h"

#include <cmath>

namespace irscope::exec {

void MetricThresholds::set(NodeMetric metric, std::optional<double> limit) {
    if (metric == NodeMetric::TimeMs) return;
    limits_[static_cast<size_t>(metric)] = limit;
}

std::optional<double> MetricThresholds::limit(NodeMetric metric) const { return limits_[static_cast<size_t>(metric)]; }

bool MetricThresholds::any() const {
    for (const auto& l : limits_)
        if (l) return true;
    return false;
}

bool MetricThresholds::crosses(NodeMetric metric, double value) const {
    const auto& l = limits_[static_cast<size_t>(metric)];
    if (!l) return false;
    if (std::isnan(value)) return true;
    return higherIsBetter(metric) ? value < *l : value > *l;
}

bool MetricThresholds::flags(const OutputError& row) const {
    if (row.failing) return true;
    for (NodeMetric m : allNodeMetrics())
        if (m != NodeMetric::TimeMs && crosses(row, m)) return true;
    return false;
}

}  // namespace irscope::exec
