// The .npy header parser over arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/catalog/npy_header.h"
#include "core/io/catalog/tensor_file_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace irscope::io;
    try {
        NpyHeader h = parseNpyHeader(std::string_view(reinterpret_cast<const char*>(data), size));
        if (h.dataOffset > size) __builtin_trap();
        (void)npyDType(h.descr);
    } catch (const FormatError&) {}
    return 0;
}
