#pragma once
// DebuggerTensors: the Debugger's part that answers questions about one
// tensor by name (node outputs, graph inputs, placeholders and original
// names, and `op/subgraph/tensor` names inside a frame): whether it has a
// value, where it comes from, its summary, slices, histogram and heatmap, its
// comparison with the reference, and writing it to a file. Every function is
// const and may be called from any thread, also while a run goes on. No
// torch headers.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/numerics/probe_types.h"
#include "core/exec/numerics/verify.h"
#include "core/exec/values/value_text.h"

namespace irscope::exec {

struct DebuggerCore;

class DebuggerTensors {
public:
    explicit DebuggerTensors(DebuggerCore& core) : core_(core) {}

    bool hasValue(const std::string& tensor) const;
    bool hasReference(const std::string& tensor) const;
    // Where a tensor comes from: "node 'mul' output 0", "weight", "input", "" when unknown.
    std::string describe(const std::string& tensor) const;
    std::optional<TensorSummary> summary(const std::string& tensor, ValueSide side = ValueSide::Actual) const;
    std::optional<SliceGeometry> geometry(const std::string& tensor, ValueSide side = ValueSide::Actual) const;
    // Rows [row0, row0+nrows) x cols [col0, col0+ncols) of the slice at `lead`
    // (clamped to the slice), row-major, as doubles (bool as 0/1, complex by magnitude).
    std::vector<double> block(const std::string& tensor, const std::vector<int64_t>& lead, int64_t row0, int64_t col0,
                              int64_t nrows, int64_t ncols, ValueSide side = ValueSide::Actual) const;
    std::optional<Histogram> histogram(const std::string& tensor, int bins, ValueSide side = ValueSide::Actual) const;
    // The slice at `lead`, subsampled so that neither side exceeds maxSide.
    std::optional<Heatmap> heatmap(const std::string& tensor, const std::vector<int64_t>& lead, int64_t maxSide = 512,
                                   ValueSide side = ValueSide::Actual) const;
    // Against the reference, under the current tolerance; `problem` says why not comparable.
    Comparison compare(const std::string& tensor) const;
    // .npy (one tensor), .pt/.pth/.bin or .safetensors by extension. Throws std::runtime_error.
    void exportTensor(const std::string& tensor, const std::string& path, ValueSide side = ValueSide::Actual) const;

private:
    DebuggerCore& core_;
};

}  // namespace irscope::exec
