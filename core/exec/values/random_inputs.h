#pragma once
// Generated graph inputs, one rule for the CLI (`irscope run --random-inputs
// SEED`) and the GUI (the Inputs dock's random / zeros / ones), so that the
// same seed gives the same tensors in both: normal floats, integers in
// [0, 10), bools 0/1, drawn in graph-input order after at::manual_seed(seed).
// A dimension the IR does not know (negative) becomes 1; 0 stays empty.
#include <cstdint>
#include <vector>

#include <ATen/core/Tensor.h>

#include "core/io/tensor_map.h"
#include "core/ir/graph.h"

namespace irscope::exec {

std::vector<int64_t> concreteInputShape(const ir::Shape& irShape);
io::TensorMap makeRandomInputs(const ir::Graph& graph, int64_t seed);
// A graph input filled with `value` (zeros, ones) in its IR dtype and shape.
at::Tensor makeFilledInput(const ir::TensorMeta& input, double value);

}  // namespace irscope::exec
