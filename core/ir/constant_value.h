#pragma once
// A constant's value from the IR's "constants" section, held as packed
// little-endian elements of its dtype. Kept free of torch types so that the IR
// model stays light; core/exec turns it into a tensor.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ir/tensor_meta.h"

namespace irscope::ir {

struct ConstantValue {
    std::string dtype;                // as written in the file
    Sizes shape;                      // derived from the nesting of "data"
    std::vector<std::uint8_t> bytes;  // row-major elements of dtype (empty when unusable)
    // Set when the data could not be read as a tensor (ragged, unknown dtype,
    // a value out of the dtype's range); validation reports it.
    std::string problem;
    // The "data" JSON exactly as written, kept only when the value is unusable,
    // so that saving the IR never loses what the file said.
    nlohmann::ordered_json rawData;

    bool usable() const { return problem.empty(); }
};

}  // namespace irscope::ir
