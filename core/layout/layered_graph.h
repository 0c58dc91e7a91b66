#pragma once
// Internal: the "proper" layered graph the phases share. Vertices are the
// LayoutGraph's items, then ghosts, then dummies; every edge joins adjacent
// layers. Each vertex's neighbours come in the order of the edges (the
// LayoutGraph's edge order), for determinism.
#include <cstdint>
#include <vector>

#include "core/layout/adjacency.h"
#include "core/layout/layout_graph.h"

namespace irscope::layout::detail {

enum class VertexType : unsigned char { Item, Weight, Ghost, Dummy };

struct LayeredGraph {
    int32_t itemCount = 0;         // LayoutGraph nodes
    int32_t ghostCount = 0;        // vertices [itemCount, itemCount + ghostCount)
    std::vector<VertexType> type;  // per vertex
    std::vector<int32_t> layer;
    std::vector<double> width, height;
    std::vector<int32_t> ghostOf;              // per ghost vertex (index - itemCount): the item it stands for
    Adjacency up, down;                        // neighbours in layer-1 / layer+1
    std::vector<std::vector<int32_t>> layers;  // vertex ids per layer, in drawing order
    std::vector<int32_t> pos;                  // index of each vertex within its layer

    // Per LayoutGraph edge: the vertex chain from top to bottom (source or
    // ghost, dummies, target); empty for a self-loop. reversed: the edge
    // pointed upward and its chain runs target -> source.
    std::vector<std::vector<int32_t>> chain;
    std::vector<char> reversed;
    int64_t reversedCount = 0;

    int32_t vertexCount() const { return static_cast<int32_t>(type.size()); }
    bool isDummy(int32_t v) const { return type[v] == VertexType::Dummy; }
    // Kept out of the vertical alignment so the main chain stays straight.
    bool alignsFreely(int32_t v) const { return type[v] == VertexType::Item || type[v] == VertexType::Dummy; }
    void updatePositions();
    // The order as one array, layer after layer, into flat: every order of
    // a graph has the same layer sizes, so that is all of it (the candidate
    // orders are kept and compared so, one allocation each).
    void orderInto(std::vector<int32_t>& flat) const;
    // Sets the order (layers, keeping their sizes, and pos) from such an array.
    void setOrder(const std::vector<int32_t>& flat);
};

// Sum of the horizontal distances x gives the graph's edges, segment by
// segment: with layers fixed, what separates a short drawing from a long
// one (candidate orders are weighed by it, the x solver's result kept by it).
inline double horizontalSpan(const LayeredGraph& g, const std::vector<double>& x) {
    double s = 0;
    for (int32_t v = 0; v < g.vertexCount(); ++v)
        for (int32_t w : g.down[v]) s += x[v] > x[w] ? x[v] - x[w] : x[w] - x[v];
    return s;
}

}  // namespace irscope::layout::detail
