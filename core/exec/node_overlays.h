#pragma once
// Per-node numbers for the graph's overlays (time, max |x|, NaN/Inf, the
// difference against the reference), kept as nodes run so that colouring a
// 100,000-node graph never reads a tensor twice. One value per node; NaN
// means "nothing to show". Torch-free; not thread-safe (the Debugger locks).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace irscope::exec {

enum class OverlayKind { None, Time, MaxAbs, NanInf, Difference };

class NodeOverlays {
public:
    // Forgets everything (a new run, new values).
    void reset(size_t nodeCount);
    // A node ran: max |x| over its outputs (NaN when none finite), NaN/Inf
    // present; `hasOutputs` false leaves its NaN/Inf cell empty.
    void recordRun(int64_t node, double maxAbs, bool nanOrInf, bool hasOutputs);
    const std::vector<double>& maxAbs() const { return maxAbs_; }
    const std::vector<double>& nanInf() const { return nanInf_; }

    // The difference overlay is computed lazily per node and cached until the
    // reference or the tolerance changes.
    bool cachedDifference(int64_t node, double& value) const;
    void cacheDifference(int64_t node, double value);
    void forgetDifferences();

private:
    std::vector<double> maxAbs_, nanInf_, difference_;
    std::vector<char> differenceKnown_;
};

}  // namespace irscope::exec
