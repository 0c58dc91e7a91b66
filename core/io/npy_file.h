#pragma once
// NumPy .npy files (one tensor each) and directories of them.
#include <memory>
#include <string>

#include <ATen/core/Tensor.h>

#include "core/io/mapped_file.h"
#include "core/io/read_options.h"
#include "core/io/tensor_map.h"

namespace irscope::io {

// One tensor named after the file's stem. Throws TensorFileError.
TensorMap readNpy(const std::shared_ptr<MappedFile>& file, const ReadOptions& options);
// Every *.npy in the directory (not recursive), keyed by stem, sorted by name.
TensorMap readNpyDirectory(const std::string& directory, const ReadOptions& options);
void writeNpy(const at::Tensor& tensor, const std::string& path);

}  // namespace irscope::io
