#include "core/layout/coordinate_assignment.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <unordered_set>

namespace irscope::layout::detail {

namespace {

int64_t segmentKey(const LayeredGraph& g, int32_t a, int32_t b) {
    if (g.layer[a] > g.layer[b]) std::swap(a, b);
    return (static_cast<int64_t>(a) << 32) | static_cast<uint32_t>(b);
}

// Type 1 conflicts: a non-inner segment crossing an inner one (dummy to
// dummy). Marked segments never align, so long edges stay straight lanes.
std::unordered_set<int64_t> markTypeOneConflicts(const LayeredGraph& g) {
    std::unordered_set<int64_t> marked;
    const auto h = static_cast<int32_t>(g.layers.size());
    for (int32_t i = 0; i + 1 < h; ++i) {
        const auto& upper = g.layers[i];
        const auto& lower = g.layers[i + 1];
        if (upper.empty() || lower.empty()) continue;
        int32_t k0 = 0;
        size_t l = 0;
        for (size_t l1 = 0; l1 < lower.size(); ++l1) {
            const int32_t v = lower[l1];
            int32_t innerUpper = -1;
            if (g.isDummy(v))
                for (int32_t u : g.up[v])
                    if (g.isDummy(u)) innerUpper = u;
            if (l1 + 1 != lower.size() && innerUpper < 0) continue;
            const int32_t k1 = innerUpper >= 0 ? g.pos[innerUpper] : static_cast<int32_t>(upper.size()) - 1;
            for (; l <= l1; ++l) {
                const int32_t w = lower[l];
                for (int32_t u : g.up[w])
                    if (g.pos[u] < k0 || g.pos[u] > k1) marked.insert(segmentKey(g, u, w));
            }
            k0 = k1;
        }
    }
    return marked;
}

double separation(const LayeredGraph& g, int32_t a, int32_t b, const LayoutOptions& o) {
    const double gap = (g.isDummy(a) || g.isDummy(b)) ? o.dummyGap : o.nodeGap;
    return (g.width[a] + g.width[b]) / 2 + gap;
}

// One of the four alignments plus its compaction. downward: align with upper
// neighbours, layers top to bottom; leftward: medians and packing from the left.
std::vector<double> alignAndCompact(const LayeredGraph& g, const std::unordered_set<int64_t>& marked,
                                    bool downward, bool leftward, const LayoutOptions& o) {
    const int32_t vc = g.vertexCount();
    const auto h = static_cast<int32_t>(g.layers.size());
    // Mirrored view: p = position counted from the side we pack towards.
    std::vector<int32_t> p(vc);
    for (const auto& layer : g.layers)
        for (size_t i = 0; i < layer.size(); ++i)
            p[layer[i]] = leftward ? static_cast<int32_t>(i) : static_cast<int32_t>(layer.size() - 1 - i);
    auto inOrder = [&](int32_t l, size_t k) {
        const auto& layer = g.layers[l];
        return leftward ? layer[k] : layer[layer.size() - 1 - k];
    };

    std::vector<int32_t> root(vc), align(vc);
    for (int32_t v = 0; v < vc; ++v) root[v] = align[v] = v;
    std::vector<int32_t> nbs;
    for (int32_t step = 1; step < h; ++step) {
        const int32_t l = downward ? step : h - 1 - step;
        int32_t r = -1;
        for (size_t k = 0; k < g.layers[l].size(); ++k) {
            const int32_t v = inOrder(l, k);
            if (!g.alignsFreely(v)) continue;
            nbs.clear();
            for (int32_t u : downward ? g.up[v] : g.down[v])
                if (g.alignsFreely(u)) nbs.push_back(u);
            if (nbs.empty()) continue;
            std::sort(nbs.begin(), nbs.end(), [&](int32_t a, int32_t b) { return p[a] < p[b]; });
            const size_t d = nbs.size();
            for (size_t m : {(d - 1) / 2, d / 2}) {
                if (align[v] != v) break;
                const int32_t u = nbs[m];
                if (r < p[u] && !marked.count(segmentKey(g, u, v))) {
                    align[u] = v;
                    root[v] = root[u];
                    align[v] = root[v];
                    r = p[u];
                }
            }
        }
    }

    // Block graph: an edge from the block of each vertex to the block of its
    // neighbour on the far side, weighted by their separation.
    std::vector<int32_t> succStart(vc + 1, 0), indeg(vc, 0);
    for (int32_t l = 0; l < h; ++l)
        for (size_t k = 1; k < g.layers[l].size(); ++k) ++succStart[root[inOrder(l, k - 1)] + 1];
    for (int32_t v = 0; v < vc; ++v) succStart[v + 1] += succStart[v];
    std::vector<std::pair<int32_t, double>> succ(succStart[vc]);
    std::vector<int32_t> fill(succStart.begin(), succStart.end() - 1);
    for (int32_t l = 0; l < h; ++l)
        for (size_t k = 1; k < g.layers[l].size(); ++k) {
            const int32_t a = inOrder(l, k - 1), b = inOrder(l, k);
            succ[fill[root[a]]++] = {root[b], separation(g, a, b, o)};
            ++indeg[root[b]];
        }
    std::vector<int32_t> topo;
    topo.reserve(vc);
    for (int32_t v = 0; v < vc; ++v)
        if (root[v] == v && indeg[v] == 0) topo.push_back(v);
    for (size_t i = 0; i < topo.size(); ++i)
        for (int32_t j = succStart[topo[i]]; j < succStart[topo[i] + 1]; ++j)
            if (--indeg[succ[j].first] == 0) topo.push_back(succ[j].first);

    std::vector<double> xs(vc, 0.0);
    // Pass 1: every block as far towards the packing side as its predecessors allow.
    for (int32_t b : topo)
        for (int32_t j = succStart[b]; j < succStart[b + 1]; ++j)
            xs[succ[j].first] = std::max(xs[succ[j].first], xs[b] + succ[j].second);
    // Pass 2: pull blocks back towards their successors, closing needless gaps.
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        const int32_t b = *it;
        double limit = std::numeric_limits<double>::infinity();
        for (int32_t j = succStart[b]; j < succStart[b + 1]; ++j)
            limit = std::min(limit, xs[succ[j].first] - succ[j].second);
        if (limit != std::numeric_limits<double>::infinity()) xs[b] = std::max(xs[b], limit);
    }
    std::vector<double> x(vc);
    for (int32_t v = 0; v < vc; ++v) x[v] = leftward ? xs[root[v]] : -xs[root[v]];
    return x;
}

}  // namespace

