#pragma once
// The one entry point for what a tensor file holds: detects the format by
// content and describes the file as a TensorCatalog, without libtorch and
// without reading tensor data (safetensors and torch.save data stay in the
// mapping until something reads them).
//
// Formats: torch.save zip (PyTorch >= 1.6), torch.save legacy (< 1.6),
// .safetensors, .npy, a directory of .npy files keyed by stem, and sharded
// Hugging Face checkpoints (an index or a directory of shards). Nothing a
// file says is ever executed: pickles go through a restricted unpickler.
#include <string>

#include "core/io/catalog/read_options.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/catalog/tensor_record.h"

namespace irscope::io {

// The name of the format that claims the path by content (extension
// ignored): "torch.save (zip)", "safetensors", ...; "unknown" when none does.
// Throws TensorFileError when the path cannot be opened.
std::string detectTensorFileFormat(const std::string& path);

// Throws TensorFileError ("FILE: reason") on any failure.
TensorCatalog describeTensorFile(const std::string& path, const ReadOptions& options = {});

}  // namespace irscope::io
