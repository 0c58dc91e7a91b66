#pragma once
// Shapes, strides and storage extents as a file states them, checked for
// negative values and 64-bit overflow, so any file's numbers are safe to test
// before anything is mapped or allocated from them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace irscope::io {

// Why a view (sizes, strides, storage offset, all in elements) does not fit
// in a storage of storageElements elements, or nullopt when it fits.
std::optional<std::string> checkView(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                                     int64_t storageOffset, int64_t storageElements);

// Row-major strides of a shape, in elements.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& sizes);

// Product of dims, nullopt when negative or past 2^63.
std::optional<int64_t> checkedNumel(const std::vector<int64_t>& sizes);

// "[2, 3]", for messages.
std::string shapeText(const std::vector<int64_t>& shape);

}  // namespace irscope::io
