#pragma once
// Equivalents, on libtorch 1.13, of ops PyTorch 2.x exports that 1.13 lacks
// (docs/libtorch-versions.md §4). Each has the 2.x schema, parsed once, so it
// is bound exactly like a dispatcher op. A few shadow a 1.13 op whose schema
// 2.x changed (var.correction, stft, pad_sequence): the binder takes the
// equivalent first, so such nodes are read by their 2.x argument names.
// Families: compat_ops.cpp (the table; norms, attention, shapes, asserts),
// compat_matmul.cpp, compat_changed_schemas.cpp, and on every libtorch the
// ops PyTorch defines only in Python (quantized_decomposed: compat_quantized.cpp).
#include <ATen/core/function_schema.h>

#include "core/exec/engine/op_binding.h"

namespace irscope::exec {

struct CompatOp {
    const c10::FunctionSchema* schema;
    CompatFn fn;
    bool shadowsDispatcherOp = false;  // 1.13 has this name under an older schema
};

// nullptr when irscope has no equivalent for this name/overload.
const CompatOp* findCompatOp(const c10::OperatorName& name);

// "aten::var.correction", ...: the entries that shadow a 1.13 op, sorted.
// Tests pin this list, so an entry cannot override an unchanged 1.13 op unseen.
std::vector<std::string> compatOpsShadowingDispatcher();

// Why a 2.x op cannot run on 1.13 at all (fp8, int4 packs), for any overload
// of `name`; nullptr when it is not one of those.
const char* unsupportedReason(const c10::OperatorName& name);

}  // namespace irscope::exec
