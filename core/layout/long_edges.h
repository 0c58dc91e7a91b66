#pragma once
// Long edges: turns a layered LayoutGraph into a proper layered graph.
//
// A plain Sugiyama layout splits an edge spanning k layers into k-1 dummy
// vertices. Operator graphs have sources that feed every block (attention
// masks, RoPE tables, position ids): with L blocks that is O(n * layers)
// dummies, and a fan of lanes down the whole drawing. Such edges instead
// start at a small "ghost" proxy of the source placed just above the
// consumer; the view links a ghost to its source. Short and moderately long
// edges (residuals, skips) keep dummies, bounded by a global budget.
// Also decides which items are laid out as weights: weight items, and ops
// that only combine weights for one use just below (a `stack` of experts).
#include "core/layout/layered_graph.h"
#include "core/layout/layering.h"
#include "core/layout/layout.h"

namespace irscope::layout::detail {

LayeredGraph buildLayeredGraph(const LayoutGraph& graph, const Layering& layering, const LayoutOptions& options);

}  // namespace irscope::layout::detail
