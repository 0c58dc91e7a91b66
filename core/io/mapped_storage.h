#pragma once
// Storages over byte ranges of a MappedFile, shared by the three readers.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <c10/core/Storage.h>

#include "core/io/mapped_file.h"

namespace irscope::io {

// An at::Storage of nbytes at ptr (inside file). Zero-copy -- the storage
// holds the mapping -- unless copy is asked for or ptr is not aligned to
// `alignment` (a misaligned double would be undefined behaviour), in which
// case the bytes are copied into fresh CPU memory.
c10::Storage storageOverFile(const std::shared_ptr<MappedFile>& file, const uint8_t* ptr, size_t nbytes,
                             size_t alignment, bool copy);

// Why a view (sizes, strides, storage offset, all in elements) does not fit
// in a storage of storageElements elements, or nullopt when it fits. Checks
// negative values and 64-bit overflow, so any file's numbers are safe to test.
std::optional<std::string> checkView(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                                     int64_t storageOffset, int64_t storageElements);

// Row-major strides of a shape, in elements.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& sizes);

// Product of dims, nullopt when negative or past 2^63.
std::optional<int64_t> checkedNumel(const std::vector<int64_t>& sizes);

}  // namespace irscope::io
