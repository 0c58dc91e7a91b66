#pragma once
// pytorch-ir drops a None passed for a Tensor? argument without a trace:
// clamp(x, None, t) and clamp(x, t) give the same node, and so do batch_norm
// with and without affine weights. When fewer inputs are left for an op's
// Tensor? arguments than there are of them, which ones received a tensor is
// decided here, for every reading the input count allows:
//   - an attr of the argument's name holding null, or the argument among the
//     node's noneArguments (a .pt2 names each), says None was passed;
//   - a weight's placeholder ending in the argument's name
//     (b_bn_running_mean -> running_mean) says where it goes;
//   - otherwise the IR does not say, and the plan lists the readings.
// One rule for the executor's binding (core/exec/) and `validate`, so what
// validate calls ambiguous is exactly what a run reports.
#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/op_node.h"
#include "core/ir/op_schema.h"

namespace irscope::ir {

struct OptionalTensorPlan {
    // Per schema argument: 1 takes a node input, 0 is None, -1 not decided
    // here (not a Tensor?, or too many to weigh: the binder's greedy rule).
    std::vector<int8_t> takes;
    // When several readings fit equally well: each one, as "min=x" or
    // "weight=p_w, bias=p_b". takes then holds none of them (all -1 for the
    // undecided arguments): the caller picks pytorch-ir's own (the first tensors
    // to the first arguments).
    std::vector<std::string> readings;
    // The Tensor? arguments the plan had to weigh, and how many inputs they share.
    std::vector<std::string> undecided;
    int available = 0;

    bool ambiguous() const { return !readings.empty(); }
    // A sentence for the user: the readings, which one runs, how to settle it.
    std::string explanation() const;
};

OptionalTensorPlan planOptionalTensors(const std::vector<SchemaArg>& args, const OpNode& node);

// The node's last inputs that an attr names (a string value, or a string
// element of a list): sizes a dynamic-shape program computes at run time and
// passes by name (.pt2's as_sym_int: view(x, [1, "sym_size_int_1", 32])).
// They follow the tensor inputs and bind to no tensor argument.
size_t sizeInputCount(const OpNode& node);

}  // namespace irscope::ir
