#pragma once
// Higher-order ops in a torch_ir IR: torch.export wraps regions of a model
// in an op that takes a subgraph (torch.no_grad() or autocast inside
// forward, as Hugging Face rotary embeddings do, becomes
// wrap_with_set_grad_enabled / wrap_with_autocast; control flow becomes
// cond / while_loop / map). pytorch-ir writes such a node with the op's bare
// name as op_type and drops the subgraph (a get_attr node, no tensor), so
// the IR cannot run it. What a user needs is the op's name, what is missing,
// and how to get an IR without it; validate and the run both say it.
#include <optional>
#include <string>
#include <string_view>

namespace irscope::ir {

// For a higher-order op's op_type (with or without "torch.ops.higher_order."
// or "higher_order." in front), the sentence that explains why the node
// cannot run and what to do; nullopt for every other op_type.
std::optional<std::string> higherOrderOpExplanation(std::string_view opType);

}  // namespace irscope::ir
