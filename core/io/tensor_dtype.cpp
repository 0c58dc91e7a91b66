#include "core/io/tensor_dtype.h"

#include <cctype>

namespace irscope::io {

c10::ScalarType toScalarType(ir::DType dtype) {
    using S = c10::ScalarType;
    switch (dtype) {
    case ir::DType::Float32: return S::Float;
    case ir::DType::Float64: return S::Double;
    case ir::DType::Float16: return S::Half;
    case ir::DType::BFloat16: return S::BFloat16;
    case ir::DType::Int8: return S::Char;
    case ir::DType::Int16: return S::Short;
    case ir::DType::Int32: return S::Int;
    case ir::DType::Int64: return S::Long;
    case ir::DType::UInt8: return S::Byte;
    case ir::DType::Bool: return S::Bool;
    case ir::DType::Complex64: return S::ComplexFloat;
    case ir::DType::Complex128: return S::ComplexDouble;
    case ir::DType::Complex32: return S::ComplexHalf;
    }
    return S::Undefined;
}

std::optional<ir::DType> fromScalarType(c10::ScalarType type) {
    for (const auto& d : ir::torchDTypes())
        if (d.held && toScalarType(*d.held) == type) return d.held;
    return std::nullopt;
}

std::optional<c10::ScalarType> scalarTypeFromName(std::string_view name) {
    const auto dtype = ir::parseDType(name);
    return dtype ? std::optional(toScalarType(*dtype)) : std::nullopt;
}

std::string scalarTypeName(c10::ScalarType type) {
    if (const auto dtype = fromScalarType(type)) return std::string(ir::dtypeName(*dtype));
    std::string s = c10::toString(type);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace irscope::io
