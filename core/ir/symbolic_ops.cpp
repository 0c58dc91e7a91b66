#include "core/ir/symbolic_ops.h"

#include <array>

namespace irscope::ir {

bool isSymbolicOpType(std::string_view opType) {
    const auto dot = opType.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == opType.size()) return false;
    if (opType.find('.', dot + 1) != std::string_view::npos) return false;  // ns.name.overload: an operator
    static constexpr std::array<std::string_view, 5> kModules = {"_operator", "operator", "math", "builtins", "torch"};
    const std::string_view module = opType.substr(0, dot);
    for (const auto m : kModules)
        if (module == m) return true;
    return false;
}

std::optional<std::string> unknownSymbolicOpExplanation(std::string_view opType) {
    if (!isSymbolicOpType(opType)) return std::nullopt;
    return "'" + std::string(opType) +
           "' is one of PyTorch's symbolic ops (Python arithmetic a dynamic-shape program does on its sizes), not a "
           "custom op; this irscope does not run it. It runs _operator's arithmetic and comparisons, math.trunc and "
           "torch.sym_int/float/not/ite/max/min/sqrt";
}

}  // namespace irscope::ir
