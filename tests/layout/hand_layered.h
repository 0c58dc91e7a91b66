#pragma once
// A proper layered graph written by hand, for the suites that test one
// phase of the engine on a graph whose best answer is known (crossing
// reduction, edge-length descent, span placement): layers of vertex ids in
// drawing order, edges between adjacent layers, every box 40 x 20 px; and
// the horizontal span those suites measure.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <random>
#include <utility>
#include <vector>

#include "core/layout/layered_graph.h"

namespace hand_layered {

using irscope::layout::detail::LayeredGraph;
using irscope::layout::detail::VertexType;

// Vertices listed in `weights` are weights, those in `dummies` bend
// points; the rest are items. (The engine numbers items, then ghosts, then
// bend points; a hand-built graph may mix them, as the phases under test
// go by each vertex's type.)
inline LayeredGraph layered(std::vector<std::vector<int32_t>> layers,
                            const std::vector<std::pair<int32_t, int32_t>>& edges,
                            const std::vector<int32_t>& weights = {}, const std::vector<int32_t>& dummies = {}) {
    LayeredGraph g;
    int32_t vc = 0;
    for (const auto& l : layers) vc += static_cast<int32_t>(l.size());
    g.itemCount = vc - static_cast<int32_t>(dummies.size());
    g.type.assign(vc, VertexType::Item);
    for (int32_t w : weights) g.type[w] = VertexType::Weight;
    for (int32_t d : dummies) g.type[d] = VertexType::Dummy;
    g.layer.assign(vc, 0);
    g.width.assign(vc, 40);
    g.height.assign(vc, 20);
    for (size_t l = 0; l < layers.size(); ++l)
        for (int32_t v : layers[l]) g.layer[v] = static_cast<int32_t>(l);
    std::vector<std::pair<int32_t, int32_t>> ups;
    for (auto [a, b] : edges) ups.emplace_back(b, a);
    g.down = irscope::layout::detail::Adjacency(vc, edges);
    g.up = irscope::layout::detail::Adjacency(vc, ups);
    g.layers = std::move(layers);
    g.updatePositions();
    return g;
}

inline LayeredGraph layered(std::vector<std::vector<int32_t>> layers,
                            std::initializer_list<std::pair<int32_t, int32_t>> edges,
                            std::initializer_list<int32_t> weights = {}) {
    return layered(std::move(layers), std::vector<std::pair<int32_t, int32_t>>(edges), std::vector<int32_t>(weights));
}

// Whether every group other than -1 (an anchor with its satellites, as the
// exchange passes take them) sits in one run of its layer.
inline bool groupsTogether(const LayeredGraph& g, const std::vector<int32_t>& group) {
    for (const auto& layer : g.layers)
        for (size_t i = 0; i < layer.size(); ++i) {
            const int32_t id = group[layer[i]];
            if (id < 0) continue;
            for (size_t j = i + 2; j < layer.size(); ++j)
                if (group[layer[j]] == id && group[layer[j - 1]] != id) return false;
        }
    return true;
}

// Whether g's layers hold the same vertices as `layers`, each in some
// order, and g.pos agrees with g's layers.
inline bool sameVerticesInStep(const LayeredGraph& g, const std::vector<std::vector<int32_t>>& layers) {
    if (g.layers.size() != layers.size()) return false;
    for (size_t l = 0; l < layers.size(); ++l) {
        std::vector<int32_t> a = g.layers[l], b = layers[l];
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a != b) return false;
    }
    for (int32_t v = 0; v < g.vertexCount(); ++v)
        if (g.layers[g.layer[v]][g.pos[v]] != v) return false;
    return true;
}

// The horizontal span of x: the sum over g's edges of |x_v - x_w|, each
// weighted as dot weighs it in x placement (1 between boxes, 2 from a box
// to a bend point, 8 between bend points) when dotWeights.
inline double horizontalSpan(const LayeredGraph& g, const std::vector<double>& x, bool dotWeights = false) {
    double s = 0;
    for (int32_t v = 0; v < g.vertexCount(); ++v)
        for (int32_t w : g.down[v]) {
            const int dummies = int(g.isDummy(v)) + int(g.isDummy(w));
            const double weight = !dotWeights ? 1 : dummies == 0 ? 1 : dummies == 1 ? 2 : 8;
            s += weight * (x[v] > x[w] ? x[v] - x[w] : x[w] - x[v]);
        }
    return s;
}

// Random items for the suites' randomized checks: layerCount layers of
// 2 to 1 + maxSize items each (ids in order, from 0), and an edge between
// each pair of items in adjacent layers with `percent` chance.
struct RandomItems {
    std::vector<std::vector<int32_t>> layers;
    std::vector<std::pair<int32_t, int32_t>> edges;
    int32_t count = 0;  // items
};
inline RandomItems randomItems(std::mt19937& rng, int layerCount, int maxSize, int percent) {
    RandomItems r;
    r.layers.resize(layerCount);
    for (auto& l : r.layers) {
        const int size = 2 + static_cast<int>(rng() % static_cast<unsigned>(maxSize - 1));
        for (int i = 0; i < size; ++i) l.push_back(r.count++);
    }
    for (int l = 0; l + 1 < layerCount; ++l)
        for (int32_t a : r.layers[l])
            for (int32_t b : r.layers[l + 1])
                if (rng() % 100 < static_cast<unsigned>(percent)) r.edges.emplace_back(a, b);
    return r;
}

// Random groups (an anchor with its satellites, as the exchange passes
// take them): where `mayJoin(left, right, group)` allows, a vertex joins
// its left neighbour's group (or starts one with it) with `percent` chance.
inline std::vector<int32_t> randomGroups(
    std::mt19937& rng, const std::vector<std::vector<int32_t>>& layers, int32_t vertexCount, int percent,
    const std::function<bool(int32_t, int32_t, const std::vector<int32_t>&)>& mayJoin) {
    std::vector<int32_t> group(vertexCount, -1);
    for (const auto& l : layers)
        for (size_t i = 1; i < l.size(); ++i)
            if (mayJoin(l[i - 1], l[i], group) && rng() % 100 < static_cast<unsigned>(percent)) {
                const int32_t id = group[l[i - 1]] >= 0 ? group[l[i - 1]] : l[i - 1];
                group[l[i - 1]] = group[l[i]] = id;
            }
    return group;
}

}  // namespace hand_layered
