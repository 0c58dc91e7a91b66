#pragma once
// The one entry point for tensor files: detects the format by content and
// reads it into a TensorMap; writes by extension. The formats themselves are
// registered in core/io/formats/ (see tensor_format.h).
//
// Formats: torch.save zip (PyTorch >= 1.6), torch.save legacy (< 1.6),
// .safetensors, .npy, a directory of .npy files keyed by stem, and sharded
// Hugging Face checkpoints (an index or a directory of shards). Nothing a
// file says is ever executed: pickles go through a restricted unpickler.
#include <string>

#include "core/io/read_options.h"
#include "core/io/tensor_file_error.h"
#include "core/io/tensor_map.h"

namespace irscope::io {

// The name of the format that claims the path by content (extension
// ignored): "torch.save (zip)", "safetensors", ...; "unknown" when none does.
// Throws TensorFileError when the path cannot be opened.
std::string detectTensorFileFormat(const std::string& path);

// Throws TensorFileError ("FILE: reason") on any failure.
TensorMap readTensorFile(const std::string& path, const ReadOptions& options = {});

// By extension, through the registered formats: .pt/.pth/.bin (torch.save
// zip), .safetensors, .npy (exactly one tensor). Writes a temporary file next to path and renames it, so a
// failed write never leaves a half-written file. Refuses a map with skipped
// tensors. Throws TensorFileError.
void writeTensorFile(const TensorMap& tensors, const std::string& path);

}  // namespace irscope::io
