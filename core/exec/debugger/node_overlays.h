#pragma once
// Per-node numbers for the graph's overlays (time, max |x|, NaN/Inf; the
// differences against the reference come from the reference check), kept as
// nodes run so that colouring a 100,000-node graph never reads a tensor twice. One value per node; NaN
// means "nothing to show". Torch-free; not thread-safe (the Debugger locks).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/exec/numerics/overlay_kind.h"

namespace irscope::exec {

class NodeOverlays {
public:
    // Forgets everything (a new run, new values).
    void reset(size_t nodeCount);
    // A node ran: max |x| over its outputs (NaN when none finite), NaN/Inf
    // present; `hasOutputs` false leaves its NaN/Inf cell empty.
    void recordRun(int64_t node, double maxAbs, bool nanOrInf, bool hasOutputs);
    const std::vector<double>& maxAbs() const { return maxAbs_; }
    const std::vector<double>& nanInf() const { return nanInf_; }

private:
    std::vector<double> maxAbs_, nanInf_;
};

}  // namespace irscope::exec
