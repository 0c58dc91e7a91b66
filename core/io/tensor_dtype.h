#pragma once
// The one adaptor between irscope's dtype table (core/ir/dtype.h) and
// libtorch's c10::ScalarType. Everything that turns a dtype name into a
// ScalarType or back goes through here.
#include <optional>
#include <string>
#include <string_view>

#include <c10/core/ScalarType.h>

#include "core/ir/dtype.h"

namespace irscope::io {

c10::ScalarType toScalarType(ir::DType dtype);
std::optional<ir::DType> fromScalarType(c10::ScalarType type);

// "float32" (also "torch.float32", "float", "half", "long"...) -> Float.
std::optional<c10::ScalarType> scalarTypeFromName(std::string_view name);
// Float -> "float32"; types torch_ir never writes get c10's name in lower case.
std::string scalarTypeName(c10::ScalarType type);

}  // namespace irscope::io
