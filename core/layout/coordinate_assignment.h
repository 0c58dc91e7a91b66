#pragma once
// Horizontal coordinates by Brandes & Koepf, "Fast and Simple Horizontal
// Coordinate Assignment" (2001): four vertical alignments (up/down x
// left/right medians), each compacted, then balanced by averaging the two
// median candidates per vertex. Linear time.
//
// Departures, and why:
//  - weights and ghosts never join an alignment block: a linear's weight
//    would otherwise compete with its activation input for the median and
//    bend the main chain;
//  - compaction uses the block graph with a longest-path pass and a
//    pull-right pass (as dagre does) instead of the original sink/shift
//    classes, which the 2020 erratum showed can overlap;
//  - a final left-to-right pass per layer restores the minimum separation
//    that balancing can violate with unequal widths, so boxes never overlap.
#include <vector>

#include "core/layout/layered_graph.h"
#include "core/layout/layout.h"

namespace irscope::layout::detail {

// x of each vertex's centre; the leftmost box edge is at 0.
std::vector<double> assignCoordinates(const LayeredGraph& g, const LayoutOptions& options);

}  // namespace irscope::layout::detail
