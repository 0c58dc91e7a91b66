#pragma once
// Counting edge crossings between adjacent layers in O(E log V) with a
// Fenwick (binary indexed) tree, after Barth, Juenger & Mutzel, "Simple and
// efficient bilayer cross counting" (2004): walk the edges in upper-layer
// order and count, for each, the earlier edges that end further right below.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/layout/layered_graph.h"

namespace irscope::layout::detail {

// Crossings among segments given as (upper position, lower position); the
// lower positions are < lowerSize. Segments sharing an endpoint never cross.
int64_t countBilayerCrossings(std::vector<std::pair<int32_t, int32_t>>& segments, int32_t lowerSize);

// Crossings between layer `upper` and upper + 1 under the current order.
int64_t countLayerCrossings(const LayeredGraph& g, int32_t upper);
// The same with the caller's scratch (a Fenwick tree, resized as needed):
// for callers that count many gaps.
int64_t countLayerCrossings(const LayeredGraph& g, int32_t upper, std::vector<int32_t>& tree);
int64_t countAllCrossings(const LayeredGraph& g);

}  // namespace irscope::layout::detail
