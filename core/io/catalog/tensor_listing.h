#pragma once
// What `irscope tensors` lists of a tensor file, without libtorch: each
// tensor's name, dtype and shape, the ones libtorch 1.13 cannot load (and
// why), and on request the statistics of the floating ones, computed straight
// from the file's mapping by the vectorized kernel, in parallel over tensors.
#include <optional>
#include <string>
#include <vector>

#include "core/io/catalog/read_options.h"
#include "core/io/catalog/tensor_summary.h"

namespace irscope::io {

struct TensorListing {
    std::string name;
    std::string dtype;  // torch_ir spelling ("float32", "bfloat16", "float8_e4m3fn")
    std::vector<int64_t> shape;
    bool supported = true;               // false: listed by the file, not loadable by libtorch 1.13
    std::string note;                    // why not supported
    std::string subclass;                // a tensor subclass: what it is made of (tensor_subclass.h)
    std::optional<TensorSummary> stats;  // floating tensors, when asked for
};

// File order. Throws TensorFileError. `stats` reads every floating tensor's data.
std::vector<TensorListing> listTensorFile(const std::string& path, const ReadOptions& options, bool stats);

}  // namespace irscope::io
