#pragma once
// Span placement: the x coordinates of an order that make its edges'
// weighted horizontal span least, solved exactly (network simplex on
// dot's auxiliary graph, network_simplex.h) from the coordinates the
// cheaper phases found.
//
// Why: with layers and order fixed, the length a reader's eye follows is
// almost all horizontal, and the heuristics (Brandes-Koepf, satellites,
// the run descent) move one run at a time into the room its neighbours
// leave. On decoder steps with rotary embeddings and KV caches, and on MoE
// routers, they left 30-40% more horizontal span than the optimum for the
// same order (checked against an LP solver), which is what dot draws.
//
// The auxiliary graph (Gansner et al. 1993, section 4.2): a node per edge
// segment, below both its ends, so that its two constraints' weighted
// slack is the segment's |dx|; a zero-weight constraint between
// neighbours in a layer holds their separation. Weights are dot's: 1
// between boxes, 2 from a box to a bend point, 8 between bend points, so
// long edges run straight.
#include <cstdint>
#include <vector>

#include "core/layout/layered_graph.h"
#include "core/layout/layout.h"
#include "core/layout/network_simplex.h"
#include "core/layout/progress.h"

namespace irscope::layout::detail {

struct SpanPlacement {
    SimplexReport solver;
    // false: x kept as it came (the solver stopped early no shorter, or its
    // placement was much wider than the start, see span_placement.cpp).
    bool applied = false;
};

// Improves x (a centre per vertex, every separation held) in place, for at
// most `workBudget` steps of the solver (network_simplex.h), reporting
// them through `progress` (which may throw LayoutCancelled).
SpanPlacement placeForLeastSpan(const LayeredGraph& g, const std::vector<double>& room, const LayoutOptions& options,
                                std::vector<double>& x, int64_t workBudget, Progress* progress = nullptr);

}  // namespace irscope::layout::detail
