#include "core/layout/layer_settling.h"

#include <algorithm>
#include <limits>

#include "core/layout/network_simplex.h"

namespace irscope::layout::detail {

namespace {

// Pivot work per node the solver may spend: from the sunk layering it needs
// a few dozen pivots on the population's MoE decode steps (about 40 work a
// node); the bound keeps an adversarial graph from running on.
constexpr int64_t kSettleWorkPerNode = 2000;

}  // namespace

void settleLayers(const Adjacency& preds, const Adjacency& succs, const std::vector<char>& weight,
                  const FanOutGaps& gap, std::vector<int32_t>& layer) {
    const auto n = static_cast<int32_t>(layer.size());
    if (n == 0) return;
    // Two extra nodes: `top` (layer 0, what every source hangs below) and
    // `bottom`, which every node is pulled towards with weight 1; an edge
    // weighs n + 2, so all the pulls together never outweigh one edge's
    // layer of span.
    const int32_t top = n, bottom = n + 1;
    const int64_t edgeWeight = int64_t{n} + 2;
    std::vector<DifferenceConstraint> cs;
    std::vector<int64_t> r(static_cast<size_t>(n) + 2, 0);
    std::vector<char> needsRoom(n, 0);  // fed by a weight: layer 1 at least
    int32_t deepest = 0;
    for (int32_t v = 0; v < n; ++v) {
        if (weight[v]) continue;
        r[v] = layer[v];
        deepest = std::max(deepest, layer[v]);
        bool fedByWeight = false, fedByNode = false;
        for (int32_t u : preds[v]) (weight[u] ? fedByWeight : fedByNode) = true;
        needsRoom[v] = fedByWeight;
        if (!fedByNode) cs.push_back({top, v, fedByWeight ? 1 : 0, 0});
        for (int32_t s : succs[v])
            if (!weight[s]) cs.push_back({v, s, gap(v, s), edgeWeight});
        if (succs[v].empty())
            cs.push_back({v, top, -int64_t{layer[v]}, 0});  // an output moves no lower
        else
            cs.push_back({v, bottom, 0, 1});
    }
    r[bottom] = deepest;
    solveNetworkSimplex(cs, r, kSettleWorkPerNode * (int64_t{n} + 2));
    // The solver keeps differences, not the origin: the top layer is 0 again
    // (or the weights' above it).
    int64_t least = std::numeric_limits<int64_t>::max();
    for (int32_t v = 0; v < n; ++v)
        if (!weight[v]) least = std::min(least, r[v] - needsRoom[v]);
    for (int32_t v = 0; v < n; ++v)
        if (!weight[v]) layer[v] = static_cast<int32_t>(r[v] - least);
}

}  // namespace irscope::layout::detail
