#include "core/ir/known_ops.h"

#include <algorithm>
#include <array>

#include "core/ir/op_node.h"

namespace irscope::ir {
namespace {
constexpr std::string_view kKnownOps[] = {
#include "core/ir/known_ops.inc"
};
}  // namespace

bool isKnownOpType(std::string_view opType) {
    if (opType == kGetitemOp) return true;
    return std::binary_search(std::begin(kKnownOps), std::end(kKnownOps), opType);
}

}  // namespace irscope::ir
