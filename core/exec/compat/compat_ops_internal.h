#pragma once
// Shared by the compat_*.cpp files only: each family file (matmul, changed
// schemas, ...) hands its table of (2.x schema, equivalent) to compat_ops.cpp,
// which parses them once into the lookup table. Not for users of core/exec.
#include <vector>

#include <ATen/ATen.h>

#include "core/exec/engine/op_binding.h"

namespace irscope::exec::compat {

struct Entry {
    const char* schema;  // the PyTorch 2.x schema, argument names as torch_ir writes them
    CompatFn fn;
};

// 2.x ops with no 1.13 equivalent: binding fails with "... is not supported on
// this libtorch (1.13)" and the reason, instead of "unknown op".
struct Unsupported {
    const char* name;  // "aten::_scaled_mm"; every overload
    const char* reason;
};

std::vector<Entry> matmulEntries();            // compat_matmul.cpp
std::vector<Unsupported> matmulUnsupported();  // compat_matmul.cpp
std::vector<Entry> changedSchemaEntries();     // compat_changed_schemas.cpp
std::vector<Entry> quantizedEntries();         // compat_quantized.cpp
std::vector<Entry> torchaoEntries();           // compat_torchao.cpp
std::vector<Entry> symbolicEntries();          // compat_symbolic.cpp

inline c10::optional<at::Tensor> optTensor(const c10::IValue& v) {
    if (v.isNone()) return c10::nullopt;
    return v.toTensor();
}
inline c10::optional<at::ScalarType> optScalarType(const c10::IValue& v) {
    if (v.isNone()) return c10::nullopt;
    return static_cast<at::ScalarType>(v.toInt());
}

}  // namespace irscope::exec::compat
