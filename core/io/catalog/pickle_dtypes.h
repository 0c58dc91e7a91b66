#pragma once
// The dtypes a pickle names, by the spellings torch's Python module uses:
// storage classes ("FloatStorage") and dtype globals ("float32", "half").
// Name, size and whether irscope can hold each come from the one dtype table
// (core/ir/dtype.h); here are only the pickle-side names.
#include <optional>
#include <string_view>

#include "core/io/catalog/pickle_value.h"

namespace irscope::io {

// nullopt when torch has no such storage class / dtype.
std::optional<PickleDType> storageClassDType(std::string_view className);
std::optional<PickleDType> torchDTypeByName(std::string_view name);

}  // namespace irscope::io
