#include "core/exec/node_overlays.h"

#include <limits>

namespace irscope::exec {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
bool inRange(int64_t node, size_t n) { return node >= 0 && static_cast<size_t>(node) < n; }
}  // namespace

void NodeOverlays::reset(size_t n) {
    maxAbs_.assign(n, kNaN);
    nanInf_.assign(n, kNaN);
}

void NodeOverlays::recordRun(int64_t node, double maxAbs, bool nanOrInf, bool hasOutputs) {
    if (!inRange(node, maxAbs_.size())) return;
    maxAbs_[node] = maxAbs;
    nanInf_[node] = hasOutputs ? (nanOrInf ? 1 : 0) : kNaN;
}

}  // namespace irscope::exec
