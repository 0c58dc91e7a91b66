#pragma once
// Per-node numbers for the graph's overlays (time, max |x|, NaN/Inf; the
// differences against the reference come from the reference check), kept as
// nodes run so that colouring a 100,000-node graph never reads a tensor twice. One value per node; NaN
// means "nothing to show". Torch-free; not thread-safe (the Debugger locks).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace irscope::exec {

// Difference and the Error* kinds are the reference check's metrics (max
// abs, max rel, mean abs, MSE, cosine, SQNR per node: the worst over its
// outputs); Imported is node data loaded from a file.
enum class OverlayKind {
    None,
    Time,
    MaxAbs,
    NanInf,
    Difference,
    ErrorMaxRel,
    ErrorMeanAbs,
    ErrorMse,
    ErrorCosine,
    ErrorSqnr,
    Imported
};

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
