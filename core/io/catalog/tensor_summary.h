#pragma once
// The statistics of one tensor, one definition for every place that shows
// them: `irscope tensors`, `irscope run`'s outputs, the GUI's summary panel.
// Plain types, no libtorch: the listing computes them straight from a file's
// mapping (core/io/catalog/tensor_listing), a live tensor goes through
// core/io/tensor_stats.h.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace irscope::io {

struct StatsAccumulator;

struct TensorSummary {
    std::vector<int64_t> shape;
    std::string dtype;  // torch_ir spelling: "float32"
    int64_t numel = 0;
    size_t bytes = 0;  // numel * element size
    // Over finite values (NaN/Inf excluded); all 0 when there are none.
    // Complex tensors are summarized by magnitude; bool as 0/1.
    double min = 0, max = 0, mean = 0, std = 0;  // std unbiased, as torch.std
    int64_t zeros = 0, nans = 0, infs = 0, posInfs = 0, negInfs = 0;
    int64_t finite = 0;

    // What torch.min / max / mean of the whole tensor give: NaN when it holds
    // a NaN, an infinity when one wins; NaN for an empty tensor.
    double torchMin() const;
    double torchMax() const;
    double torchMean() const;
};

// Fills the counts and moments of `s` from a finished accumulator.
void applyAccumulator(const StatsAccumulator& accumulator, TensorSummary& s);

}  // namespace irscope::io
