#include "core/io/tensor_dtype.h"

#include <array>
#include <cctype>
#include <utility>

namespace irscope::io {

namespace {

constexpr std::array<std::pair<c10::ScalarType, const char*>, 13> kNames{{
    {c10::ScalarType::Float, "float32"},     {c10::ScalarType::Double, "float64"},
    {c10::ScalarType::Half, "float16"},      {c10::ScalarType::BFloat16, "bfloat16"},
    {c10::ScalarType::Char, "int8"},         {c10::ScalarType::Short, "int16"},
    {c10::ScalarType::Int, "int32"},         {c10::ScalarType::Long, "int64"},
    {c10::ScalarType::Byte, "uint8"},        {c10::ScalarType::Bool, "bool"},
    {c10::ScalarType::ComplexFloat, "complex64"}, {c10::ScalarType::ComplexDouble, "complex128"},
    {c10::ScalarType::ComplexHalf, "complex32"},
}};

constexpr std::array<std::pair<const char*, const char*>, 9> kAliases{{
    {"float", "float32"}, {"double", "float64"}, {"half", "float16"}, {"short", "int16"},
    {"int", "int32"},     {"long", "int64"},     {"cfloat", "complex64"}, {"cdouble", "complex128"},
    {"chalf", "complex32"},
}};

}  // namespace

std::optional<c10::ScalarType> scalarTypeFromName(std::string_view name) {
    if (name.rfind("torch.", 0) == 0) name.remove_prefix(6);
    for (const auto& [alias, canonical] : kAliases)
        if (name == alias) name = canonical;
    for (const auto& [type, text] : kNames)
        if (name == text) return type;
    return std::nullopt;
}

std::string scalarTypeName(c10::ScalarType type) {
    for (const auto& [t, text] : kNames)
        if (t == type) return text;
    std::string s = c10::toString(type);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace irscope::io
