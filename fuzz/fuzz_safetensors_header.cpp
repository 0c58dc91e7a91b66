// The safetensors header parser over arbitrary bytes (the whole "file").
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/catalog/safetensors_header.h"
#include "core/io/catalog/tensor_file_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace irscope::io;
    try {
        SafetensorsHeader h = parseSafetensorsHeader(std::string_view(reinterpret_cast<const char*>(data), size));
        // Every accepted tensor lies inside the file: what the reader relies on.
        for (const auto& e : h.tensors)
            if (e.end < e.begin || h.dataStart + e.end > size) __builtin_trap();
    } catch (const FormatError&) {}
    return 0;
}
