#include "core/ir/dtype.h"

#include <array>
#include <utility>

namespace irscope::ir {
namespace {

struct DTypeInfo {
    DType dtype;
    std::string_view name;
    size_t size;
};

constexpr std::array<DTypeInfo, 12> kDTypes{{
    {DType::Float32, "float32", 4},   {DType::Float64, "float64", 8},
    {DType::Float16, "float16", 2},   {DType::BFloat16, "bfloat16", 2},
    {DType::Int8, "int8", 1},         {DType::Int16, "int16", 2},
    {DType::Int32, "int32", 4},       {DType::Int64, "int64", 8},
    {DType::UInt8, "uint8", 1},       {DType::Bool, "bool", 1},
    {DType::Complex64, "complex64", 8}, {DType::Complex128, "complex128", 16},
}};

// Python-side aliases: torch.float is float32, torch.half is float16, ...
constexpr std::array<std::pair<std::string_view, DType>, 8> kAliases{{
    {"float", DType::Float32}, {"double", DType::Float64}, {"half", DType::Float16},
    {"short", DType::Int16},   {"int", DType::Int32},      {"long", DType::Int64},
    {"cfloat", DType::Complex64}, {"cdouble", DType::Complex128}
}};

// Names torch has that libtorch 1.13 (and so irscope) cannot hold.
constexpr std::array<std::string_view, 15> kOtherTorchNames{{
    "uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
    "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2", "qint8", "quint8", "qint32",
    "quint4x2", "chalf", "complex32",
}};

std::string_view stripTorchPrefix(std::string_view name) {
    constexpr std::string_view prefix = "torch.";
    if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
    return name;
}

const DTypeInfo& info(DType dtype) { return kDTypes[static_cast<size_t>(dtype)]; }

}  // namespace

std::optional<DType> parseDType(std::string_view name) {
    name = stripTorchPrefix(name);
    for (const auto& entry : kDTypes)
        if (entry.name == name) return entry.dtype;
    for (const auto& [alias, dtype] : kAliases)
        if (alias == name) return dtype;
    return std::nullopt;
}

std::string_view dtypeName(DType dtype) { return info(dtype).name; }
size_t dtypeSize(DType dtype) { return info(dtype).size; }

bool isFloatingPoint(DType dtype) {
    return dtype == DType::Float32 || dtype == DType::Float64 || dtype == DType::Float16 ||
           dtype == DType::BFloat16;
}

bool isComplex(DType dtype) { return dtype == DType::Complex64 || dtype == DType::Complex128; }

bool isTorchDTypeName(std::string_view name) {
    if (parseDType(name)) return true;
    name = stripTorchPrefix(name);
    for (auto other : kOtherTorchNames)
        if (other == name) return true;
    return name.substr(0, 6) == "float8" || name.substr(0, 6) == "float4" || name.substr(0, 4) == "bits";
}

}  // namespace irscope::ir
