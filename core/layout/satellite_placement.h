#pragma once
// Satellite placement: after coordinate assignment, each weight and ghost
// slides along its layer towards its consumer, within the room its
// neighbours in the layer leave it.
//
// Why: weights and ghosts take no part in Brandes-Koepf's alignment (so the
// main chain stays straight), which leaves them where compaction happened to
// pack them, and balancing four packings moves them again; a row of sixteen
// expert weights over its `stack` ended up a few thousand px off centre.
// Here every maximal run of satellites between two fixed vertices of a
// layer (items and dummies, which do not move) is placed as close as the
// separations allow to its targets, the mean x of each satellite's
// neighbours: least squares under "keep the order and the gaps", solved
// exactly by pool-adjacent-violators and clamped to the room between the
// run's fixed neighbours. Linear in the layer's size; the order, and
// hence the crossings, do not change.
#include <vector>

#include "core/layout/layered_graph.h"
#include "core/layout/layout.h"

namespace irscope::layout::detail {

// Moves the satellites of g (vertices that do not align freely) in x, a
// centre per vertex; keeps every separation x already satisfies, room[v]
// being the width v claims in its layer (at least its box's).
void placeSatellites(const LayeredGraph& g, const std::vector<double>& room, const LayoutOptions& options,
                     std::vector<double>& x);

}  // namespace irscope::layout::detail
