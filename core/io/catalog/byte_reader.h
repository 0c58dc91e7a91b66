#pragma once
// Little-endian reads at checked positions of a byte buffer. Every parser of
// untrusted bytes goes through these: an out-of-range read throws FormatError.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/io/catalog/tensor_file_error.h"

namespace irscope::io {

inline bool fitsIn(uint64_t offset, uint64_t length, uint64_t size) {
    return offset <= size && length <= size - offset;
}

template <typename T>
T readLE(std::string_view buffer, uint64_t offset, const char* what) {
    if (!fitsIn(offset, sizeof(T), buffer.size()))
        throw FormatError(std::string("truncated: ") + what + " lies past the end of the data");
    T value;
    std::memcpy(&value, buffer.data() + offset, sizeof(T));  // host is little-endian (x86, arm64)
    return value;
}

}  // namespace irscope::io
