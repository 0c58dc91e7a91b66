#include "core/ir/dtype.h"

#include <array>

namespace irscope::ir {
namespace {

using D = DType;

// Held dtypes first, in DType order (dtypeName and dtypeSize index by it).
constexpr std::array<TorchDType, 37> kTorchDTypes{{
    {"float32", 4, D::Float32, "float", ""},
    {"float64", 8, D::Float64, "double", ""},
    {"float16", 2, D::Float16, "half", ""},
    {"bfloat16", 2, D::BFloat16, "", ""},
    {"int8", 1, D::Int8, "", ""},
    {"int16", 2, D::Int16, "short", ""},
    {"int32", 4, D::Int32, "int", ""},
    {"int64", 8, D::Int64, "long", ""},
    {"uint8", 1, D::UInt8, "", ""},
    {"bool", 1, D::Bool, "", ""},
    {"complex64", 8, D::Complex64, "cfloat", ""},
    {"complex128", 16, D::Complex128, "cdouble", ""},
    {"complex32", 4, D::Complex32, "chalf", ""},
    // Known to torch, not to libtorch 1.13: reported by name, never guessed at.
    {"uint16", 2, std::nullopt, "", ""},
    {"uint32", 4, std::nullopt, "", ""},
    {"uint64", 8, std::nullopt, "", ""},
    {"float8_e4m3fn", 1, std::nullopt, "", ""},
    {"float8_e5m2", 1, std::nullopt, "", ""},
    {"float8_e4m3fnuz", 1, std::nullopt, "", ""},
    {"float8_e5m2fnuz", 1, std::nullopt, "", ""},
    {"float8_e8m0fnu", 1, std::nullopt, "", ""},
    {"float4_e2m1fn_x2", 1, std::nullopt, "", ""},
    {"qint8", 1, std::nullopt, "", ""},
    {"quint8", 1, std::nullopt, "", ""},
    {"qint32", 4, std::nullopt, "", ""},
    {"quint4x2", 1, std::nullopt, "", ""},
    {"quint2x4", 1, std::nullopt, "", ""},
    {"bits1x8", 1, std::nullopt, "", ""},
    {"bits2x4", 1, std::nullopt, "", ""},
    {"bits4x2", 1, std::nullopt, "", ""},
    {"bits8", 1, std::nullopt, "", ""},
    {"bits16", 2, std::nullopt, "", ""},
    {"int1", 1, std::nullopt, "", ""},
    {"int2", 1, std::nullopt, "", ""},
    {"int4", 1, std::nullopt, "", ""},
    {"uint1", 1, std::nullopt, "", ""},
    {"uint4", 1, std::nullopt, "", ""},
}};

std::string_view stripTorchPrefix(std::string_view name) {
    constexpr std::string_view prefix = "torch.";
    if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
    return name;
}

const TorchDType& info(DType dtype) { return kTorchDTypes[static_cast<size_t>(dtype)]; }

}  // namespace

std::span<const TorchDType> torchDTypes() { return kTorchDTypes; }

const TorchDType* findTorchDType(std::string_view name) {
    name = stripTorchPrefix(name);
    if (name.empty()) return nullptr;
    for (const auto& d : kTorchDTypes)
        if (d.name == name || d.alias1 == name || d.alias2 == name) return &d;
    return nullptr;
}

std::optional<DType> parseDType(std::string_view name) {
    const TorchDType* d = findTorchDType(name);
    return d ? d->held : std::nullopt;
}

std::string_view dtypeName(DType dtype) { return info(dtype).name; }
size_t dtypeSize(DType dtype) { return info(dtype).size; }

bool isFloatingPoint(DType dtype) {
    return dtype == DType::Float32 || dtype == DType::Float64 || dtype == DType::Float16 || dtype == DType::BFloat16;
}

bool isComplex(DType dtype) {
    return dtype == DType::Complex64 || dtype == DType::Complex128 || dtype == DType::Complex32;
}

bool isTorchDTypeName(std::string_view name) {
    if (findTorchDType(name)) return true;
    name = stripTorchPrefix(name);
    return name.substr(0, 6) == "float8" || name.substr(0, 6) == "float4" || name.substr(0, 4) == "bits";
}

}  // namespace irscope::ir
