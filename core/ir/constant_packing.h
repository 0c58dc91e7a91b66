#pragma once
// A constant's elements in their two forms: the numbers of the IR's nested
// "data" lists, and ConstantValue's packed little-endian bytes of its dtype.
// Loading packs them, checking each value fits the dtype (so an out-of-range
// value is reported, never wrapped); saving unpacks them as torch's tolist()
// would, so load -> save -> load gives the same bytes.
#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/constant_value.h"
#include "core/ir/dtype.h"
#include "core/ir/python_json_writer.h"

namespace irscope::ir {

// One element of a constant's nested "data" list, as JSON gave it.
struct ConstantElement {
    enum class Kind : uint8_t { Integer, Real, Boolean } kind;
    int64_t integer = 0;
    double real = 0;
};

// Packs elements as `dtype` into bytes; returns a problem description or "".
std::string packConstant(DType dtype, const std::vector<ConstantElement>& elements, std::vector<uint8_t>& bytes);

// Writes a usable value of `dtype` as nested lists shaped value.shape.
void writeConstantData(PythonJsonWriter& w, DType dtype, const ConstantValue& value);

}  // namespace irscope::ir
