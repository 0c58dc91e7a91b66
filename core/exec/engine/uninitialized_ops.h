#pragma once
// Ops whose result is memory nobody wrote yet (empty, new_empty, empty_like,
// empty_strided, new_empty_strided): PyTorch's value and irscope's are both
// whatever the allocator handed out, so comparing them says nothing. Real
// exports make buffers this way and fill them through views (slice + copy_);
// the filled buffer is compared where a later node reads it.
#include <string_view>

namespace irscope::exec {

inline bool producesUninitialized(std::string_view opType) {
    for (std::string_view op : {"aten.empty.", "aten.new_empty.", "aten.empty_like.", "aten.empty_strided.",
                                "aten.new_empty_strided.", "aten.empty_permuted."})
        if (opType.substr(0, op.size()) == op) return true;
    return false;
}

}  // namespace irscope::exec
