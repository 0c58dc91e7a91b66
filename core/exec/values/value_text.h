#pragma once
// Values as people type and read them: the nested-list text a user enters for
// a constant in the GUI ("[[1, 0], [0, 1]]" with a dtype), the dtypes such a
// value may be typed in, and byte sizes written for people ("1.5 KiB").
// Torch-free: widget files include this.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/numerics/number_text.h"  // shortNumber, for what prints values
#include "core/ir/dim.h"

namespace irscope::exec {

// A nested list of numbers ("[[1, 2], [3, 4]]", "2.5", "[true, false]",
// "nan", "inf", "-inf") as a shape and row-major values.
struct ParsedValues {
    std::vector<int64_t> shape;
    std::vector<double> values;
    std::vector<int64_t> integers;  // exact values when every token is an integer
    bool allIntegers = true;
};
// Throws std::invalid_argument with the position ("at character 7: ...") and reason.
ParsedValues parseNestedList(const std::string& text);

// Dtypes a user may type a constant in, torch_ir spelling.
const std::vector<std::string>& enterableDtypes();

// An example of the text a value of `shape` is typed as, for a hint: the
// nested list itself while it is short ("[[0, 1, 0], [1, 0, 1]]" for [2, 3];
// "true"/"false" for bool, "0.5" for floats), else its outline
// ("a [64, 64] nested list, e.g. [[0.5, …], …]"). A shape with a symbol, an
// unreadable or a negative dim: "".
std::string exampleValueText(const ir::Shape& shape, const std::string& dtype);

// "1.5 KiB"
std::string formatBytes(size_t bytes);

}  // namespace irscope::exec
