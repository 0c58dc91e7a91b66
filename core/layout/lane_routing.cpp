#include "core/layout/lane_routing.h"

#include <algorithm>
#include <limits>

namespace irscope::layout::detail {

namespace {

class LaneRouter {
public:
    LaneRouter(LayeredGraph& g, const std::vector<int32_t>& group) : g_(g), group_(group) {}

    int64_t workLeft = 0;

    // The lanes: chains of bend points, one up and one down edge each,
    // from the top.
    std::vector<std::vector<int32_t>> lanes() const {
        std::vector<std::vector<int32_t>> out;
        for (int32_t v = 0; v < g_.vertexCount(); ++v) {
            if (!g_.isDummy(v) || g_.up[v].size() != 1 || g_.isDummy(g_.up[v][0])) continue;
            std::vector<int32_t> lane{v};
            while (g_.down[lane.back()].size() == 1 && g_.isDummy(g_.down[lane.back()][0]) &&
                   g_.up[g_.down[lane.back()][0]].size() == 1)
                lane.push_back(g_.down[lane.back()][0]);
            out.push_back(std::move(lane));
        }
        return out;
    }

    // Routes one lane afresh; the crossings removed (0: left as it was).
    int64_t route(const std::vector<int32_t>& lane) {
        const auto k = static_cast<int32_t>(lane.size());
        if (g_.up[lane.front()].size() != 1 || g_.down[lane.back()].size() != 1) return 0;
        // A bend point can be the anchor of satellites (a weight read beside
        // a long edge's end): moving it alone would split its group.
        for (int32_t d : lane)
            if (group_[d] >= 0) return 0;
        const int32_t source = g_.up[lane.front()][0], target = g_.down[lane.back()][0];
        const int32_t first = g_.layer[lane.front()];
        // The work: a table per gap, from the source's layer to the target's,
        // (places above + 1) x (places below + 1).
        int64_t cells = 0;
        for (int32_t l = first - 1; l < first + k; ++l)
            cells += static_cast<int64_t>(g_.layers[l].size() + 1) * static_cast<int64_t>(g_.layers[l + 1].size() + 1);
        if (cells > workLeft) return 0;
        if (!crossesAnything(lane, source, target)) return 0;  // most lanes: nothing to gain
        workLeft -= cells;

        // Per lane layer: where the lane may go (a place before each allowed
        // index of the layer without it), and where it is now.
        allowed_.assign(k, {});
        current_.assign(k, 0);
        for (int32_t i = 0; i < k; ++i) {
            const auto& layer = g_.layers[first + i];
            const int32_t at = g_.pos[lane[i]];
            current_[i] = at;
            const auto size = static_cast<int32_t>(layer.size()) - 1;  // without the lane
            auto& places = allowed_[i];
            places.clear();
            for (int32_t p = 0; p <= size; ++p) {
                // Between rest[p - 1] and rest[p], rest being the layer less the lane.
                const int32_t left = p == 0 ? -1 : layer[p - 1 < at ? p - 1 : p];
                const int32_t right = p == size ? -1 : layer[p < at ? p : p + 1];
                if (left >= 0 && right >= 0 && group_[left] >= 0 && group_[left] == group_[right]) continue;
                places.push_back(p);
            }
        }
        // Shortest path: cost[i][j], the fewest crossings down to the j-th
        // allowed place of the lane's i-th layer (from[i][j]: the place
        // above it on that path). `now`: the lane's crossings where it is.
        int64_t now = 0;
        std::vector<std::vector<int64_t>> cost(k);
        std::vector<std::vector<int32_t>> from(k);
        for (int32_t i = 0; i < k; ++i) {
            const auto& places = allowed_[i];
            cost[i].assign(places.size(), std::numeric_limits<int64_t>::max());
            from[i].assign(places.size(), -1);
            if (i == 0) {
                gapEnds(first - 1, -1, current_[0], source, lane[0]);
                now += crossFromPoint(g_.pos[source], current_[0]);
                for (size_t j = 0; j < places.size(); ++j) cost[0][j] = crossFromPoint(g_.pos[source], places[j]);
                continue;
            }
            gapEnds(first + i - 1, current_[i - 1], current_[i], lane[i - 1], lane[i]);
            now += crossBetween(current_[i - 1], current_[i]);
            const auto& before = allowed_[i - 1];
            for (size_t j = 0; j < places.size(); ++j)
                for (size_t q = 0; q < before.size(); ++q) {
                    const int64_t c = cost[i - 1][q] + crossBetween(before[q], places[j]);
                    if (c < cost[i][j]) {
                        cost[i][j] = c;
                        from[i][j] = static_cast<int32_t>(q);
                    }
                }
        }
        // The last gap, to the target.
        gapEnds(first + k - 1, current_[k - 1], -1, lane[k - 1], target);
        now += crossToPoint(current_[k - 1], g_.pos[target]);
        int64_t best = std::numeric_limits<int64_t>::max();
        int32_t end = -1;
        for (size_t j = 0; j < allowed_[k - 1].size(); ++j) {
            const int64_t c = cost[k - 1][j] + crossToPoint(allowed_[k - 1][j], g_.pos[target]);
            if (c < best) {
                best = c;
                end = static_cast<int32_t>(j);
            }
        }
        if (best >= now) return 0;
        // Walk back and move the bend points.
        std::vector<int32_t> place(k);
        for (int32_t i = k - 1, j = end; i >= 0; --i) {
            place[i] = allowed_[i][j];
            j = from[i][j];
        }
        for (int32_t i = 0; i < k; ++i) {
            auto& layer = g_.layers[first + i];
            layer.erase(layer.begin() + current_[i]);
            layer.insert(layer.begin() + place[i], lane[i]);
            const int32_t lo = std::min(current_[i], place[i]), hi = std::max(current_[i], place[i]);
            for (int32_t p = lo; p <= hi; ++p) g_.pos[layer[p]] = p;
        }
        return now - best;
    }

private:
    // Whether any edge crosses the lane's segments, edge by edge (no tables).
    bool crossesAnything(const std::vector<int32_t>& lane, int32_t source, int32_t target) const {
        auto crosses = [&](int32_t a, int32_t b) {
            const int32_t pa = g_.pos[a], pb = g_.pos[b];
            for (int32_t u : g_.layers[g_.layer[a]]) {
                if (u == a) continue;
                for (int32_t w : g_.down[u])
                    if (w != b && (g_.pos[u] < pa) != (g_.pos[w] < pb)) return true;
            }
            return false;
        };
        int32_t above = source;
        for (int32_t d : lane) {
            if (crosses(above, d)) return true;
            above = d;
        }
        return crosses(above, target);
    }

