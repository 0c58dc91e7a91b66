// The restricted unpickler and the tensor-tree walk over arbitrary bytes:
// any input may be refused (FormatError), none may crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/catalog/pickle_tree.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/catalog/unpickler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace irscope::io;
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        UnpickleResult r = unpickle(bytes);
        (void)collectTensors(r.arena, r.root, "", "x");
        (void)collectTensors(r.arena, r.root, "state_dict", "x");
        for (size_t k = 0; k < r.arena.size(); ++k)
            (void)r.arena.describe(PickleValue::object(static_cast<uint32_t>(k)));
    } catch (const FormatError&) {}
    return 0;
}
