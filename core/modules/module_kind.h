#pragma once
// A short word for what a module does, read off its ops, for collapsed boxes
// and the Modules dock: "attention", "MoE", "MLP", "norm", "linear",
// "embedding", "conv", "layer" (attention + MLP/MoE, a decoder block),
// "list" (a ModuleList), "module" when nothing fits; a module a .pt2
// recorded is named by its class instead ("LlamaDecoderLayer"), as the
// model's own code says. Names are a guide for the eye, never used for behaviour.
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/modules/module_tree.h"

namespace irscope::modules {

// One word per module (index = ModuleId), computed bottom-up in one pass.
std::vector<std::string> moduleKinds(const ModuleTree& tree, const ir::Graph& graph);

}  // namespace irscope::modules
