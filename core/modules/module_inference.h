#pragma once
// Infers the nn.Module of every op node of a torch_ir graph, which records no
// nn_module_stack. Linear in nodes + edges, deterministic. The rules, in order:
//
//  1. Weights. A weight's module is its original name minus the last part.
//     An op reading weights that only it reads belongs to their deepest common
//     module (a weight read by many ops, like a shared RoPE table or an
//     attention mask, says nothing about where each reader lives). Ops that
//     read only weights and such weight-only results (a stack of expert
//     weights, a transpose of one) join them the same way, and so does the one
//     op reading such a result (the einsum over the stack).
//  2. Chains into a module. Walking backwards, a weight-less op whose results
//     flow only into one leaf module that computes with its weights
//     elementwise (RMSNorm's pow/mean/add/rsqrt/mul before the `mul` by its
//     weight) joins it. A module whose own op is a whole layer (linear, conv,
//     embedding, a fused norm) and nothing else is "sealed": nothing is
//     pulled into it, and its neighbours count as its caller's.
//  3. Neighbours. The rest is placed in execution order, when all its
//     producers are placed: the deepest common module of its producers and of
//     the consumers placed so far (weight readers, norm chains). A sealed
//     neighbour counts as its caller (the view after q_proj's linear lands in
//     self_attn, not in q_proj). Model-level neighbours do not pull an op out
//     of a ModuleList element (a layer's RoPE math and residual adds stay in
//     that layer although the cos/sin table and the embedding are outside),
//     and at a boundary between elements the producer's side wins (the
//     residual add that ends layer 3 is layer 3's; a model-level consumer
//     counts only for a one-input op, like ResNet's pooling after its last
//     block). An op with one input whose placed consumers all lie in one
//     submodule is that submodule's first op (the MoE's view before its
//     router). An op reading only model-level values that many ops read (a
//     layer's unsqueeze of the shared cos/sin rows) is placed by its
//     consumers. A getitem joins the op whose tuple it reads. Ops with neither
//     producers nor placed consumers (an arange) are placed afterwards by
//     their consumers. Ops never sit directly in a ModuleList; what nothing
//     reaches stays at the root.
#include "core/ir/graph.h"
#include "core/ir/graph_index.h"
#include "core/modules/module_tree.h"

namespace irscope::modules {

ModuleTree inferModuleTree(const ir::Graph& graph, const ir::GraphIndex& index);

}  // namespace irscope::modules
