#pragma once
// PyTorch's symbolic ops as op types: the Python callables a dynamic-shape
// program computes its sizes with (operator.mul, math.trunc, torch.sym_float),
// which torch.export writes by module and name ("_operator.mul",
// "torch.sym_ite"), with no overload. They are PyTorch's own, never a user's
// custom op: irscope runs them (core/exec/compat/compat_symbolic.cpp), and
// where it meets one it does not know, says whose it is.
#include <optional>
#include <string>
#include <string_view>

namespace irscope::ir {

// True for an op type of the form module.name whose module is one torch.export
// serializes symbolic callables from (_operator, operator, math, builtins, torch).
bool isSymbolicOpType(std::string_view opType);

// For such an op type that irscope does not run: why ("... is one of PyTorch's
// symbolic ops ..."); nullopt for any other op type.
std::optional<std::string> unknownSymbolicOpExplanation(std::string_view opType);

}  // namespace irscope::ir
