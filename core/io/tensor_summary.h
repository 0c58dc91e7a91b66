#pragma once
// Torch-free views of tensor files for the CLI and widgets, which must not
// include torch headers: a per-tensor summary, and whole-file conversion.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/io/read_options.h"

namespace irscope::io {

struct TensorSummary {
    std::string name;
    std::string dtype;              // torch_ir spelling ("float32", "bfloat16", "float8_e4m3fn")
    std::vector<int64_t> shape;
    bool supported = true;          // false: listed by the file, not loadable by libtorch 1.13
    std::string note;               // why not supported
    // Floating tensors only, when asked for; NaN when the tensor holds one
    // (as torch.min/max do); nullopt for empty tensors.
    std::optional<double> min, max, mean;
};

// Throws TensorFileError. stats reads every floating tensor's data.
std::vector<TensorSummary> summarizeTensorFile(const std::string& path, const ReadOptions& options, bool stats);

// Reads `in` (any readable format, checksums verified) and writes `out` by its
// extension; values and dtypes are kept bit for bit. Returns the number of
// tensors written. Throws TensorFileError.
size_t convertTensorFile(const std::string& in, const std::string& out, const ReadOptions& options = {});

}  // namespace irscope::io
