#pragma once
// Edge-length descent: with the order of every layer fixed (so the
// crossings too), moves straight vertical runs of vertices sideways to
// shorten the edges that leave them.
//
// Why: Brandes-Koepf's balanced packings keep chains straight but leave a
// branch where its packing put it: an encoder-decoder's q/k/v projections
// spread wide, a decoder layer a column away from what feeds it. Graphviz
// dot instead solves for the shortest weighted edges (network simplex);
// over 200 generated graphs our edges were as long as dot's on average but
// up to 1.375x on the worst. This is a cheaper relative of that: block
// coordinate descent on the total horizontal span. A run (vertices one
// above the other at the same x, joined by edges) moved by t changes the
// span of the edges leaving it by sum |x_v + t - x_w|, convex in t, so its
// best t within the room its layer neighbours leave is the median of the
// x_w - x_v clamped to that room. Every move lowers the total; runs that
// come to line up with their neighbours join them and move together in the
// next pass. Linear per pass (plus the medians' sorting).
#include <vector>

#include "core/layout/layered_graph.h"
#include "core/layout/layout.h"

namespace irscope::layout::detail {

// Moves runs of g in x (a centre per vertex) for at most `passes` passes, or
// until a pass moves nothing; keeps every separation x already satisfies,
// room[v] being the width v claims in its layer. Returns the number of moves.
int shortenEdges(const LayeredGraph& g, const std::vector<double>& room, const LayoutOptions& options,
                 std::vector<double>& x, int passes);

}  // namespace irscope::layout::detail
