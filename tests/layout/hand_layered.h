#pragma once
// A proper layered graph written by hand, for the suites that test one
// phase of the engine on a graph whose best answer is known (crossing
// reduction, edge-length descent, span placement): layers of vertex ids in
// drawing order, edges between adjacent layers, every box 40 x 20 px; and
// the horizontal span those suites measure.
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

}  // namespace hand_layered
