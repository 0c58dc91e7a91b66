#pragma once
// The one table of dtypes in irscope: every name torch has (torch_ir's
// spelling, e.g. "float32"), Python's other names for it ("float", "half"),
// its element size, and whether libtorch 1.13 (and so irscope) can hold it.
// The IR loader, the validator, the tensor-file readers (io/tensor_dtype.h is
// the only adaptor to c10::ScalarType) and the unpickler all read it here.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace irscope::ir {

// The dtypes irscope can hold (libtorch 1.13 has a ScalarType for each).
enum class DType {
    Float32,
    Float64,
    Float16,
    BFloat16,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    Bool,
    Complex64,
    Complex128,
    Complex32,
};

struct TorchDType {
    std::string_view name;            // torch_ir spelling: "float32"
    size_t size;                      // bytes per element
    std::optional<DType> held;        // set when irscope can hold it
    std::string_view alias1, alias2;  // Python's other names ("float"), "" when none
};

// Every dtype name torch has, held or not (float8_*, uint16, qint8, ...).
std::span<const TorchDType> torchDTypes();
// By name, alias or "torch.<name>"; nullptr when torch has no such dtype.
const TorchDType* findTorchDType(std::string_view name);

// "float32" -> Float32 (aliases and "torch." accepted); nullopt for names
// irscope cannot hold (e.g. float8_e4m3fn), which a TensorMeta may still carry as text.
std::optional<DType> parseDType(std::string_view name);
// Canonical torch_ir spelling: "float32".
std::string_view dtypeName(DType dtype);
size_t dtypeSize(DType dtype);
bool isFloatingPoint(DType dtype);  // float and bfloat/half types
bool isComplex(DType dtype);
// True for names torch has at all (held or not), including the families
// newer torch keeps adding (float8_*, float4_*, bits*).
bool isTorchDTypeName(std::string_view name);

}  // namespace irscope::ir
