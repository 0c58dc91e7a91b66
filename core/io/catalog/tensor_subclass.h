#pragma once
// A tensor subclass as a file describes it: torchao's quantized weights
// (Int8Tensor and its kin) are pickled as a wrapper (the dtype and shape the
// model sees) over inner tensors named by attribute ("qdata", "scale",
// "zero_point") and plain attributes ("block_size": [1, 16]). irscope reads
// the state by name and never runs the subclass's code: the inner tensors
// become records of their own ("a.weight.qdata"), and this description stays
// on the outer record, so a listing can say what the weight is made of and
// the run can rebuild its value (core/exec/engine/subclass_values.h).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/io/catalog/pickle_value.h"

namespace irscope::io {

struct TensorSubclass {
    std::string type;                // "torchao.quantization.Int8Tensor"
    std::vector<std::string> parts;  // attributes that are tensors, in the state's order
    // The other attributes, as Python would print them: ("block_size", "[1, 16]").
    std::vector<std::pair<std::string, std::string>> attributes;
    std::vector<int64_t> blockSize;  // "block_size" when it is a list of ints; empty otherwise

    // "Int8Tensor": the type without its module.
    std::string shortType() const;
    // "torchao Int8Tensor of qdata, scale, zero_point; block_size [1, 16]"
    std::string summary() const;
};

// The description of a Subclass object of `arena` (pickle_value.h).
TensorSubclass describeSubclass(const PickleArena& arena, const PickleObject& subclass);

}  // namespace irscope::io
