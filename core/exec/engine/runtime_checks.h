#pragma once
// A program's own runtime checks: torch._check(n >= 1) on a value read with
// .item(), the range asserts torch.export adds for data-dependent sizes
// (aten._assert_scalar, sym_constrain_range(_for_size), _assert_async,
// _assert_tensor_metadata). When one fails, the program refuses its input:
// not an op that went wrong. The run stops there and says which check, in
// the program's own words, and the values that broke it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/graph_index.h"

namespace irscope::exec {

class Executor;

// True for an op type that checks the program's input rather than computing.
bool isRuntimeCheck(const std::string& opType);

// True when `message`, the error of a check node, is the check failing (its
// own assert_msg, or a range or metadata check's words), not irscope failing
// to run it (a value missing, an argument it could not bind).
bool isCheckFailure(const ir::OpNode& node, const std::string& message);

// The values the failed check at `node` was computed from, as far as they are
// still held: "where item = 0 (position.item())". "" when none is known.
std::string runtimeCheckValues(const Executor& executor, const ir::Graph& graph, int64_t node);

// The graph inputs the check at `node` reads, directly or through the nodes
// before it, in the graph's order: the inputs its refusal is about (the
// window's Inputs dock marks them).
std::vector<std::string> inputsBehind(const ir::GraphIndex& index, int64_t node);

}  // namespace irscope::exec
