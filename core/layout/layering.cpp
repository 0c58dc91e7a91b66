#include "core/layout/layering.h"

#include <algorithm>
#include <deque>

namespace irscope::layout::detail {

Layering assignLayers(const LayoutGraph& graph) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    const auto m = static_cast<int32_t>(graph.edges.size());
    Layering out;
    out.layer.assign(n, 0);
    out.edgeReversed.assign(m, 0);
    if (n == 0) return out;

    // Topological order by Kahn's algorithm, FIFO seeded in index order. The
    // input is normally already in execution order, which this preserves.
    std::vector<std::vector<int32_t>> outEdges(n), inEdges(n);
    std::vector<int32_t> indeg(n, 0);
    for (int32_t e = 0; e < m; ++e) {
        const auto& ed = graph.edges[e];
        if (ed.source == ed.target) continue;
        outEdges[ed.source].push_back(e);
        inEdges[ed.target].push_back(e);
        ++indeg[ed.target];
    }
    std::vector<int32_t> topoPos(n, -1), order;
    order.reserve(n);
    std::deque<int32_t> queue;
    for (int32_t v = 0; v < n; ++v)
        if (indeg[v] == 0) queue.push_back(v);
    int32_t scan = 0;   // smallest index that may still be unplaced (cycle breaking)
    while (static_cast<int32_t>(order.size()) < n) {
        if (queue.empty()) {
            // A cycle: release the smallest unplaced node; its remaining
            // in-edges will be reversed.
            while (topoPos[scan] >= 0 || indeg[scan] < 0) ++scan;
            indeg[scan] = 0;
            queue.push_back(scan);
        }
        const int32_t v = queue.front();
        queue.pop_front();
        if (topoPos[v] >= 0) continue;
        topoPos[v] = static_cast<int32_t>(order.size());
        order.push_back(v);
        indeg[v] = -1;
        for (int32_t e : outEdges[v]) {
            const int32_t t = graph.edges[e].target;
            if (topoPos[t] < 0 && --indeg[t] == 0) queue.push_back(t);
        }
    }

    // Effective (downward) adjacency.
    std::vector<std::vector<int32_t>> preds(n), succs(n);
    for (int32_t e = 0; e < m; ++e) {
        const auto& ed = graph.edges[e];
        if (ed.source == ed.target) continue;
        int32_t a = ed.source, b = ed.target;
        if (topoPos[a] > topoPos[b]) {
            std::swap(a, b);
            out.edgeReversed[e] = 1;
        }
        succs[a].push_back(b);
        preds[b].push_back(a);
    }
    // A weight item is placed relative to its consumer only if nothing feeds it.
    std::vector<char> weight(n, 0);
    for (int32_t v = 0; v < n; ++v) weight[v] = isSatellite(graph.nodes[v]) && preds[v].empty();

    // Longest path over non-weight edges; a node fed by a weight needs a layer above it.
    auto& layer = out.layer;
    for (int32_t v : order) {
        if (weight[v]) continue;
        int32_t l = 0;
        for (int32_t u : preds[v]) l = std::max(l, weight[u] ? 1 : layer[u] + 1);
        layer[v] = l;
    }
    // Constant subgraphs: ops that depend on no graph input, only on weights
    // and other such ops (arange, full, a RoPE table indexed by constant
    // positions and unsqueezed). Pulled down, consumers first, next to their
    // nearest consumer, so a chain like index -> unsqueeze sits just above
    // the op it feeds instead of at the top with a long lane down.
    std::vector<char> constant(n, 0);
    for (int32_t v : order) {
        if (weight[v] || graph.nodes[v].kind != ItemKind::Op) continue;
        bool c = true;
        for (int32_t u : preds[v]) c = c && (weight[u] || constant[u]);
        constant[v] = c;
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const int32_t v = *it;
        if (!constant[v] || succs[v].empty()) continue;
        int32_t lowest = INT32_MAX;
        for (int32_t s : succs[v]) lowest = std::min(lowest, layer[s]);
        layer[v] = std::max(layer[v], lowest - 1);
    }
    // Weights: just above their first (highest) consumer.
    for (int32_t v = 0; v < n; ++v) {
        if (!weight[v]) continue;
        int32_t lowest = INT32_MAX;
        for (int32_t s : succs[v]) lowest = std::min(lowest, layer[s]);
        layer[v] = succs[v].empty() ? 0 : lowest - 1;
    }
    out.layerCount = 1 + *std::max_element(layer.begin(), layer.end());
    return out;
}

}  // namespace irscope::layout::detail
