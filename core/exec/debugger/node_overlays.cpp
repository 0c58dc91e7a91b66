#include "core/exec/debugger/node_overlays.h"

#include <limits>

namespace irscope::exec {

namespace {
constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();
bool inRange(int64_t node, size_t n) { return node >= 0 && static_cast<size_t>(node) < n; }
}  // namespace

void NodeOverlays::reset(size_t n) {
    maxAbs_.assign(n, kNoValue);
    nanInf_.assign(n, kNoValue);
}

void NodeOverlays::recordRun(int64_t node, double maxAbs, bool nanOrInf, bool hasOutputs) {
    if (!inRange(node, maxAbs_.size())) return;
    maxAbs_[node] = maxAbs;
    nanInf_[node] = hasOutputs ? (nanOrInf ? 1 : 0) : kNoValue;
}

}  // namespace irscope::exec