    // The edges between layers `upper` and upper + 1 other than the lane's,
    // counted by their places in each layer less the lane's bend point
    // (skipUpper/skipLower: the lane's index there, -1 for a layer the lane
    // does not pass): table_[i][j] holds how many run from above place i
    // to above place j (a 2D prefix count), so any segment's crossings
    // come from four entries.
    void gapEnds(int32_t upper, int32_t skipUpper, int32_t skipLower, int32_t laneUpper, int32_t laneLower) {
        const auto& layer = g_.layers[upper];
        const auto& below = g_.layers[upper + 1];
        sx_ = static_cast<int32_t>(layer.size()) - (skipUpper >= 0 ? 1 : 0);
        sy_ = static_cast<int32_t>(below.size()) - (skipLower >= 0 ? 1 : 0);
        table_.assign(static_cast<size_t>(sx_ + 1) * (sy_ + 1), 0);
        for (size_t p = 0; p < layer.size(); ++p) {
            const int32_t u = layer[p];
            if (u == laneUpper) continue;
            const auto at = static_cast<int32_t>(p);
            const int32_t x = skipUpper >= 0 && at > skipUpper ? at - 1 : at;
            for (int32_t w : g_.down[u]) {
                if (w == laneLower) continue;
                const int32_t wat = g_.pos[w];
                const int32_t y = skipLower >= 0 && wat > skipLower ? wat - 1 : wat;
                ++cell(x + 1, y + 1);
            }
        }
        for (int32_t i = 1; i <= sx_; ++i)
            for (int32_t j = 1; j <= sy_; ++j) cell(i, j) += cell(i - 1, j) + cell(i, j - 1) - cell(i - 1, j - 1);
    }

    int32_t& cell(int32_t i, int32_t j) { return table_[static_cast<size_t>(i) * (sy_ + 1) + j]; }
    int32_t at(int32_t i, int32_t j) const { return table_[static_cast<size_t>(i) * (sy_ + 1) + j]; }

    // Crossings of a segment from place p above (between index p - 1 and
    // p) to place q below with the gap's edges: those from left of it to
    // its right, and from its right to its left.
    int64_t crossBetween(int32_t p, int32_t q) const { return (at(p, sy_) - at(p, q)) + (at(sx_, q) - at(p, q)); }
    // From the vertex at index s above (its own edges do not cross it).
    int64_t crossFromPoint(int32_t s, int32_t q) const { return (at(s, sy_) - at(s, q)) + (at(sx_, q) - at(s + 1, q)); }
    // To the vertex at index t below.
    int64_t crossToPoint(int32_t p, int32_t t) const { return (at(p, sy_) - at(p, t + 1)) + (at(sx_, t) - at(p, t)); }

    LayeredGraph& g_;
    const std::vector<int32_t>& group_;
    std::vector<std::vector<int32_t>> allowed_;
    std::vector<int32_t> current_;
    std::vector<int32_t> table_;  // gapEnds' prefix counts, (sx_ + 1) x (sy_ + 1)
    int32_t sx_ = 0, sy_ = 0;
};

}  // namespace

int64_t rerouteLanes(LayeredGraph& g, const std::vector<int32_t>& group, int maxRounds, int64_t workBudget) {
    LaneRouter router(g, group);
    router.workLeft = workBudget;
    const std::vector<std::vector<int32_t>> lanes = router.lanes();
    int64_t gained = 0;
    for (int round = 0; round < maxRounds; ++round) {
        int64_t r = 0;
        for (const auto& lane : lanes) r += router.route(lane);
        gained += r;
        if (r == 0) break;
    }
    return gained;
}

}  // namespace irscope::layout::detail
