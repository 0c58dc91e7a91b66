#pragma once
// Crossing reduction: a DFS initial order, then a few down/up barycenter
// sweeps; the order with the fewest crossings wins.
//
// Weights and ghosts are "satellites": each follows an anchor (the first
// ordinary input of its consumer, in the same layer) and is placed right
// after it, so a linear's weight and bias sit beside the activation they
// combine with instead of being sorted among unrelated nodes.
#include <cstdint>

#include "core/layout/layered_graph.h"

namespace irscope::layout::detail {

// Reorders g.layers (and g.pos); returns the crossing count of the result.
int64_t reduceCrossings(LayeredGraph& g, int sweeps);

}  // namespace irscope::layout::detail
