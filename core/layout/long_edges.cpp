#include "core/layout/long_edges.h"

#include <algorithm>
#include <numeric>

namespace irscope::layout::detail {

void LayeredGraph::updatePositions() {
    pos.resize(type.size());
    for (const auto& l : layers)
        for (size_t i = 0; i < l.size(); ++i) pos[l[i]] = static_cast<int32_t>(i);
}

LayeredGraph buildLayeredGraph(const LayoutGraph& graph, const Layering& layering, const LayoutOptions& options) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    const auto m = static_cast<int32_t>(graph.edges.size());
    const auto& layer = layering.layer;

    // Oriented endpoints, span and fan-out per edge.
    std::vector<int32_t> top(m, -1), bottom(m, -1);
    std::vector<int32_t> fanout(n, 0);
    for (int32_t e = 0; e < m; ++e) {
        const auto& ed = graph.edges[e];
        if (ed.source == ed.target) continue;
        top[e] = layering.edgeReversed[e] ? ed.target : ed.source;
        bottom[e] = layering.edgeReversed[e] ? ed.source : ed.target;
        ++fanout[top[e]];
    }
    auto span = [&](int32_t e) { return layer[bottom[e]] - layer[top[e]]; };

    std::vector<char> ghosted(m, 0);
    int64_t dummies = 0;
    std::vector<int32_t> longEdges;
    for (int32_t e = 0; e < m; ++e) {
        if (top[e] < 0 || span(e) <= 1) continue;
        const int32_t s = span(e);
        if ((s > options.ghostMinSpan && fanout[top[e]] >= options.ghostMinFanout) || s > options.maxEdgeSpan) {
            ghosted[e] = 1;
        } else {
            dummies += s - 1;
            longEdges.push_back(e);
        }
    }
    // Global budget: ghost the longest remaining edges until dummies fit.
    const auto budget = static_cast<int64_t>(options.maxDummiesPerItem * std::max<int32_t>(n, 1));
    if (dummies > budget) {
        std::stable_sort(longEdges.begin(), longEdges.end(), [&](int32_t a, int32_t b) { return span(a) > span(b); });
        for (int32_t e : longEdges) {
            if (dummies <= budget) break;
            ghosted[e] = 1;
            dummies -= span(e) - 1;
        }
    }

    LayeredGraph g;
    g.itemCount = n;
    g.type.reserve(n + dummies);
    for (int32_t v = 0; v < n; ++v) {
        g.type.push_back(isSatellite(graph.nodes[v]) ? VertexType::Weight : VertexType::Item);
        g.layer.push_back(layer[v]);
        g.width.push_back(graph.nodes[v].width);
        g.height.push_back(graph.nodes[v].height);
    }
    for (int32_t e = 0; e < m; ++e) {
        if (!ghosted[e]) continue;
        g.type.push_back(VertexType::Ghost);
        g.layer.push_back(layer[bottom[e]] - 1);
        g.width.push_back(std::min(graph.nodes[top[e]].width + 16, options.ghostMaxWidth));   // + room for the "↳ " mark
        g.height.push_back(options.ghostHeight);
        g.ghostOf.push_back(top[e]);
    }
    g.ghostCount = static_cast<int32_t>(g.ghostOf.size());

    // Chains: ghost or source, dummies, target.
    g.chain.assign(m, {});
    g.reversed.assign(layering.edgeReversed.begin(), layering.edgeReversed.end());
    g.reversedCount = std::count(g.reversed.begin(), g.reversed.end(), 1);
    int32_t nextGhost = n;
    for (int32_t e = 0; e < m; ++e) {
        if (top[e] < 0) continue;
        auto& c = g.chain[e];
        if (ghosted[e]) {
            c = {nextGhost++, bottom[e]};
            continue;
        }
        c.push_back(top[e]);
        for (int32_t l = layer[top[e]] + 1; l < layer[bottom[e]]; ++l) {
            c.push_back(g.vertexCount());
            g.type.push_back(VertexType::Dummy);
            g.layer.push_back(l);
            g.width.push_back(0);
            g.height.push_back(0);
        }
        c.push_back(bottom[e]);
    }

    const int32_t vc = g.vertexCount();
    g.up.assign(vc, {});
    g.down.assign(vc, {});
    for (const auto& c : g.chain)
        for (size_t i = 0; i + 1 < c.size(); ++i) {
            g.down[c[i]].push_back(c[i + 1]);
            g.up[c[i + 1]].push_back(c[i]);
        }
    int32_t layerCount = layering.layerCount;
    g.layers.assign(std::max(layerCount, 1), {});
    for (int32_t v = 0; v < vc; ++v) g.layers[g.layer[v]].push_back(v);
    g.updatePositions();
    return g;
}

}  // namespace irscope::layout::detail