std::vector<double> assignCoordinates(const LayeredGraph& g, const LayoutOptions& options) {
    const int32_t vc = g.vertexCount();
    if (vc == 0) return {};
    const auto marked = markTypeOneConflicts(g);
    std::array<std::vector<double>, 4> xs;
    std::array<double, 4> lo{}, hi{};
    int smallest = 0;
    for (int k = 0; k < 4; ++k) {
        xs[k] = alignAndCompact(g, marked, /*downward=*/k < 2, /*leftward=*/k % 2 == 0, options);
        lo[k] = std::numeric_limits<double>::infinity();
        hi[k] = -lo[k];
        for (int32_t v = 0; v < vc; ++v) {
            lo[k] = std::min(lo[k], xs[k][v] - g.width[v] / 2);
            hi[k] = std::max(hi[k], xs[k][v] + g.width[v] / 2);
        }
        if (hi[k] - lo[k] < hi[smallest] - lo[smallest]) smallest = k;
    }
    // Align every candidate to the narrowest one: left-packed ones by their
    // left edge, right-packed ones by their right edge.
    for (int k = 0; k < 4; ++k) {
        const double shift = (k % 2 == 0) ? lo[smallest] - lo[k] : hi[smallest] - hi[k];
        for (double& x : xs[k]) x += shift;
    }
    std::vector<double> x(vc);
    for (int32_t v = 0; v < vc; ++v) {
        std::array<double, 4> c{xs[0][v], xs[1][v], xs[2][v], xs[3][v]};
        std::sort(c.begin(), c.end());
        x[v] = (c[1] + c[2]) / 2;
    }
    // Restore separations the averaging may have broken.
    for (const auto& layer : g.layers)
        for (size_t i = 1; i < layer.size(); ++i)
            x[layer[i]] = std::max(x[layer[i]], x[layer[i - 1]] + separation(g, layer[i - 1], layer[i], options));
    double left = std::numeric_limits<double>::infinity();
    for (int32_t v = 0; v < vc; ++v) left = std::min(left, x[v] - g.width[v] / 2);
    for (double& v : x) v -= left;
    return x;
}

}  // namespace irscope::layout::detail
