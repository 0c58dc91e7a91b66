#pragma once
// TensorMeta: what the IR knows of one tensor (name, static shape, dtype and,
// for activations, which node produced it). No values: see Graph::constants.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace irscope::ir {

// A dim that was not an integer in the file (a float, a string, null). The
// loader records a diagnostic for it; everything else treats the shape as unknown.
inline constexpr int64_t kInvalidDim = INT64_MIN;

using Shape = std::vector<int64_t>;

struct TensorMeta {
    std::string name;
    Shape shape;
    std::string dtype;                        // torch_ir spelling ("float32"); empty when absent
    std::optional<std::string> producerNode;  // set for activations and graph inputs
    int64_t producerOutputIdx = 0;

    bool hasDtype() const { return !dtype.empty(); }
    bool operator==(const TensorMeta&) const = default;
};

// "1x4" as torch_ir's drawings write shapes; "" for a scalar.
std::string shapeToX(const Shape& shape);
// "[1, 4]" as Python prints a list.
std::string shapeToList(const Shape& shape);
// Number of elements; nullopt when a dim is negative or invalid, or the product overflows 64 bits.
std::optional<int64_t> elementCount(const Shape& shape);

}  // namespace irscope::ir
