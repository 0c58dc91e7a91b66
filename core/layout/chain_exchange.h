#pragma once
// Internal: chain exchange, the adjacent exchange (adjacent_exchange.h)
// carried over several layers at once. Two neighbouring units of a layer
// (a vertex, or an anchor with its satellites) trade places together with
// the units their edges run straight into, layer after layer, as long as
// each pair stays two parallel chains: all of one unit's edges to the next
// layer go to one unit there, which takes edges from nothing else. Inside
// such a block nothing changes (the two chains stay parallel, and every
// other edge meets the same set of places); only the block's first and
// last layers' outer edges cross differently, so the gain is counted there
// alone.
//
// Why: where a lane must cross a column, the barycenter sweeps and the
// one-layer exchange settle wherever the crossing landed, even where the
// column is two edges wide (an op fed by its weight) and one layer further
// down it is one edge. In a decode step that computes its rotary tables per
// layer, the position lane crossed a projection and its weight: one
// crossing more than dot per decoder layer. Moving the crossing down the
// chains is a move no single-layer step makes: its first step gains
// nothing.
#include <cstdint>
#include <vector>

#include "core/layout/layered_graph.h"

namespace irscope::layout::detail {

// Repeats the pass over every layer until nothing gains (at most
// maxRounds), exchanging blocks of up to maxDepth layers above and below
// the pair it starts from. group: as for transposePass (-1: a plain
// vertex; otherwise an anchor's id, its satellites beside it). Updates
// g.layers and g.pos; returns the crossings removed (never negative).
int64_t chainExchangePass(LayeredGraph& g, const std::vector<int32_t>& group, int maxDepth, int maxRounds);

}  // namespace irscope::layout::detail
