#pragma once
// Adjacent exchange ("transpose"), the local search after each barycenter
// sweep (crossing_reduction.h): neighbours in a layer trade places while
// that strictly lowers the crossings of their edges to both adjacent
// layers. Two kinds of neighbours: two plain vertices, or two "units",
// where a unit is a plain vertex or an anchor with its satellites (a
// linear's activation with its weight and bias), kept together. Without
// the unit exchange an anchor could never pass a plain vertex, and the
// sweeps' local minima stayed (an op with a weight on the wrong side of an
// island of sixteen expert weights: 33 crossings on a MoE layer).
#include <cstdint>
#include <span>
#include <vector>

#include "core/layout/layered_graph.h"
#include "core/layout/progress.h"

namespace irscope::layout::detail {

// The crossings between the edges of two neighbours (vertices or units)
// to one neighbour layer, the left one's ends A and the right one's ends B
// (positions there, both sorted): `now` as they stand (pairs a > b),
// `swapped` with the two exchanged (pairs b > a). One merge counts both.
struct PairCrossings {
    int64_t now = 0, swapped = 0;
};
PairCrossings pairCrossings(std::span<const int32_t> a, std::span<const int32_t> b);

// Crossings between layer l and l + 1, for every l.
std::vector<int64_t> layerGaps(const LayeredGraph& g);

// Greedy adjacent exchange ("transpose") on the layers that have crossings:
// swaps neighbours u, v in a layer when that strictly lowers the crossings of
// their edges to both adjacent layers (counted by merging their sorted
// neighbour positions), revisiting a layer's neighbours when it changed, at
// most maxVisitsPerLayer times per layer. Only vertices of the same group
// swap (group[v]; -1 for plain vertices, which all form one group); a group
// other than -1 (an anchor and its satellites, contiguous) also trades
// places with a neighbouring vertex or group as a whole. Updates g.layers
// and g.pos; returns the number of crossings removed. allowTies:
// also swap crossed pairs that cross as much either way, once per layer (to
// leave a plateau; the count never goes up).
int64_t transposePass(LayeredGraph& g, const std::vector<int32_t>& group, int maxVisitsPerLayer,
                      bool allowTies = false);

// transposeWithGaps' working memory, kept by a caller that calls it often
// (the sweeps call it after every round; allocating the end lists each time
// cost more than the exchanges on the MoE fixtures).
struct TransposeScratch {
    struct Units {                                    // for the exchange of whole groups
        std::vector<size_t> start;                    // per unit: its first position; one past the end last
        std::vector<int32_t> upA, downA, upB, downB;  // merged sorted ends of two neighbouring units
    };
    std::vector<int32_t> work, visits;  // layers to visit; visits per layer
    std::vector<char> queued;           // per layer: in `work`
    // The ends of the layer being improved: per vertex, the sorted positions
    // of its neighbours above (below), a slice of upEnds (downEnds) from
    // upAt[v] (downAt[v]). Kept by vertex, not by position, so an exchange
    // moves no list.
    std::vector<int32_t> upEnds, downEnds, upAt, downAt;
    Units units;
    std::vector<int32_t> tree;  // for countLayerCrossings
    // Per layer, when sized by the caller: bumped each time the pass
    // reorders that layer (the caller bumps it for its own reorderings), so
    // the caller can tell an unchanged layer from its version.
    std::vector<uint32_t> version;
};

// What one transposeWithGaps did. settled: it stopped because no exchange
// gains anything, not because a layer ran out of visits or passes, so the
// order is a fixed point of the strict pass (ties off): transposePass on it
// would find nothing to do.
struct ExchangeOutcome {
    int64_t gained = 0;  // crossings removed
    bool settled = true;
};

// transposePass given the crossings per layer gap, which must be exact on
// entry: it keeps them so by what each exchange changes, never recounting.
// Reports through `progress` (work units out of `total`).
ExchangeOutcome transposeWithGaps(LayeredGraph& g, const std::vector<int32_t>& group, int maxVisitsPerLayer,
                                  bool allowTies, std::vector<int64_t>& gap, TransposeScratch& scratch,
                                  Progress* progress = nullptr, int64_t total = 0);

}  // namespace irscope::layout::detail
