#pragma once
// Layering: assigns every LayoutGraph node a layer (0 = top).
//  - longest path from the sources over non-weight edges, so each op sits
//    just below its deepest input;
//  - ops that depend on no graph input (arange, full, a constant RoPE table
//    indexed and unsqueezed, ...) are pulled down next to their first
//    consumer instead of floating at the top;
//  - then every node with at least as many edges below as above sinks to
//    just above its highest consumer (layer_sinking.h): graph inputs read
//    once deep in the graph, side branches; a bounded step towards the
//    shortest total edge span that dot's network simplex finds;
//  - each weight item sits in the layer just above its (first) consumer, so
//    a weight never stretches across the graph.
// Cycles (malformed input) are broken deterministically: edges that go
// against a topological order are reversed.
#include <cstdint>
#include <vector>

#include "core/layout/fan_out_gaps.h"
#include "core/layout/layout_graph.h"

namespace irscope::layout::detail {

struct Layering {
    std::vector<int32_t> layer;      // per node
    std::vector<char> edgeReversed;  // per edge: drawn upward in the input order
    int32_t layerCount = 0;
    FanOutGaps gaps;  // the least span of each edge (fan_out_gaps.h)
};

// The layering every graph gets (longest path and sinking, above).
Layering assignLayers(const LayoutGraph& graph);

// A second layering the layout may try (layout.cpp): `sunk` (what
// assignLayers gave) settled to the least total edge span
// (layer_settling.h), the same edges reversed, weights placed again.
Layering settleLayering(const LayoutGraph& graph, const Layering& sunk);

}  // namespace irscope::layout::detail
