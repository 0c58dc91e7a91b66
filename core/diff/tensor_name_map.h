#pragma once
// B's tensor names in A's names, through the match: what lets values saved
// from a run of graph B (an `irscope run --dump`, keyed by B's node output
// names) stand as the reference for a run of graph A, node for node, although
// FX renumbered half the names. Only matched values are carried: B's `mul`
// may be a node A never had, and must not stand in for A's `mul`.
#include <string>
#include <utility>
#include <vector>

#include "core/diff/graph_diff.h"

namespace irscope::diff {

// (name in B, name in A) for every output of a matched node pair (same output
// position, same shape) and every matched graph input.
std::vector<std::pair<std::string, std::string>> tensorNamesBToA(const GraphDiff& diff, const ir::GraphIndex& a,
                                                                 const ir::GraphIndex& b);

}  // namespace irscope::diff
