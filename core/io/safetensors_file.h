#pragma once
// .safetensors files: read memory-mapped (tensors point into the mapping and
// keep it alive; nothing is read until used), written as the reference
// format requires.
#include <memory>
#include <string>

#include "core/io/mapped_file.h"
#include "core/io/read_options.h"
#include "core/io/tensor_map.h"

namespace irscope::io {

// Tensors of a dtype libtorch 1.13 lacks (F8_*, F4, F6_*, U16/U32/U64) are
// listed in TensorMap::skipped() and the rest stays readable.
TensorMap readSafetensors(const std::shared_ptr<MappedFile>& file, const ReadOptions& options);
void writeSafetensors(const TensorMap& tensors, const std::string& path);

}  // namespace irscope::io
