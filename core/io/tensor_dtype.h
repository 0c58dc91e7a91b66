#pragma once
// at::ScalarType <-> the dtype names torch_ir writes ("float32", "bfloat16").
#include <optional>
#include <string>
#include <string_view>

#include <c10/core/ScalarType.h>

namespace irscope::io {

// "float32" (also "torch.float32", "float", "half", "long"...) -> Float.
std::optional<c10::ScalarType> scalarTypeFromName(std::string_view name);
// Float -> "float32"; types torch_ir never writes get c10's name in lower case.
std::string scalarTypeName(c10::ScalarType type);

}  // namespace irscope::io
