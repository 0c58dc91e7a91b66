#include "core/layout/layering.h"

#include <algorithm>
#include <deque>
#include <utility>

#include "core/layout/fan_out_gaps.h"
#include "core/layout/layer_settling.h"
#include "core/layout/layer_sinking.h"

namespace irscope::layout::detail {

namespace {

struct TopologicalOrder {
    std::vector<int32_t> order;    // nodes, in topological order
    std::vector<int32_t> topoPos;  // per node: its index in order
};

// Topological order by Kahn's algorithm, FIFO seeded in index order. The
// input is normally already in execution order, which this preserves.
// Self-loops are ignored; a cycle is broken by releasing the smallest
// unplaced node (its remaining in-edges end up reversed).
TopologicalOrder topologicalOrder(const LayoutGraph& graph) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    const auto m = static_cast<int32_t>(graph.edges.size());
    // Out-edges in compressed rows (a vector per node was most of the
    // layering's allocations on a small graph).
    std::vector<int32_t> outStart(static_cast<size_t>(n) + 1, 0), outEdges;
    std::vector<int32_t> indeg(n, 0);
    for (int32_t e = 0; e < m; ++e) {
        const auto& ed = graph.edges[e];
        if (ed.source == ed.target) continue;
        ++outStart[ed.source + 1];
        ++indeg[ed.target];
    }
    for (int32_t v = 0; v < n; ++v) outStart[v + 1] += outStart[v];
    outEdges.resize(outStart[n]);
    {
        std::vector<int32_t> fill(outStart.begin(), outStart.end() - 1);
        for (int32_t e = 0; e < m; ++e) {
            const auto& ed = graph.edges[e];
            if (ed.source != ed.target) outEdges[fill[ed.source]++] = e;
        }
    }
    TopologicalOrder t;
    t.topoPos.assign(n, -1);
    t.order.reserve(n);
    std::deque<int32_t> queue;
    for (int32_t v = 0; v < n; ++v)
        if (indeg[v] == 0) queue.push_back(v);
    int32_t scan = 0;  // smallest index that may still be unplaced (cycle breaking)
    while (static_cast<int32_t>(t.order.size()) < n) {
        if (queue.empty()) {
            // A cycle: release the smallest unplaced node.
            while (t.topoPos[scan] >= 0 || indeg[scan] < 0) ++scan;
            indeg[scan] = 0;
            queue.push_back(scan);
        }
        const int32_t v = queue.front();
        queue.pop_front();
        if (t.topoPos[v] >= 0) continue;
        t.topoPos[v] = static_cast<int32_t>(t.order.size());
        t.order.push_back(v);
        indeg[v] = -1;
        for (int32_t k = outStart[v]; k < outStart[v + 1]; ++k) {
            const int32_t u = graph.edges[outEdges[k]].target;
            if (t.topoPos[u] < 0 && --indeg[u] == 0) queue.push_back(u);
        }
    }
    return t;
}

// Effective (downward) adjacency: every edge oriented along the topological
// order, each node's list in edge order.
struct DownwardAdjacency {
    Adjacency preds, succs;
};

// Marks in edgeReversed the edges that point against the order.
void markReversed(const LayoutGraph& graph, const std::vector<int32_t>& topoPos, std::vector<char>& edgeReversed) {
    for (size_t e = 0; e < graph.edges.size(); ++e)
        edgeReversed[e] = topoPos[graph.edges[e].source] > topoPos[graph.edges[e].target] ? 1 : 0;
}

// The downward adjacency of the edges as edgeReversed orients them.
DownwardAdjacency downwardAdjacency(const LayoutGraph& graph, const std::vector<char>& edgeReversed) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    const auto m = static_cast<int32_t>(graph.edges.size());
    std::vector<std::pair<int32_t, int32_t>> down, up;
    down.reserve(m);
    up.reserve(m);
    for (int32_t e = 0; e < m; ++e) {
        const auto& ed = graph.edges[e];
        if (ed.source == ed.target) continue;
        int32_t a = ed.source, b = ed.target;
        if (edgeReversed[e]) std::swap(a, b);
        down.emplace_back(a, b);
        up.emplace_back(b, a);
    }
    return {Adjacency(n, up), Adjacency(n, down)};
}

// A weight item is placed relative to its consumer only if nothing feeds it.
std::vector<char> weightItems(const LayoutGraph& graph, const DownwardAdjacency& adj) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    std::vector<char> weight(n, 0);
    for (int32_t v = 0; v < n; ++v) weight[v] = isSatellite(graph.nodes[v]) && adj.preds[v].empty();
    return weight;
}

