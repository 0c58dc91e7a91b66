#pragma once
// AliasClasses: which value slots share storage, and which of those sets an
// op writes, read from the ops' schemas before a run.
//
// Exports from PyTorch 2.6 on keep in-place ops and views: pytorch-ir's own
// MoE example fills a `new_empty` buffer through `slice` + `copy_` and later
// reads the buffer. Eager PyTorch writes through the view into the base, so
// the executor must too: it runs in-place ops on the tensors themselves.
// Two things still need knowing in advance, and this says them:
//   - a write that reaches a graph input or a weight, buffer or constant
//     (through any chain of views) would change the user's tensors, and the
//     next run would start from changed values: those root slots are copied
//     once at the start of each run instead (Executor::writtenRoots);
//   - a node's value as it was produced is what the debugger shows and what
//     a reference compares with (PyTorch's numeric debugger records it at
//     that moment too), so before a write, the values already produced in the
//     written set are kept as they were (Executor::snapshotBeforeWrite).
// A schema's alias annotations decide: `Tensor(a) self -> Tensor(a)` (slice,
// view, select, expand, transpose ... and "may alias" ops such as reshape,
// contiguous, to) puts the output in self's set; `Tensor(a!)` marks the set
// written; getitem forwards its producer's output. Unbound nodes add nothing.
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/exec/engine/execution_plan.h"
#include "core/exec/engine/op_binding.h"

namespace irscope::exec {

struct AliasClasses {
    // Per slot: the representative of its set.
    std::vector<int32_t> rep;
    // Per slot: 1 when an op writes the set the slot belongs to.
    std::vector<uint8_t> written;
    // Per slot: 1 for a node output that, when its node ran, held memory no
    // one had written yet: the output of empty / new_empty
    // (uninitialized_ops.h) and every view of it made before the last write
    // into its set (a buffer being filled piece by piece). Such a value is,
    // in part, whatever the allocator handed out, in PyTorch as here: there
    // is nothing to compare. The nodes that read the filled buffer are.
    std::vector<uint8_t> uninitialized;
    // Graph-input and registry slots in a written set, in slot order.
    std::vector<int32_t> writtenRoots;
    // For each representative of a written set, its node-output slots in slot order.
    std::unordered_map<int32_t, std::vector<int32_t>> members;
};

// `bound` holds one entry per node (null: not bound, getitem or failed).
AliasClasses computeAliasClasses(const ExecutionPlan& plan, const std::vector<std::unique_ptr<BoundOp>>& bound);

}  // namespace irscope::exec
