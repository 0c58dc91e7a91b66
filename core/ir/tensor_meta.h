#pragma once
// TensorMeta: what the IR knows of one tensor (name, shape, dtype and, for
// activations, which node produced it). No values: see Graph::constants.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/dim.h"

namespace irscope::ir {

struct TensorMeta {
    std::string name;
    Shape shape;
    std::string dtype;                        // torch_ir spelling ("float32"); empty when absent
    std::optional<std::string> producerNode;  // set for activations and graph inputs
    int64_t producerOutputIdx = 0;

    bool hasDtype() const { return !dtype.empty(); }
    bool operator==(const TensorMeta&) const = default;
};

// The range torch.export allows a symbolic dim (range_constraints:
// Dim("seq", min=2, max=256) is s27 in [2, 256]).
struct SymbolRange {
    std::string symbol;
    int64_t min = 0;
    int64_t max = INT64_MAX;  // INT64_MAX: unbounded
    bool operator==(const SymbolRange&) const = default;
};

// "1x4" as torch_ir's drawings write shapes; "" for a scalar. With a
// symbol the dims are joined by a multiplication sign ("1×s27×64", "4*s77×8"),
// so that "s77×s27" does not read as one name and a product keeps its "*".
std::string shapeToX(const Shape& shape);
std::string shapeToX(const Sizes& sizes);
// "[1, 4]", "[1, s27]" as Python prints a list ("?" for an unreadable dim).
std::string shapeToList(const Shape& shape);
std::string shapeToList(const Sizes& sizes);
// Number of elements; nullopt when a dim is negative, symbolic or
// unreadable, or the product overflows 64 bits.
std::optional<int64_t> elementCount(const Shape& shape);
std::optional<int64_t> elementCount(const Sizes& sizes);

}  // namespace irscope::ir