// Longest path over non-weight edges (each at least its gap); a node fed
// by a weight needs a layer above it.
void longestPathLayers(const std::vector<int32_t>& order, const DownwardAdjacency& adj, const std::vector<char>& weight,
                       const FanOutGaps& gap, std::vector<int32_t>& layer) {
    for (int32_t v : order) {
        if (weight[v]) continue;
        int32_t l = 0;
        for (int32_t u : adj.preds[v]) l = std::max(l, weight[u] ? 1 : layer[u] + gap(u, v));
        layer[v] = l;
    }
}

// Constant subgraphs: ops that depend on no graph input, only on weights
// and other such ops (arange, full, a RoPE table indexed by constant
// positions and unsqueezed). Pulled down, consumers first, next to their
// nearest consumer, so a chain like index -> unsqueeze sits just above
// the op it feeds instead of at the top with a long lane down.
void pullConstantSubgraphsDown(const LayoutGraph& graph, const std::vector<int32_t>& order,
                               const DownwardAdjacency& adj, const std::vector<char>& weight, const FanOutGaps& gap,
                               std::vector<int32_t>& layer) {
    std::vector<char> constant(graph.nodes.size(), 0);
    for (int32_t v : order) {
        if (weight[v] || graph.nodes[v].kind != ItemKind::Op) continue;
        bool c = true;
        for (int32_t u : adj.preds[v]) c = c && (weight[u] || constant[u]);
        constant[v] = c;
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const int32_t v = *it;
        if (!constant[v] || adj.succs[v].empty()) continue;
        int32_t lowest = INT32_MAX;
        for (int32_t s : adj.succs[v]) lowest = std::min(lowest, layer[s] - gap(v, s));
        layer[v] = std::max(layer[v], lowest);
    }
}

// Weights: just above their first (highest) consumer.
void placeWeights(const DownwardAdjacency& adj, const std::vector<char>& weight, std::vector<int32_t>& layer) {
    const auto n = static_cast<int32_t>(layer.size());
    for (int32_t v = 0; v < n; ++v) {
        if (!weight[v]) continue;
        int32_t lowest = INT32_MAX;
        for (int32_t s : adj.succs[v]) lowest = std::min(lowest, layer[s]);
        layer[v] = adj.succs[v].empty() ? 0 : lowest - 1;
    }
}

}  // namespace

Layering assignLayers(const LayoutGraph& graph) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    const auto m = static_cast<int32_t>(graph.edges.size());
    Layering out;
    out.layer.assign(n, 0);
    out.edgeReversed.assign(m, 0);
    if (n == 0) return out;

    const TopologicalOrder topo = topologicalOrder(graph);
    markReversed(graph, topo.topoPos, out.edgeReversed);
    const DownwardAdjacency adj = downwardAdjacency(graph, out.edgeReversed);
    const std::vector<char> weight = weightItems(graph, adj);

    auto layOut = [&](const FanOutGaps& gap) {
        longestPathLayers(topo.order, adj, weight, gap, out.layer);
        pullConstantSubgraphsDown(graph, topo.order, adj, weight, gap, out.layer);
        sinkTowardConsumers(topo.order, adj.preds, adj.succs, weight, gap, out.layer);
    };
    // Without gaps first, to find the ops whose weight-fed consumers share
    // the layer below them; again with their gaps where there are any.
    layOut(FanOutGaps{});
    out.gaps = FanOutGaps(adj.preds, adj.succs, weight, out.layer);
    if (out.gaps.any()) layOut(out.gaps);
    placeWeights(adj, weight, out.layer);
    out.layerCount = 1 + *std::max_element(out.layer.begin(), out.layer.end());
    return out;
}

Layering settleLayering(const LayoutGraph& graph, const Layering& sunk) {
    Layering out = sunk;
    if (graph.nodes.empty()) return out;
    const DownwardAdjacency adj = downwardAdjacency(graph, out.edgeReversed);
    const std::vector<char> weight = weightItems(graph, adj);
    settleLayers(adj.preds, adj.succs, weight, out.gaps, out.layer);
    placeWeights(adj, weight, out.layer);
    out.layerCount = 1 + *std::max_element(out.layer.begin(), out.layer.end());
    return out;
}

}  // namespace irscope::layout::detail
