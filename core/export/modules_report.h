#pragma once
// `irscope modules`: the inferred module tree as indented text or JSON.
// JSON: each module {"path", "kind", "ops" (nodes in it and below), "nodes"
// (names directly in it), "weights", "parameters", "children": [...]}, the
// root with "path": "". depth limits how far children are listed (the counts
// always cover the whole subtree); a negative depth lists everything.
#include <string>

#include "core/ir/graph.h"
#include "core/modules/module_tree.h"

namespace irscope::exporter {

std::string formatModulesText(const modules::ModuleTree& tree, const ir::Graph& graph, int depth);
std::string formatModulesJson(const modules::ModuleTree& tree, const ir::Graph& graph, int depth);

}  // namespace irscope::exporter
