#pragma once
// A proper layered graph written by hand, for the suites that test one
// phase of the engine on a graph whose best answer is known (crossing
// reduction, edge-length descent): layers of vertex ids in drawing order,
// edges between adjacent layers, every box 40 x 20 px.
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "core/layout/layered_graph.h"

namespace hand_layered {

using irscope::layout::detail::LayeredGraph;
using irscope::layout::detail::VertexType;

// Vertices listed in `weights` are weights; the rest are items.
inline LayeredGraph layered(std::vector<std::vector<int32_t>> layers,
                            std::initializer_list<std::pair<int32_t, int32_t>> edges,
                            std::initializer_list<int32_t> weights = {}) {
    LayeredGraph g;
    int32_t vc = 0;
    for (const auto& l : layers) vc += static_cast<int32_t>(l.size());
    g.itemCount = vc;
    g.type.assign(vc, VertexType::Item);
    for (int32_t w : weights) g.type[w] = VertexType::Weight;
    g.layer.assign(vc, 0);
    g.width.assign(vc, 40);
    g.height.assign(vc, 20);
    for (size_t l = 0; l < layers.size(); ++l)
        for (int32_t v : layers[l]) g.layer[v] = static_cast<int32_t>(l);
    std::vector<std::pair<int32_t, int32_t>> downs, ups;
    for (auto [a, b] : edges) {
        downs.emplace_back(a, b);
        ups.emplace_back(b, a);
    }
    g.down = irscope::layout::detail::Adjacency(vc, downs);
    g.up = irscope::layout::detail::Adjacency(vc, ups);
    g.layers = std::move(layers);
    g.updatePositions();
    return g;
}

}  // namespace hand_layered
