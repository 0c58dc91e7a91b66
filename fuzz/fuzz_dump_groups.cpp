// check-dump's groups file (GROUPS.json) over arbitrary bytes: parsed or
// refused with a message, never a crash; a parsed layout is a permutation.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "core/ir/dump_groups.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const auto groups =
            irscope::ir::parseDumpGroups(std::string_view(reinterpret_cast<const char*>(data), size), "groups.json");
        for (const auto& g : groups) {
            std::vector<char> seen(g.permutation.size(), 0);
            for (int64_t d : g.permutation) {
                if (d < 0 || d >= static_cast<int64_t>(seen.size()) || seen[static_cast<size_t>(d)]) __builtin_trap();
                seen[static_cast<size_t>(d)] = 1;
            }
            if (g.quantized() && !(g.scale > 0)) __builtin_trap();
        }
    } catch (const std::runtime_error&) {}
    return 0;
}
