#pragma once
// One number per node from an ErrorReport (or the run's timings): what the
// graph overlay colours by, the Differences dock aggregates onto collapsed
// modules, and `--node-data` exports. A node with several outputs takes its
// worst: the largest error, the lowest cosine or SQNR. Torch-free, and in a
// light part (irscope_exec_terms): the window lists and names the metrics
// before the execution engine is loaded. (Timings: node_times.h.)
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/exec/numerics/error_metric_table.h"
#include "core/exec/numerics/error_report.h"
#include "core/export/node_data.h"

namespace irscope::exec {

// The error metrics' keys (error_metric_table.h), and "time_ms".
const char* nodeMetricName(NodeMetric metric);
std::optional<NodeMetric> nodeMetricNamed(const std::string& name);
const std::vector<NodeMetric>& allNodeMetrics();
// Cosine and SQNR: higher means closer to the reference.
bool higherIsBetter(NodeMetric metric);
// The metric of one row (TimeMs: NaN; it is not in the report).
double metricOf(const OutputError& row, NodeMetric metric);
// Worst of a and b under the metric's order (NaN is worst of all).
double worseOf(NodeMetric metric, double a, double b);

// Per node (nodeCount entries): the worst over its rows; NaN where it has
// none. A row whose metric is NaN (NaN in the data, not comparable) counts as
// the worst value there is (+inf, or -inf for cosine and SQNR).
std::vector<double> nodeMetricValues(const ErrorReport& report, size_t nodeCount, NodeMetric metric);
std::vector<double> nodeMetricValues(std::span<const OutputError> rows, size_t nodeCount, NodeMetric metric);
// The graph id node data is written under: the model's name, else "main".
std::string nodeDataGraphId(const ir::Graph& graph);

// Node data for Model Explorer: values by node name (NaN left out), and
// thresholds that colour "within tolerance" green and the rest amber or red.
exporter::NodeData nodeMetricData(const ir::Graph& graph, const std::vector<double>& perNode, NodeMetric metric,
                                  const Tolerance& tolerance, const std::string& graphId);

}  // namespace irscope::exec
