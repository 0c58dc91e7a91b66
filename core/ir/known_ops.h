#pragma once
#include <string_view>

namespace irscope::ir {
// True for op_types irscope knows: every overload of the libtorch 1.13 dispatcher,
// the PyTorch 2.x ops it runs through equivalents, and getitem.
bool isKnownOpType(std::string_view opType);
}  // namespace irscope::ir
