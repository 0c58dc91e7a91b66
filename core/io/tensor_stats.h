#pragma once
// The statistics of a live tensor (an intermediate, a loaded weight): the
// raw-memory kernel for float, double, half and bfloat16, ATen in blocks of a
// million elements for the rest, so a large tensor never needs a full float64
// copy. TensorSummary itself is torch-free (core/io/catalog/tensor_summary.h):
// the GUI includes this header without torch (at::Tensor is only declared).
#include "core/io/catalog/tensor_summary.h"

namespace at {
class Tensor;
}

namespace irscope::io {

TensorSummary summarize(const at::Tensor& tensor);

}  // namespace irscope::io
