#pragma once
// UnboxedCall: a node's op called through its typed (unboxed) kernel, the
// way at::add(x, y) calls it, instead of through a stack of IValues.
//
// On a graph of small ops the executor's cost is instruction-cache misses,
// not instructions: the boxed path runs the per-op boxing wrappers and the
// IValue stack on top of the kernel, and that code evicts libtorch's from
// the cache on every node (measured against a bare loop of the same at::
// calls: bench/run_executor.sh). Most ops of real graphs have one of a few C++
// signatures (unary, binary, binary with alpha, linear, transpose, softmax,
// ...): for those the node calls the typed handle directly. Everything else
// (lists of tensors, SymInt arguments, in-place and out= ops, several
// results) stays boxed.
//
// The match is checked twice at bind time: by the schema's argument types,
// and by the dispatcher itself (typed<>() compares the C++ signature the
// kernel was registered with and throws on a difference).
#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>

namespace irscope::exec {

struct ArgSlot;

struct UnboxedCall {
    // Calls the op on the node's resolved inputs and bound constants.
    using Fn = at::Tensor (*)(const void* typedHandle, const at::Tensor* const* inputs, const ArgSlot* slots,
                              const int64_t* ints);
    Fn fn = nullptr;
    const void* typedHandle = nullptr;  // a c10::TypedOperatorHandle<Sig>, one per operator, shared

    explicit operator bool() const { return fn != nullptr; }
    at::Tensor operator()(const at::Tensor* const* inputs, const ArgSlot* slots, const int64_t* ints) const {
        return fn(typedHandle, inputs, slots, ints);
    }
};

// The typed call for an op bound to `slots` (one per schema argument), or
// an empty one when the schema or the bound values have another shape.
// Appends the values of int[] constants to `ints` (their slots' first/count
// say where).
UnboxedCall unboxedCallFor(const c10::OperatorHandle& op, std::vector<ArgSlot>& slots, std::vector<int64_t>& ints);

}  // namespace irscope::exec
