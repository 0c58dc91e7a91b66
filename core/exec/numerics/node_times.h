#pragma once
// The run's timings as one number per node: the TimeMs metric of the graph
// overlay and of `--node-data` (node_metric.h holds the error metrics).
#include <vector>

namespace irscope::exec {

class Session;

// Milliseconds per node that ran in `session` (NaN for the rest).
std::vector<double> nodeTimesMs(const Session& session);

}  // namespace irscope::exec
