#pragma once
// The module tree torch.export recorded, where a graph carries it: a .pt2's
// nodes name the module that called them (nn_module_stack, OpNode::modulePath),
// so the hierarchy is exact and nothing is inferred. inferModuleTree uses this
// whenever the graph has any recorded path; torch_ir JSON has none.
#include "core/ir/graph.h"
#include "core/modules/module_tree.h"

namespace irscope::modules {

bool hasRecordedModules(const ir::Graph& graph);

// Every node in the module it names (a node without a record: the model
// itself); weights in the modules their names say, as in inference.
ModuleTree recordedModuleTree(const ir::Graph& graph);

}  // namespace irscope::modules
