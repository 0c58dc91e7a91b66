#pragma once
// The module tree torch.export recorded, where a graph carries it: a .pt2's
// nodes name the module that called them (nn_module_stack, ExportedNodeFacts::modulePath),
// so the hierarchy is exact and nothing is inferred. inferModuleTree uses this
// whenever the graph has any recorded path; torch_ir JSON has none.
#include "core/ir/graph.h"
#include "core/ir/graph_index.h"
#include "core/modules/module_tree.h"

namespace irscope::modules {

bool hasRecordedModules(const ir::Graph& graph);

// Every node in the module it names (a node without a record: the model
// itself); weights in the modules their names say, as in inference.
//
// One adjustment, so that a drawing reads in the order the model runs: an op
// the record puts in a ModuleList's parent, run between or for its elements,
// joins an element (the same rule inference follows for torch_ir JSON):
//  - an op that reads element i (through other such ops) and feeds element i
//    or a later one (the KV-cache concatenation of a layer's keys, the
//    scaling a parent's forward does between layers) is element i's: the
//    producer's side wins;
//  - an op made for one element only (it reads no element and feeds just
//    element j: the rotary table a parent computes for each layer) is
//    element j's;
//  - an op for several elements (a rotary table all layers share), or after
//    the last, stays in the parent.
// The graph's own record (ExportedNodeFacts::modulePath) is unchanged.
ModuleTree recordedModuleTree(const ir::Graph& graph, const ir::GraphIndex& index);

}  // namespace irscope::modules
