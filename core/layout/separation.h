#pragma once
// The least distance between the centres of two neighbours in a layer: half
// of each one's room plus the gap, narrower beside a long edge's bend point.
// One rule for every phase that moves vertices sideways (compaction, the
// separation repair after balancing, satellites, edge-length descent), so
// none of them undoes another's spacing.
#include <cstdint>
#include <vector>

#include "core/layout/layered_graph.h"
#include "core/layout/layout.h"

namespace irscope::layout::detail {

// room[v]: the width v claims in its layer (at least its box's).
inline double separation(const LayeredGraph& g, const std::vector<double>& room, int32_t a, int32_t b,
                         const LayoutOptions& o) {
    const double gap = (g.isDummy(a) || g.isDummy(b)) ? o.dummyGap : o.nodeGap;
    return (room[a] + room[b]) / 2 + gap;
}

}  // namespace irscope::layout::detail
