// The safetensors header parser over arbitrary bytes (the whole "file"), and
// its two readers against each other: whatever the canonical-shape scanner
// accepts, the full JSON reader must accept with the same tensors and
// metadata (core/io/catalog/safetensors_fast_scan.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/catalog/safetensors_fast_scan.h"
#include "core/io/catalog/safetensors_header.h"
#include "core/io/catalog/tensor_file_error.h"

namespace {

bool sameEntries(const irscope::io::SafetensorsHeader& a, const irscope::io::SafetensorsHeader& b) {
    if (a.tensors.size() != b.tensors.size() || a.metadata != b.metadata) return false;
    for (size_t k = 0; k < a.tensors.size(); ++k) {
        const auto& x = a.tensors[k];
        const auto& y = b.tensors[k];
        if (x.name != y.name || x.dtype != y.dtype || x.shape != y.shape || x.begin != y.begin || x.end != y.end)
            return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace irscope::io;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        SafetensorsHeader h = parseSafetensorsHeader(bytes);
        // Every accepted tensor lies inside the file: what the reader relies on.
        for (const auto& e : h.tensors)
            if (e.end < e.begin || h.dataStart + e.end > size) __builtin_trap();
    } catch (const FormatError&) {}
    // The header text as parseSafetensorsHeader cuts it (past the 8-byte size).
    if (size > 8) {
        const std::string_view text = bytes.substr(8);
        if (auto fast = scanCanonicalHeader(text)) {
            try {
                if (!sameEntries(*fast, readHeaderJson(text))) __builtin_trap();
            } catch (const FormatError&) {
                __builtin_trap();  // the scanner accepted what the JSON reader refuses
            }
        }
    }
    return 0;
}
