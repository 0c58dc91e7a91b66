#pragma once
// OpBinding: turns one IR node (op_type + flat tensor inputs + attrs) into a
// call plan for its 1.13 schema, once, so that running the node is only
// "push the tensors, push the prepared constants, callBoxed".
//
// The rules are torch_ir's (docs/ir-format.md §5.3), made explicit for callBoxed,
// which needs every argument on the stack:
//   Tensor      next input, or the attr of that name as a wrapped scalar
//   Tensor?     an attr of its name holding null: None; else next input when
//               the inputs left exceed what later required tensor arguments
//               need (so bias=None does not swallow a later tensor), else the
//               attr, else None. When fewer inputs than Tensor? arguments are
//               left, weight placeholders' names choose (b_bn_running_mean ->
//               running_mean); if nothing does, the node reports both readings
//               (BoundOp::ambiguity)
//   Tensor[]    _tensor_list_sizes[k] inputs; Tensor?[] also restores the
//               Nones from _tensor_list_none_masks
//   other       attrs by name, converted to the schema type; else the
//               schema default; else None for an optional; else an error.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/function_schema.h>
#include <ATen/core/stack.h>

#include "core/exec/engine/unboxed_call.h"
#include "core/ir/op_node.h"

namespace irscope::exec {

// A replacement for an op libtorch 1.13 lacks: takes the bound stack (schema
// order) and returns the op's results as tensors.
using CompatFn = std::vector<at::Tensor> (*)(torch::jit::Stack& args);

// One schema argument; 32 bytes, read for every node that runs.
struct ArgSlot {
    enum class Kind : uint8_t { Tensor, TensorList, OptionalTensorList, Constant, Absent };
    Kind kind = Kind::Constant;
    uint16_t noneMask = 0;  // OptionalTensorList: its mask in BoundOp::noneMasks
    int32_t first = 0;      // first node input used; an unboxed int[] constant: first value in BoundOp::ints
    int32_t count = 0;      // inputs used (lists); an unboxed int[] constant: its length
    c10::IValue constant;   // Constant: converted attr, default, None or wrapped scalar
};

// A size a dynamic-shape program computes at run time and passes by name
// (ir::sizeInputCount): argument `slot` (or element `element` of its int
// list) is the value of node input `input`, a 0-d tensor.
struct SizeUse {
    // How the value is passed, as PyTorch passes a Python number there:
    //   Int, Float   an int or float argument: the item, converted to it
    //   Scalar       a Scalar argument: the item in the value's own kind (int, float, bool)
    //   Element      element `element` of an int list
    //   Tensor       a Tensor argument (t * x.shape[1]): a wrapped number, so it
    //                takes part in type promotion as a Python number does
    enum class Form : uint8_t { Int, Float, Scalar, Element, Tensor };
    int32_t slot = 0;
    int32_t element = -1;
    int32_t input = 0;
    Form form = Form::Int;
};

// What the run loop reads comes first: a node's call touches as few cache
// lines as possible.
struct BoundOp {
    UnboxedCall unboxed;                        // set when the op can be called unboxed (unboxed_call.h)
    std::vector<ArgSlot> slots;                 // one per schema argument
    std::vector<int32_t> writtenInputs;         // node inputs the op mutates (Tensor(a!))
    std::vector<int64_t> ints;                  // the values of int[] constants, for unboxed calls
    std::optional<c10::OperatorHandle> handle;  // set for dispatcher ops
    CompatFn compat = nullptr;                  // set for equivalents of missing ops
    const c10::FunctionSchema* schema = nullptr;
    std::string opType;
    std::vector<std::vector<bool>> noneMasks;  // true where an element of a Tensor?[] is None
    std::vector<SizeUse> sizeUses;             // filled in by buildStack from the inputs named
    int32_t inputsUsed = 0;
    // Attrs that name no argument of the schema: a 2.x argument 1.13 lacks, or
    // a typo in a hand-edited IR. They are not passed; the node reports them.
    std::vector<std::string> ignoredAttrs;
    // Set when dropped None tensors leave several readings of the inputs
    // (op_binding.cpp, planOptionals): the readings, reported each run.
    std::string ambiguity;
};

// "aten.add.Tensor" -> {"aten::add", "Tensor"}; ".default" -> "". nullopt if malformed.
std::optional<c10::OperatorName> operatorNameOf(const std::string& opType);

// A symbolic value (a 0-d tensor: int64 SymInt, float64 SymFloat, bool
// SymBool) as the Python number it stands for.
c10::Scalar symbolicScalar(const at::Tensor& value);

// Resolves and binds a node. Throws ExecError naming the node, the argument
// and the value when something cannot be bound.
BoundOp bindNode(const ir::OpNode& node);

// Pushes the arguments for `inputs` (the node's resolved input tensors, by
// pointer: they stay where the executor keeps them).
void buildStack(const BoundOp& op, const at::Tensor* const* inputs, torch::jit::Stack& stack);

// Calls the op on a built stack and normalizes its results to tensors (a
// Tensor[] result is flattened, a scalar becomes a 0-dim tensor, None an
// undefined tensor). Exceptions from libtorch propagate.
void callBound(const BoundOp& op, torch::jit::Stack& stack, std::vector<at::Tensor>& results);

}  // namespace irscope::exec
