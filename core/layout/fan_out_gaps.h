#pragma once
// Fan-out gaps: the least layer span of each downward edge, 1 or 2.
//
// Why: a weight sits in the layer just above the op it feeds (layering.h),
// beside that op's other inputs. Where one op feeds three or more ops that
// each read weights (a LayerNorm feeding q, k and v projections with
// weights and biases; a hidden state feeding every expert's gate), all of
// them one layer below it, its edges to the middle ones must cross the
// weights of a neighbour: two crossings per attention block of a ViT, in
// dot's drawing as in ours, whatever the order. With one layer more
// between them, the op's edges pass through that layer as bend points and
// take their places between the weights: none cross. The cost is one layer
// of height on those edges.
#include <cstdint>
#include <vector>

#include "core/layout/adjacency.h"

namespace irscope::layout::detail {

// An op with at least this many weight-fed ops one layer below gets the gap.
constexpr int32_t kGapFanOut = 3;

// Which ops get the gap is read off a layering without gaps: only those
// whose weight-fed consumers would share the layer just below them. An op
// feeding weight-fed ops all over the graph (an encoder's output read by
// each decoder layer's cross-attention) keeps its edges as they were.
class FanOutGaps {
public:
    FanOutGaps() = default;  // no gaps
    // preds/succs: the downward adjacency; weight: the nodes placed just
    // above their consumer; layer: a layering without gaps.
    FanOutGaps(const Adjacency& preds, const Adjacency& succs, const std::vector<char>& weight,
               const std::vector<int32_t>& layer);

    bool any() const;

    // The least layer span of the downward edge v -> s (neither a weight).
    int32_t operator()(int32_t v, int32_t s) const { return !spread_.empty() && spread_[v] && weightFed_[s] ? 2 : 1; }

private:
    std::vector<char> spread_;     // per node: kGapFanOut or more weight-fed ops one layer below
    std::vector<char> weightFed_;  // per node: reads a weight
};

}  // namespace irscope::layout::detail
