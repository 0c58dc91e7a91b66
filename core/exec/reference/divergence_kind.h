#pragma once
// What a first divergence is. Two correct executors can disagree where a
// last-bit difference (another libtorch, another CPU, another summation
// order) meets an op that decides or an op whose rounding depends on order;
// a user needs to know whether irscope (or their backend) computed an op
// wrong, or float noise did it. Three kinds:
//   decision  the op decides (a comparison, argmax/argmin, topk/sort
//             indices, a float-to-integer cast, floor/round, bucketize) and every
//             float input of it matches the reference within tolerance: the
//             inputs sat near a threshold or a tie. The margin says how near
//             (how far from it the flipped elements were, on this run's
//             inputs) against how much the inputs differ, and which input
//             carried the difference;
//   noise     this run's value is no farther from a float64 run of the same
//             program on the same inputs than the reference's value is, up
//             to the rounding of the run's dtype (which of two runs lands one
//             bfloat16 step nearer is chance), and the reference is no more
//             than a hundred such steps from it either;
//   value     anything else: an op computed wrong, here or in the reference
//             (a reference far from float64 where this run is near it: the
//             words say which).
#include <cstdint>
#include <functional>
#include <limits>
#include <string>

#include <ATen/core/Tensor.h>

#include "core/exec/numerics/tolerance.h"
#include "core/io/tensor_map.h"
#include "core/ir/graph.h"

namespace irscope::exec {

enum class DivergenceKind { Decision, Noise, Value };
const char* divergenceKindName(DivergenceKind kind);  // "decision", "noise", "value"

struct DivergenceExplanation {
    DivergenceKind kind = DivergenceKind::Value;
    // Decision: the largest distance from the threshold or tie among the
    // flipped elements, the largest difference of a float input from its
    // reference, and that input's name.
    double margin = std::numeric_limits<double>::quiet_NaN();
    double inputDifference = 0;
    std::string carrier;
    // Noise (and value, where a float64 run was made): max |x - float64| of
    // this run's value and of the reference's.
    double irscopeVsFp64 = std::numeric_limits<double>::quiet_NaN();
    double referenceVsFp64 = std::numeric_limits<double>::quiet_NaN();
    std::string words;  // one sentence a user can act on
};

// True for an op type that decides (its output flips where an input crosses
// a threshold or a tie). A cast decides too, where it turns floats into
// integers: classifyDivergence looks at the dtypes for that.
bool isDecidingOp(const std::string& opType, size_t output);

// The reference value of a tensor by name; undefined when there is none.
using ReferenceLookup = std::function<at::Tensor(const std::string& tensorName)>;

// Explains the divergence of output `output` of node `node`: runs the program
// again up to that node (keeping only its inputs and output) and, unless it
// is a decision, a float64 run up to it. Throws when the program does not run
// to the node again (a value gone, a node that fails).
DivergenceExplanation explainDivergence(const ir::Graph& graph, const io::TensorMap& weights,
                                        const io::TensorMap& constants, const io::TensorMap& inputs, int64_t node,
                                        size_t output, const ReferenceLookup& reference, const Tolerance& tolerance);

// The classification itself, on values already at hand: the node's inputs in
// this run and in the reference (undefined where the reference has none; in
// node.inputs' order), its output on both sides, and a float64 value of the
// output (undefined when none was computed).
DivergenceExplanation classifyDivergence(const ir::OpNode& node, size_t output, const std::vector<at::Tensor>& inputs,
                                         const std::vector<at::Tensor>& referenceInputs, const at::Tensor& actual,
                                         const at::Tensor& reference, const at::Tensor& fp64,
                                         const Tolerance& tolerance);

}  // namespace irscope::exec
