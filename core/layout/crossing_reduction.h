#pragma once
// Crossing reduction: a DFS initial order, then down/up barycenter sweeps,
// each followed by a bounded adjacent-exchange pass (adjacent_exchange.h;
// ties allowed on alternate rounds, as dot does, to leave plateaus). Several
// candidate orders (tie rules, keys, start) compete; the fewest crossings
// win, or on small graphs the least crossings-plus-drawn-length cost.
//
// Weights and ghosts are "satellites": each follows an anchor (the first
// ordinary input of its consumer, in the same layer) and is placed next to
// it, so a linear's weight and bias sit beside the activation they combine
// with instead of being sorted among unrelated nodes. The satellites split
// around their anchor where their edges cross fewest of the anchor's edges;
// among equally good splits the most even (a weight on each side, as dot
// draws it, halves their edges' length; the extra one right, after the
// activation as in the op's input order). A weight-like op (a `stack` of
// expert weights, long_edges.cpp) is no satellite: with its row of weights
// it is ordered like any vertex, and finds its own place, usually at the
// side of the drawing, rather than between an activation and its weights.
//
// Budget: graphs of up to a few thousand vertices, where effort is cheap
// and the drawing is held to dot's crossings (tests/layout/
// test_dot_bounds.cpp), get more rounds, measure the order after every
// half-round, and try up to six candidate orders (three tie rules from two
// starts; from 150 vertices the second start sweeps two of them, and two
// threads, where there are two cores, share the candidates' sweeps and
// measuring: barycenter_sweeps.h, candidate_pool.h). Larger ones keep the
// caller's rounds and, up
// to 20,000 vertices (a 3,000-node MoE step), still weigh four candidates
// (two tie rules from both starts) by drawn length; beyond that (the
// 100k-node LLM), where time matters more, two candidates compete on
// crossings alone.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/layout/adjacent_exchange.h"  // transposePass, used with the groups below
#include "core/layout/candidate_pool.h"
#include "core/layout/layered_graph.h"
#include "core/layout/progress.h"

namespace irscope::layout::detail {

// OrderLength (candidate_pool.h): the drawn length of an order (the
// caller's coordinates, summed over its edges), to choose between candidate
// orders. It may be called from two threads at once, each with its own graph.

// Which starts the candidates sweep from: All (the depth-first order, its
// mirror, and from 1,000 vertices the bottom-up orders), the depth-first
// order with its tie rules only (DepthFirstRules), or one candidate from
// it (DepthFirst): where two layerings are ordered, see layout.cpp.
enum class CandidateStarts { All, DepthFirst, DepthFirstRules };

// Reorders g.layers (and g.pos); returns the crossing count of the result.
// Reports through `progress` (may throw LayoutCancelled). Given
// orderLength, graphs of up to 20,000 vertices keep the candidate with the
// least crossings-plus-length cost (a crossing weighing as much as 5,000 px
// of horizontal span); otherwise the one with the fewest crossings. Last
// passes (an exchange, the chain exchange, lane routing) improve the winner.
// winnerLength, when given: the winner's length as measured before those
// passes (0 where no order was measured).
int64_t reduceCrossings(LayeredGraph& g, int sweeps, Progress* progress = nullptr, const OrderLength& orderLength = {},
                        CandidateStarts startSet = CandidateStarts::All, double* winnerLength = nullptr);

}  // namespace irscope::layout::detail
