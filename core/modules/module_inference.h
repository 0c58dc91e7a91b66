#pragma once
// Infers the nn.Module of every op node of a torch_ir graph, which records no
// nn_module_stack. Linear in nodes + edges, deterministic. The rules, in order:
//
//  1. Weights. A weight's module is its original name minus the last part.
//     An op reading weights that only it reads belongs to their deepest common
//     module (a weight read by many ops, like a shared RoPE table or an
//     attention mask, says nothing about where each reader lives). Ops that
//     read only weights and such weight-only results (a stack of expert
//     weights, a transpose of one) join them the same way.
//  2. Chains into a module. Walking backwards, a weight-less op whose results
//     flow only into one leaf module that computes with its weights
//     elementwise (RMSNorm's pow/mean/add/rsqrt/mul before the `mul` by its
//     weight) joins it. A module whose own op is a whole layer (linear, conv,
//     embedding, a fused norm) is "sealed": nothing is pulled into it.
//  3. Neighbours. The rest spreads outward from assigned ops in rounds: an
//     op takes the deepest common module of its assigned producers and
//     consumers, ignoring model-level neighbours when some neighbours sit
//     inside a ModuleList element (so a layer's RoPE math and residual adds
//     stay in that layer although the cos/sin table is shared), and taking
//     the producer's side of a ModuleList boundary (the residual add that
//     ends layer 3 is layer 3's). An op next to a sealed module only goes to
//     that module's parent once nothing else can move, so attention's
//     view/transpose/matmul chain lands in `self_attn`, not in `q_proj`.
//     Ops never sit directly in a ModuleList; what nothing reaches stays at
//     the root.
#include "core/ir/graph.h"
#include "core/ir/graph_index.h"
#include "core/modules/module_tree.h"

namespace irscope::modules {

ModuleTree inferModuleTree(const ir::Graph& graph, const ir::GraphIndex& index);

}  // namespace irscope::modules
