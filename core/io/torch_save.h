#pragma once
// torch.save files: the zip format (PyTorch >= 1.6) and the legacy one,
// read through the restricted unpickler; written in the zip format that
// torch.load(f, weights_only=True) reads back.
#include <memory>
#include <string>

#include "core/io/mapped_file.h"
#include "core/io/read_options.h"
#include "core/io/tensor_map.h"

namespace irscope::io {

// Both throw TensorFileError naming the file.
TensorMap readTorchSaveZip(const std::shared_ptr<MappedFile>& file, const ReadOptions& options);
TensorMap readTorchSaveLegacy(const std::shared_ptr<MappedFile>& file, const ReadOptions& options);

// Writes an OrderedDict of tensors. Tensors that share a storage (tied
// weights, views) share it in the file too. Throws TensorFileError.
void writeTorchSave(const TensorMap& tensors, const std::string& path);

}  // namespace irscope::io
