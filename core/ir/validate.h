#pragma once
// Validation: everything that makes an IR untrustworthy (errors), suspicious
// (warnings) or worth knowing (info), each with a sentence a user can act on.
#include <vector>

#include "core/ir/diagnostic.h"
#include "core/ir/graph.h"
#include "core/ir/graph_index.h"

namespace irscope::ir {

// Diagnostics in a stable order: load findings first, then by node order.
std::vector<Diagnostic> validateGraph(const Graph& graph, const GraphIndex& index);

}  // namespace irscope::ir
