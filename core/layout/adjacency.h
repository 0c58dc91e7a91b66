#pragma once
// Internal: every vertex's neighbours on one side (LayeredGraph::up or
// down), all in one array, a vertex's list a slice of it (compressed rows).
//
// Why not a vector per vertex: a few hundred vertices were as many small
// heap blocks, allocated when the layered graph is built and again when the
// crossing reduction copies it for its second thread, and scattered over
// memory for the phases that walk them thousands of times (barycenters,
// the exchange pass, the alignments). One block keeps them together.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace irscope::layout::detail {

class Adjacency {
public:
    Adjacency() = default;

    // Lists for `vertices` vertices from (vertex, neighbour) pairs: each
    // vertex's neighbours in the order its pairs come.
    Adjacency(int32_t vertices, const std::vector<std::pair<int32_t, int32_t>>& pairs) : start_(vertices + 1, 0) {
        for (const auto& [v, w] : pairs) ++start_[v + 1];
        for (int32_t v = 0; v < vertices; ++v) start_[v + 1] += start_[v];
        ids_.resize(pairs.size());
        std::vector<int32_t> fill(start_.begin(), start_.end() - 1);
        for (const auto& [v, w] : pairs) ids_[fill[v]++] = w;
    }

    std::span<const int32_t> operator[](int32_t v) const {
        return {ids_.data() + start_[v], static_cast<size_t>(start_[v + 1] - start_[v])};
    }

    int32_t vertexCount() const { return start_.empty() ? 0 : static_cast<int32_t>(start_.size()) - 1; }

private:
    std::vector<int32_t> start_;  // v's neighbours are ids_[start_[v], start_[v + 1])
    std::vector<int32_t> ids_;
};

}  // namespace irscope::layout::detail
