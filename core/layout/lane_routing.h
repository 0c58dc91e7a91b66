#pragma once
// Internal: lane routing. A long edge is drawn as a lane of bend points, one
// a layer; with every other vertex where it is, the lane's best places are
// found exactly: a shortest path down the layers, a node for each gap
// between two neighbouring units of a layer the lane passes, each step
// costing the edges it crosses (Matuszewski, Schönfeld, Molitor's sifting
// of one vertex, made a path over layers, as global sifting does for long
// edges: Bachmaier, Brandenburg, Brunner, Hübner 2011).
//
// Why: the barycenter sweeps place a bend point by its two neighbours,
// layer by layer, so a lane that runs past a module follows the module's
// own order; a KV-cache or position lane passing a decoder layer crossed
// four of its edges where going round it crossed none.
#include <cstdint>
#include <vector>

#include "core/layout/layered_graph.h"

namespace irscope::layout::detail {

// Reroutes every lane of bend points where that removes crossings, at most
// maxRounds times over (a round that gains nothing ends it); a lane is not
// placed inside a group, and a lane with a bend point in one (an anchor of
// satellites) stays (group as for transposePass). workBudget bounds the
// cells of the cost tables over all rounds (the check for a crossing before
// a lane's tables, one pass over its layers' edges, is not counted).
// Updates g.layers and g.pos; returns the crossings removed.
int64_t rerouteLanes(LayeredGraph& g, const std::vector<int32_t>& group, int maxRounds, int64_t workBudget);

}  // namespace irscope::layout::detail
