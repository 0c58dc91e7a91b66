#include "core/io/catalog/pickle_dtypes.h"

#include <array>
#include <string>
#include <utility>

#include "core/ir/dtype.h"

namespace irscope::io {

namespace {

// Storage classes by the dtype they hold. Name, size and whether irscope can
// hold it come from the one dtype table (core/ir/dtype.h).
constexpr std::array<std::pair<std::string_view, std::string_view>, 18> kStorageClasses{{
    {"FloatStorage", "float32"},
    {"DoubleStorage", "float64"},
    {"HalfStorage", "float16"},
    {"BFloat16Storage", "bfloat16"},
    {"CharStorage", "int8"},
    {"ShortStorage", "int16"},
    {"IntStorage", "int32"},
    {"LongStorage", "int64"},
    {"ByteStorage", "uint8"},
    {"BoolStorage", "bool"},
    {"ComplexFloatStorage", "complex64"},
    {"ComplexDoubleStorage", "complex128"},
    {"ComplexHalfStorage", "complex32"},
    {"QInt8Storage", "qint8"},
    {"QUInt8Storage", "quint8"},
    {"QInt32Storage", "qint32"},
    {"QUInt4x2Storage", "quint4x2"},
    {"QUInt2x4Storage", "quint2x4"},
}};

PickleDType fromTable(const ir::TorchDType& d) {
    return {std::string(d.name), static_cast<int>(d.size), d.held.has_value()};
}

}  // namespace

std::optional<PickleDType> storageClassDType(std::string_view className) {
    if (className == "UntypedStorage") return PickleDType{"uint8", 1, true};
    for (const auto& [storage, dtype] : kStorageClasses)
        if (className == storage) return fromTable(*ir::findTorchDType(dtype));
    return std::nullopt;
}

std::optional<PickleDType> torchDTypeByName(std::string_view name) {
    if (name.rfind("torch.", 0) == 0) return std::nullopt;  // a global's name never carries the module
    const ir::TorchDType* d = ir::findTorchDType(name);
    return d ? std::optional(fromTable(*d)) : std::nullopt;
}

}  // namespace irscope::io
