#pragma once
// What the tensor panels show of one tensor, as plain types: its summary
// (io::TensorSummary, the one definition), the tensor seen as a stack of 2-D
// slices, a histogram and a heatmap of one slice. Computed by tensor_probes.h;
// torch-free so that widget files include it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/io/tensor_stats.h"

namespace irscope::exec {

// Which tensor a query reads.
enum class ValueSide { Actual, Reference, Difference };  // Difference: actual - reference

// The summary panel shows io::TensorSummary (core/io/tensor_stats.h).
using io::TensorSummary;

// A tensor seen as a stack of 2-D slices: [lead..., rows, cols]. 0-D is 1x1,
// 1-D is n x 1.
struct SliceGeometry {
    std::vector<int64_t> shape;
    std::vector<int64_t> lead;  // sizes of the leading dims (ndim - 2 of them, or none)
    int64_t rows = 0, cols = 0;
    std::string dtype;
    bool integral = false;  // integer or bool dtype (format without decimals)
};

struct Histogram {
    double lo = 0, hi = 0;        // range of the finite values
    std::vector<int64_t> counts;  // equal-width bins over [lo, hi]
    int64_t finite = 0, nans = 0, posInfs = 0, negInfs = 0;
};

struct Heatmap {
    int64_t rows = 0, cols = 0;            // of the returned (maybe subsampled) grid
    int64_t sliceRows = 0, sliceCols = 0;  // of the slice itself
    int64_t stride = 1;                    // subsampling step (1: every element)
    std::vector<float> values;             // row-major; NaN/Inf kept
    double min = 0, max = 0;               // over finite values
};

}  // namespace irscope::exec
