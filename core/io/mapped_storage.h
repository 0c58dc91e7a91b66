#pragma once
// Storages over byte ranges of a MappedFile: how a catalog record becomes
// an at::Tensor without copying (core/io/tensor_materialize).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <c10/core/Storage.h>

#include "core/io/catalog/mapped_file.h"
#include "core/io/catalog/tensor_geometry.h"

namespace irscope::io {

// An at::Storage of nbytes at ptr (inside file). Zero-copy -- the storage
// holds the mapping -- unless copy is asked for or ptr is not aligned to
// `alignment` (a misaligned double would be undefined behaviour), in which
// case the bytes are copied into fresh CPU memory.
c10::Storage storageOverFile(const std::shared_ptr<MappedFile>& file, const uint8_t* ptr, size_t nbytes,
                             size_t alignment, bool copy);

}  // namespace irscope::io
