#pragma once
// The dtype names torch_ir writes, and what irscope knows of each.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace irscope::ir {

enum class DType {
    Float32, Float64, Float16, BFloat16,
    Int8, Int16, Int32, Int64, UInt8, Bool,
    Complex64, Complex128,
};

// "float32" -> Float32. Also accepts the "torch.float32" spelling and Python's
// aliases ("float", "half", "long", ...). nullopt for names irscope cannot hold
// (e.g. float8_e4m3fn), which a TensorMeta may still carry as text.
std::optional<DType> parseDType(std::string_view name);
// Canonical torch_ir spelling: "float32".
std::string_view dtypeName(DType dtype);
size_t dtypeSize(DType dtype);
bool isFloatingPoint(DType dtype);   // float and bfloat/half types
bool isComplex(DType dtype);
// True for names torch has at all (known to irscope or not): float8_*, uint16, ...
bool isTorchDTypeName(std::string_view name);

}  // namespace irscope::ir
