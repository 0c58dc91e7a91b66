#pragma once
// Layer sinking: a bounded improvement of longest-path layering towards the
// total edge span network simplex minimises (what Graphviz dot optimises).
//
// Why: longest path puts every op just below its deepest input, so a side
// branch (a graph input read once deep in the graph, a KV-cache read, a
// router's bookkeeping, a size computation) hangs at the top and reaches its
// consumer through a long lane of bend points. Moving a node one layer down
// changes the summed span of its edges by (edges above - edges below); a
// node with at least as many edges below as above is moved down, as far as
// its highest consumer allows. In reverse topological order a whole side
// chain follows its last op down (ties move too, so the chain's first op
// then gains). Nodes fed by weights count those edges as free: the weight
// is placed just above its consumer afterwards and moves with it.
//
// Linear per pass and a few passes at most; unlike network simplex it
// never moves a node up or a whole subtree at once, but on IR graphs the
// stretched edges are almost all of this kind.
#include <cstdint>
#include <vector>

#include "core/layout/adjacency.h"
#include "core/layout/fan_out_gaps.h"

namespace irscope::layout::detail {

// order: nodes in topological order; preds/succs: the downward adjacency;
// weight: nodes placed later just above their consumer (their layer is not
// read); gap: each edge's least span. Updates layer in place.
void sinkTowardConsumers(const std::vector<int32_t>& order, const Adjacency& preds, const Adjacency& succs,
                         const std::vector<char>& weight, const FanOutGaps& gap, std::vector<int32_t>& layer);

}  // namespace irscope::layout::detail
