#pragma once
// Tensor files as at::Tensors: readTensorFile describes the file
// (core/io/catalog/tensor_catalog.h, torch-free) and materializes the
// catalog; writeTensorFile picks a writer by extension (tensor_writer.h).
#include <string>

#include "core/io/catalog/read_options.h"
#include "core/io/catalog/tensor_catalog.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/tensor_map.h"

namespace irscope::io {

// Throws TensorFileError ("FILE: reason") on any failure.
TensorMap readTensorFile(const std::string& path, const ReadOptions& options = {});

// By extension, through the registered writers: .pt/.pth/.bin (torch.save
// zip), .safetensors, .npy (exactly one tensor). Writes a temporary file next
// to path and renames it, so a failed write never leaves a half-written file.
// Refuses a map with skipped tensors. Throws TensorFileError.
void writeTensorFile(const TensorMap& tensors, const std::string& path);

}  // namespace irscope::io
