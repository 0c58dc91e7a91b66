#pragma once
// Horizontal coordinates by Brandes & Koepf, "Fast and Simple Horizontal
// Coordinate Assignment" (2001): four vertical alignments (up/down x
// left/right medians), each compacted, then balanced by averaging the two
// median candidates per vertex. Linear time.
//
// Departures, and why:
//  - weights and ghosts join no alignment block (a linear's weight would
//    otherwise compete with its activation input for the median and bend
//    the main chain), except above an op fed by nothing else;
//  - an op laid out as a weight (a `stack` of expert weights) claims the
//    width of its row of weights in its layer, so rows do not overlap;
//  - alignment takes mutual median links first (each end a median of the
//    other; between two, the one with the longer chain of such links beyond
//    it), then plain first-come medians where they cross nothing: a fork
//    and its join then agree on the middle branch, so a repeated block
//    (attention: v | q | k rejoining at SDPA) keeps its stream in one
//    column instead of starting each block a column to the side (a 434-layer
//    Llama drew 28k px wide, drifting ~130 px per residual block);
//  - compaction uses the block graph with a longest-path pass and a
//    pull-right pass (as dagre does) instead of the original sink/shift
//    classes, which the 2020 erratum showed can overlap;
//  - a final left-to-right pass per layer restores the minimum separation
//    that balancing can violate with unequal widths, so boxes never overlap;
//  - then weights and ghosts slide towards their consumers within the room
//    left (satellite_placement.h);
//  - then straight runs of vertices move sideways to shorten the edges
//    that leave them, the order kept (length_descent.h).
#include <vector>

#include "core/layout/layered_graph.h"
#include "core/layout/layout.h"
#include "core/layout/progress.h"
#include "core/layout/span_placement.h"

namespace irscope::layout::detail {

// x of each vertex's centre; the leftmost box edge is at 0.
// Reports through `progress` (may throw LayoutCancelled).
std::vector<double> assignCoordinates(const LayeredGraph& g, const LayoutOptions& options,
                                      Progress* progress = nullptr);

// The chosen order's final coordinates: x, as assignCoordinates gave it,
// moved to the least weighted horizontal span for that order
// (span_placement.h), within `workBudget` steps of the solver; the
// leftmost box edge again at 0. Reports through `progress` (may throw
// LayoutCancelled).
SpanPlacement settleCoordinates(const LayeredGraph& g, const LayoutOptions& options, std::vector<double>& x,
                                int64_t workBudget, Progress* progress = nullptr);

}  // namespace irscope::layout::detail
