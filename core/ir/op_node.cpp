#include "core/ir/op_node.h"

namespace irscope::ir {

std::string OpNode::shortOpName() const {
    std::string_view op = opType;
    constexpr std::string_view prefix = "aten.";
    constexpr std::string_view suffix = ".default";
    if (op.substr(0, prefix.size()) == prefix) op.remove_prefix(prefix.size());
    if (op.size() >= suffix.size() && op.substr(op.size() - suffix.size()) == suffix) op.remove_suffix(suffix.size());
    return std::string(op);
}

}  // namespace irscope::ir
