#pragma once
// Layer settling: the layering of least total edge span (what Graphviz dot's
// network simplex finds), reached from the sunk layering
// (layer_sinking.h), with ties broken downwards.
//
// Why a second layering: sinking moves one node or chain at a time, and
// only where that alone shortens the edges. Where a group must move
// together, it stays: in a decode step's MoE layer the router's
// bookkeeping (one-hot counts, scatter into a zeros_like, index_add) keeps
// its ops high above the experts that consume them, with long lanes that
// cross the experts' columns. The least span lays them next to their
// consumers. It is not better everywhere (a dense MoE layer drew more
// crossings with it), so the layout orders both layerings and keeps the
// better drawing (layout.cpp).
//
// Ties: among layerings of the least span, nodes sit as low as they can
// (each node pulls down with a weight far below one edge's), as sinking
// does, so a rotary table's chain sits beside the products it feeds; graph
// outputs never move lower than sinking put them (just below what they
// show), or a whole branch ending in a KV-cache output would slide down to
// its next use.
#include <cstdint>
#include <vector>

#include "core/layout/adjacency.h"
#include "core/layout/fan_out_gaps.h"

namespace irscope::layout::detail {

// preds/succs: the downward adjacency; weight: nodes placed later just above
// their consumer (neither their layer nor their edges count; a node they feed
// needs layer 1 at least); gap: each edge's least span. layer: the sunk
// layering, replaced by the settled one (the top layer 0 again). Work grows with the graph's size times the
// pivots; callers run it on graphs of up to about 20,000 nodes.
void settleLayers(const Adjacency& preds, const Adjacency& succs, const std::vector<char>& weight,
                  const FanOutGaps& gap, std::vector<int32_t>& layer);

}  // namespace irscope::layout::detail
