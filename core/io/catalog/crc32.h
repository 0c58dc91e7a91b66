#pragma once
// CRC-32 (zip's polynomial), for checking and writing zip records.
#include <cstddef>
#include <cstdint>

namespace irscope::io {

uint32_t crc32(const void* data, size_t size, uint32_t crc = 0);

}  // namespace irscope::io
