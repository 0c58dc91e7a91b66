#include "core/exec/numerics/node_metric.h"

#include <cmath>
#include <limits>

namespace irscope::exec {

const char* nodeMetricName(NodeMetric m) {
    if (const ErrorMetricInfo* info = errorMetricInfo(m)) return info->key;
    return m == NodeMetric::TimeMs ? "time_ms" : "?";
}

const std::vector<NodeMetric>& allNodeMetrics() {
    static const std::vector<NodeMetric> all = [] {
        std::vector<NodeMetric> v;
        for (const auto& m : kErrorMetrics) v.push_back(m.metric);
        v.push_back(NodeMetric::TimeMs);
        return v;
    }();
    return all;
}

std::optional<NodeMetric> nodeMetricNamed(const std::string& name) {
    for (NodeMetric m : allNodeMetrics())
        if (name == nodeMetricName(m)) return m;
    return std::nullopt;
}

bool higherIsBetter(NodeMetric m) {
    const ErrorMetricInfo* info = errorMetricInfo(m);
    return info && info->higherIsBetter;
}

double metricOf(const OutputError& row, NodeMetric metric) {
    const ErrorMetricInfo* info = errorMetricInfo(metric);
    if (!info || !row.metrics.comparable()) return std::numeric_limits<double>::quiet_NaN();
    return row.metrics.*(info->field);
}

double worseOf(NodeMetric metric, double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? a : b;
    return higherIsBetter(metric) ? std::min(a, b) : std::max(a, b);
}

std::vector<double> nodeMetricValues(const ErrorReport& report, size_t nodeCount, NodeMetric metric) {
    return nodeMetricValues(std::span<const OutputError>(report.outputs), nodeCount, metric);
}

std::vector<double> nodeMetricValues(std::span<const OutputError> rows, size_t nodeCount, NodeMetric metric) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> out(nodeCount, nan);
    std::vector<char> seen(nodeCount, 0);
    for (const auto& row : rows) {
        if (row.node < 0 || static_cast<size_t>(row.node) >= nodeCount) continue;
        const auto i = static_cast<size_t>(row.node);
        // A compared row without a number (NaN in the data, a shape that
        // differs) is as bad as it gets: the node must show, not vanish.
        double v = metricOf(row, metric);
        if (std::isnan(v)) v = higherIsBetter(metric) ? -INFINITY : INFINITY;
        out[i] = seen[i] ? worseOf(metric, out[i], v) : v;
        seen[i] = 1;
    }
    return out;
}

std::string nodeDataGraphId(const ir::Graph& graph) { return graph.modelName.empty() ? "main" : graph.modelName; }

exporter::NodeData nodeMetricData(const ir::Graph& graph, const std::vector<double>& perNode, NodeMetric metric,
                                  const Tolerance& tol, const std::string& graphId) {
    exporter::NodeData data;
    data.graphId = graphId;
    for (size_t i = 0; i < perNode.size() && i < graph.nodes.size(); ++i)
        if (!std::isnan(perNode[i])) data.values.emplace_back(graph.nodes[i].name, perNode[i]);
    const double top = std::numeric_limits<double>::infinity();
    const std::string green = "#a5d6a7", amber = "#ffcc80", red = "#ef9a9a";
    // The colour bands follow float32's tolerance (or the user's): the dtype
    // nearly every node of a graph worth colouring computes in.
    const AppliedTolerance t = tol.appliedToFloat32();
    const double band = t.atol + t.rtol;  // an error this small passes allclose for |ref| <= 1
    switch (metric) {
    case NodeMetric::MaxAbs:
    case NodeMetric::MeanAbs: data.thresholds = {{band, green}, {100 * band, amber}, {top, red}}; break;
    case NodeMetric::MaxRel: data.thresholds = {{t.rtol, green}, {100 * t.rtol, amber}, {top, red}}; break;
    case NodeMetric::Mse: data.thresholds = {{band * band, green}, {1e4 * band * band, amber}, {top, red}}; break;
    case NodeMetric::Cosine: data.thresholds = {{0.99, red}, {0.9999, amber}, {top, green}}; break;
    case NodeMetric::SqnrDb: data.thresholds = {{20, red}, {40, amber}, {top, green}}; break;
    case NodeMetric::TimeMs: break;  // no verdict: Model Explorer's own gradient colours it
    }
    return data;
}

}  // namespace irscope::exec
