#pragma once
// MetricThresholds: the limits a user sets per metric in the Differences
// dock ("max abs above 1e-3", "SQNR below 30 dB"), beyond the allclose
// tolerance. A row that crosses any of them is flagged like a failing one,
// so "failing only" shows it and its cell is marked. A NaN metric crosses
// every limit set on it (as in node_metric.h, NaN is the worst value).
// Torch-free.
#include <array>
#include <optional>

#include "core/exec/numerics/error_report.h"
#include "core/exec/numerics/node_metric.h"

namespace irscope::exec {

class MetricThresholds {
public:
    // nullopt: no limit on that metric. TimeMs has none.
    void set(NodeMetric metric, std::optional<double> limit);
    std::optional<double> limit(NodeMetric metric) const;
    bool any() const;

    // Beyond the limit: above it for errors, below it for cosine and SQNR.
    bool crosses(NodeMetric metric, double value) const;
    bool crosses(const OutputError& row, NodeMetric metric) const { return crosses(metric, metricOf(row, metric)); }
    // Failing the tolerance, or across any limit.
    bool flags(const OutputError& row) const;

private:
    std::array<std::optional<double>, 7> limits_{};
};

}  // namespace irscope::exec
