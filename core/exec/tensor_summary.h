#pragma once
// Summary statistics of one tensor, for panels and CLI listings. Plain types:
// the GUI includes this without paying for torch headers.
#include <cstdint>
#include <string>
#include <vector>

namespace at {
class Tensor;
}

namespace irscope::exec {

struct TensorSummary {
    std::vector<int64_t> shape;
    std::string dtype;            // torch_ir spelling: "float32"
    int64_t numel = 0;
    size_t bytes = 0;             // numel * element size
    // Over finite values (NaN/Inf excluded); all 0 when there are none.
    // Complex tensors are summarized by magnitude; bool as 0/1.
    double min = 0, max = 0, mean = 0, std = 0;
    int64_t zeros = 0, nans = 0, infs = 0;
    int64_t finite = 0;
};

TensorSummary summarize(const at::Tensor& tensor);

}  // namespace irscope::exec
