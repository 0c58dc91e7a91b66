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
    // A dynamic-shape program's symbolic dims ("s27", "2*s27"), one per dim,
    // "" for a static one; their shape entries are kInvalidDim. Empty when
    // every dim is static (always, in torch_ir JSON). Never written back.
    std::vector<std::string> symbolicDims;

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

// "[1, s27]": the shape with its symbols where it has them, else shapeToList.
std::string shapeWithSymbols(const TensorMeta& meta);

// "1×s27×64": shapeToX with a dynamic-shape program's symbols in place of
// their dims (the drawings, edge labels and mermaid use it).
std::string shapeToX(const TensorMeta& meta);

// "1x4" as torch_ir's drawings write shapes; "" for a scalar.
std::string shapeToX(const Shape& shape);
// "[1, 4]" as Python prints a list.
std::string shapeToList(const Shape& shape);
// Number of elements; nullopt when a dim is negative or invalid, or the product overflows 64 bits.
std::optional<int64_t> elementCount(const Shape& shape);

}  // namespace irscope::ir
