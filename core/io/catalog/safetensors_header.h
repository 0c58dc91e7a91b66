#pragma once
// The header of a .safetensors file, checked as the reference reader
// (huggingface/safetensors, src/tensor.rs) checks it: header size bound,
// JSON, known dtypes, overflow-checked sizes, offsets that tile the data
// exactly; and, beyond it, no duplicate names. No libtorch: fuzzable alone.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace irscope::io {

inline constexpr uint64_t kSafetensorsMaxHeader = 100'000'000;

struct SafetensorsEntry {
    std::string name;
    std::string dtype;  // as in the file: "F32", "BF16", "F8_E4M3"
    std::vector<int64_t> shape;
    uint64_t begin = 0, end = 0;  // relative to dataStart
};

struct SafetensorsHeader {
    std::vector<SafetensorsEntry> tensors;                      // header order
    std::vector<std::pair<std::string, std::string>> metadata;  // __metadata__
    uint64_t dataStart = 0;                                     // 8 + header size
};

// file: the whole file's bytes (only the header is read; the size matters).
// Throws FormatError.
SafetensorsHeader parseSafetensorsHeader(std::string_view file);

// Bits per element of a safetensors dtype, 0 when unknown.
int safetensorsDTypeBits(std::string_view dtype);
// torch_ir/torch spelling of a safetensors dtype ("F32" -> "float32",
// "F8_E4M3" -> "float8_e4m3fn"); the safetensors name when torch has none.
std::string safetensorsDTypeTorchName(std::string_view dtype);
// The reverse, for writing: "float32" -> "F32"; "" when safetensors has none.
std::string safetensorsDTypeFromTorchName(std::string_view name);

}  // namespace irscope::io
