#pragma once
// `irscope convert`: one tensor file rewritten in another format, torch-free
// for the CLI. Values and dtypes are kept bit for bit.
#include <cstddef>
#include <string>

#include "core/io/read_options.h"

namespace irscope::io {

// Reads `in` (any readable format, checksums verified) and writes `out` by its
// extension. Returns the number of tensors written. Throws TensorFileError.
size_t convertTensorFile(const std::string& in, const std::string& out, const ReadOptions& options = {});

}  // namespace irscope::io
