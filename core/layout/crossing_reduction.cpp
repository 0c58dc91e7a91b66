#include "core/layout/crossing_reduction.h"

#include <algorithm>

#include "core/layout/crossing_count.h"

namespace irscope::layout::detail {

namespace {

void initialOrder(LayeredGraph& g) {
    // Depth-first from the sources in input order (the IR's execution order):
    // a chain of ops lands in one column and branches next to each other.
    const int32_t vc = g.vertexCount();
    std::vector<char> seen(vc, 0);
    for (auto& l : g.layers) l.clear();
    std::vector<std::pair<int32_t, size_t>> stack;
    auto visitFrom = [&](int32_t root) {
        if (seen[root]) return;
        seen[root] = 1;
        g.layers[g.layer[root]].push_back(root);
        stack.emplace_back(root, 0);
        while (!stack.empty()) {
            auto& [v, next] = stack.back();
            if (next == g.down[v].size()) {
                stack.pop_back();
                continue;
            }
            const int32_t w = g.down[v][next++];
            if (seen[w]) continue;
            seen[w] = 1;
            g.layers[g.layer[w]].push_back(w);
            stack.emplace_back(w, 0);
        }
    };
    for (int32_t v = 0; v < vc; ++v)
        if (g.up[v].empty() && g.alignsFreely(v)) visitFrom(v);
    for (int32_t v = 0; v < vc; ++v) visitFrom(v);
    g.updatePositions();
}

}  // namespace

int64_t reduceCrossings(LayeredGraph& g, int sweeps) {
    const int32_t vc = g.vertexCount();
    const auto layerCount = static_cast<int32_t>(g.layers.size());
    initialOrder(g);

    // Satellites and their anchors.
    std::vector<int32_t> anchorOf(vc, -1);
    std::vector<std::vector<int32_t>> satellites(vc);
    for (int32_t v = 0; v < vc; ++v) {
        if (g.alignsFreely(v) || g.down[v].size() != 1) continue;
        const int32_t c = g.down[v][0];
        for (int32_t u : g.up[c])
            if (g.alignsFreely(u)) {
                anchorOf[v] = u;
                satellites[u].push_back(v);
                break;
            }
    }

    std::vector<double> key(vc, 0);
    std::vector<int32_t> buffer;
    auto sortLayer = [&](int32_t l, bool downward) {
        auto& layer = g.layers[l];
        buffer.clear();
        for (int32_t v : layer) {
            if (anchorOf[v] >= 0) continue;
            const auto& nb = downward ? g.up[v] : g.down[v];
            if (nb.empty()) {
                key[v] = g.pos[v];
            } else {
                double s = 0;
                for (int32_t u : nb) s += g.pos[u];
                key[v] = s / static_cast<double>(nb.size());
            }
            buffer.push_back(v);
        }
        std::stable_sort(buffer.begin(), buffer.end(), [&](int32_t a, int32_t b) { return key[a] < key[b]; });
        layer.clear();
        for (int32_t v : buffer) {
            layer.push_back(v);
            auto& sat = satellites[v];
            if (sat.empty()) continue;
            // Satellites in the order of their consumers below.
            std::stable_sort(sat.begin(), sat.end(),
                             [&](int32_t a, int32_t b) { return g.pos[g.down[a][0]] < g.pos[g.down[b][0]]; });
            layer.insert(layer.end(), sat.begin(), sat.end());
        }
        for (size_t i = 0; i < layer.size(); ++i) g.pos[layer[i]] = static_cast<int32_t>(i);
    };

    int64_t best = -1;
    std::vector<std::vector<int32_t>> bestLayers;
    int stale = 0;
    for (int round = 0; round < sweeps; ++round) {
        for (int32_t l = 1; l < layerCount; ++l) sortLayer(l, true);
        for (int32_t l = layerCount - 2; l >= 0; --l) sortLayer(l, false);
        const int64_t c = countAllCrossings(g);
        if (best < 0 || c < best) {
            best = c;
            bestLayers = g.layers;
            stale = 0;
        } else if (++stale >= 2) {
            break;
        }
        if (best == 0) break;
    }
    if (best < 0) return countAllCrossings(g);
    g.layers = std::move(bestLayers);
    g.updatePositions();
    return best;
}

}  // namespace irscope::layout::detail
