#pragma once
// Pure functions from a tensor to what the tensor panels show (probe_types.h).
// They never copy a whole tensor to look at part of it: a slice is a view,
// cut (narrowed or strided) before anything is converted. Internal to core
// (torch headers); the GUI reaches them through Debugger.
#include <functional>
#include <optional>
#include <vector>

#include <ATen/core/Tensor.h>

#include "core/exec/numerics/probe_types.h"

namespace irscope::exec {

// A view of the tensor as the 2-D slice at `lead` ([lead..., rows, cols]);
// indices are clamped; 0-D is 1x1, 1-D is n x 1.
at::Tensor sliceView(const at::Tensor& tensor, const std::vector<int64_t>& lead);
// Complex values by magnitude; anything else as it is.
at::Tensor realPart(const at::Tensor& tensor);
// actual - reference in float64 (by magnitude for complex); undefined when
// either is missing or the shapes differ.
at::Tensor difference(const at::Tensor& actual, const at::Tensor& reference);

// `dtype` "float64" and not integral for a Difference.
SliceGeometry sliceGeometry(const at::Tensor& tensor, bool isDifference);
// Rows [row0, row0+nrows) x cols [col0, col0+ncols) of a 2-D slice (clamped).
at::Tensor cutBlock(const at::Tensor& slice, int64_t row0, int64_t col0, int64_t nrows, int64_t ncols);
// A 2-D block as row-major doubles (bool as 0/1, complex by magnitude).
std::vector<double> blockValues(const at::Tensor& block);
Histogram histogramOf(const at::Tensor& tensor, int bins);
// The heatmap's cut of a 2-D slice: strided so that neither side exceeds
// maxSide; fills the slice and stride fields of `heatmap`.
at::Tensor cutHeatmap(const at::Tensor& slice, int64_t maxSide, Heatmap& heatmap);
// Fills values, rows, cols, min, max from the cut.
void fillHeatmap(const at::Tensor& cut, Heatmap& heatmap);

// Per node, after it ran: max |x| over its finite outputs (NaN when none),
// and whether any output holds NaN/Inf.
struct OutputStats {
    double maxAbs;
    bool nanOrInf = false;
};
OutputStats outputStats(c10::ArrayRef<at::Tensor> outputs);

}  // namespace irscope::exec
