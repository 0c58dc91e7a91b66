#pragma once
// How a quantized weight is read back to float: a PT2E program keeps a conv's
// or linear's weight as int8 (convert_pt2e folds the quantize into it) and
// dequantizes it with quantized_decomposed.dequantize_per_channel /
// _per_tensor, whose scale and zero point are buffers of their own; torchao
// uses dequantize_affine with a block size, or (quantize_) keeps the weight
// as a tensor subclass whose parts the program reads by name (its value, as
// loaded, is the dequantized one). Properties shows this beside the
// weight (its dtype stays int8, as stored), so a reader sees its scale and
// zero point without tracing the graph.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace irscope::ir {

struct WeightQuantization {
    int64_t dequantizeNode = -1;  // the node that reads the weight back to float (-1: a tensor subclass)
    std::string dtype;            // the stored integer dtype ("int8"), as the op says
    std::string scheme;           // "per channel (axis 0)", "per tensor", "per block [1, 32]"
    std::optional<int64_t> quantMin, quantMax;
    // Scale and zero point: a tensor (a placeholder or node output, by name)
    // or, per tensor, numbers in the op's arguments. Empty / unset when absent.
    std::string scaleTensor, zeroPointTensor;
    std::optional<double> scale;
    std::optional<int64_t> zeroPoint;
};

// The dequantize op that reads `placeholder` as its input, and what it says;
// nullopt when no dequantize op reads it.
std::optional<WeightQuantization> weightQuantization(const Graph& graph, const std::string& placeholder);

}  // namespace irscope::ir
