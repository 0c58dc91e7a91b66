#pragma once
// Converting torch_ir attr values (JSON as Python wrote it) to the IValues a
// 1.13 schema argument expects: bare ints for int[N], dtype/layout/memory
// format/device strings, JSON numbers to Scalars of the right kind, NaN/inf.
#include <optional>
#include <stdexcept>
#include <string_view>

#include <ATen/core/function_schema.h>
#include <ATen/core/ivalue.h>
#include <c10/core/Layout.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/ScalarType.h>
#include <nlohmann/json.hpp>

namespace irscope::exec {

// Thrown with the reason only; the caller adds node and argument names.
struct AttrConversionError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// "torch.float16", "float16", "half", ... or an integer in c10 numbering.
std::optional<c10::ScalarType> parseScalarType(std::string_view name);
std::optional<c10::ScalarType> scalarTypeOfIrDtype(std::string_view irDtype);
std::optional<c10::Layout> parseLayout(std::string_view name);
std::optional<c10::MemoryFormat> parseMemoryFormat(std::string_view name);

// Value of `arg` from a JSON attr. Throws AttrConversionError.
c10::IValue attrToIValue(const c10::Argument& arg, const nlohmann::ordered_json& value);
// A JSON number/bool as a Scalar keeping its int/float/bool kind.
c10::Scalar jsonToScalar(const nlohmann::ordered_json& value);
// A Python scalar passed where the schema says Tensor: a 0-dim "wrapped
// number" tensor, which type promotion treats like a Python scalar.
at::Tensor wrappedScalarTensor(const c10::Scalar& scalar);
// The same, one tensor per distinct value for the whole process: a graph's
// thousands of `add(x, 1.0)` share one, which keeps it in the cache while
// the executor runs (each of 30,000 distinct ones is a cold TensorImpl).
// Only for arguments the op does not write.
at::Tensor sharedWrappedScalarTensor(const c10::Scalar& scalar);

}  // namespace irscope::exec
