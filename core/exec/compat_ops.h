#pragma once
// Equivalents, on libtorch 1.13, of ops PyTorch 2.x exports that 1.13 lacks
// (docs/libtorch-1.13-gaps.md). Each has the 2.x schema, parsed once, so it
// is bound exactly like a dispatcher op.
#include <ATen/core/function_schema.h>

#include "core/exec/op_binding.h"

namespace irscope::exec {

struct CompatOp {
    const c10::FunctionSchema* schema;
    CompatFn fn;
};

// nullptr when irscope has no equivalent for this name/overload.
const CompatOp* findCompatOp(const c10::OperatorName& name);

}  // namespace irscope::exec
