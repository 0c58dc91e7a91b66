#pragma once
// Crossing reduction: a DFS initial order, then a few down/up barycenter
// sweeps, each followed by a bounded adjacent-exchange pass (ties allowed on
// alternate rounds, as dot does, to leave plateaus); run with two tie rules
// for barycenters, the order with the fewest crossings wins.
//
// Weights and ghosts are "satellites": each follows an anchor (the first
// ordinary input of its consumer, in the same layer) and is placed next to
// it, so a linear's weight and bias sit beside the activation they combine
// with instead of being sorted among unrelated nodes. Each satellite takes the
// side of its anchor where its edge crosses fewer of the anchor's edges (the
// right on a tie, after the activation as in the op's input order); a
// linear's weight whose consumer lies left of the anchor's other consumers
// goes left.
#include <cstdint>
#include <vector>

#include "core/layout/layered_graph.h"
#include "core/layout/progress.h"

namespace irscope::layout::detail {

// Reorders g.layers (and g.pos); returns the crossing count of the result.
// Reports through `progress` (may throw LayoutCancelled).
int64_t reduceCrossings(LayeredGraph& g, int sweeps, Progress* progress = nullptr);

// Greedy adjacent exchange ("transpose") on the layers that have crossings:
// swaps neighbours u, v in a layer when that strictly lowers the crossings of
// their edges to both adjacent layers (counted by merging their sorted
// neighbour positions), revisiting a layer's neighbours when it changed, at
// most maxVisitsPerLayer times per layer. Only vertices of the same group
// swap (group[v]; -1 for plain vertices, which all form one group). Updates
// g.layers and g.pos; returns the number of crossings removed. allowTies:
// also swap crossed pairs that cross as much either way, once per layer (to
// leave a plateau; the count never goes up).
int64_t transposePass(LayeredGraph& g, const std::vector<int32_t>& group, int maxVisitsPerLayer,
                      bool allowTies = false);

}  // namespace irscope::layout::detail
