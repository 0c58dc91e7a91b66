#include "core/exec/node_overlays.h"

#include <algorithm>
#include <limits>

namespace irscope::exec {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
bool inRange(int64_t node, size_t n) { return node >= 0 && static_cast<size_t>(node) < n; }
}  // namespace

void NodeOverlays::reset(size_t n) {
    maxAbs_.assign(n, kNaN);
    nanInf_.assign(n, kNaN);
    difference_.assign(n, kNaN);
    differenceKnown_.assign(n, 0);
}

void NodeOverlays::recordRun(int64_t node, double maxAbs, bool nanOrInf, bool hasOutputs) {
    if (!inRange(node, maxAbs_.size())) return;
    maxAbs_[node] = maxAbs;
    nanInf_[node] = hasOutputs ? (nanOrInf ? 1 : 0) : kNaN;
}

bool NodeOverlays::cachedDifference(int64_t node, double& value) const {
    if (!inRange(node, differenceKnown_.size()) || !differenceKnown_[node]) return false;
    value = difference_[node];
    return true;
}

void NodeOverlays::cacheDifference(int64_t node, double value) {
    if (!inRange(node, difference_.size())) return;
    difference_[node] = value;
    differenceKnown_[node] = 1;
}

void NodeOverlays::forgetDifferences() { std::fill(differenceKnown_.begin(), differenceKnown_.end(), 0); }

}  // namespace irscope::exec
