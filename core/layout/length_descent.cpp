#include "core/layout/length_descent.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/layout/separation.h"

namespace irscope::layout::detail {

namespace {

// Two vertices in adjacent layers count as one straight run below this
// horizontal offset (px): coordinates are sums of widths and gaps, so an
// aligned pair differs by rounding only.
constexpr double kStraight = 0.01;
// A move shorter than this is not worth a pass.
constexpr double kLeast = 0.5;

// The runs of the current x: per vertex the run it belongs to, and the runs'
// vertices top to bottom (run r's are members[start[r] .. start[r + 1])).
// A vertex continues the run of its up-neighbour at the same x; at most one
// can be (vertices in a layer are apart). Flat arrays: a pass on a small
// graph is a few microseconds, and a vector per run made it mostly malloc.
struct Runs {
    std::vector<int32_t> of, start, members;
    std::vector<int32_t> fill;  // scratch for the counting sort, kept across passes
};

void findRuns(const LayeredGraph& g, const std::vector<double>& x, Runs& r) {
    r.of.assign(g.vertexCount(), -1);
    int32_t count = 0;
    for (const auto& layer : g.layers)
        for (int32_t v : layer) {
            int32_t run = -1;
            for (int32_t u : g.up[v])
                if (std::abs(x[u] - x[v]) < kStraight) {
                    run = r.of[u];
                    break;
                }
            if (run < 0) run = count++;
            r.of[v] = run;
        }
    // Counting sort by run; layers are visited top to bottom, so each run's
    // vertices stay in that order.
    r.start.assign(static_cast<size_t>(count) + 1, 0);
    for (int32_t run : r.of) ++r.start[static_cast<size_t>(run) + 1];
    for (int32_t i = 0; i < count; ++i) r.start[i + 1] += r.start[i];
    r.members.resize(r.of.size());
    r.fill.assign(r.start.begin(), r.start.end() - 1);
    for (const auto& layer : g.layers)
        for (int32_t v : layer) r.members[r.fill[r.of[v]]++] = v;
}

}  // namespace

int shortenEdges(const LayeredGraph& g, const std::vector<double>& room, const LayoutOptions& options,
                 std::vector<double>& x, int passes) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    int moves = 0;
    std::vector<double> offsets;
    Runs runs;
    // A run is skipped when nothing it depends on has changed since it was
    // last looked at, so it would find the same t as then: one it took (now
    // 0) or one too small to take. It depends on its members (seenAs: the
    // run's top vertex and size then; runs join as they line up), their x,
    // their edges' far ends and their layer neighbours (stale: none of
    // those moved since). After the first pass only a few runs move, and
    // visiting every run again was most of the descent's time.
    const int32_t vc = g.vertexCount();
    std::vector<char> stale(vc, 0);
    std::vector<std::pair<int32_t, int32_t>> seenAs(vc, {-1, 0});
    auto touch = [&](int32_t v) {
        stale[v] = 0;
        for (int32_t w : g.up[v]) stale[w] = 0;
        for (int32_t w : g.down[v]) stale[w] = 0;
        const auto& layer = g.layers[g.layer[v]];
        const auto p = static_cast<size_t>(g.pos[v]);
        if (p > 0) stale[layer[p - 1]] = 0;
        if (p + 1 < layer.size()) stale[layer[p + 1]] = 0;
    };
    for (int pass = 0; pass < passes; ++pass) {
        findRuns(g, x, runs);
        int moved = 0;
        const auto count = static_cast<int32_t>(runs.start.size()) - 1;
        for (int32_t id = 0; id < count; ++id) {
            const auto first = runs.members.begin() + runs.start[id];
            const auto last = runs.members.begin() + runs.start[id + 1];
            const std::pair<int32_t, int32_t> as{*first, runs.start[id + 1] - runs.start[id]};
            if (std::all_of(first, last, [&](int32_t v) { return stale[v] != 0 && seenAs[v] == as; })) continue;
            for (auto it = first; it != last; ++it) {
                stale[*it] = 1;
                seenAs[*it] = as;
            }
            offsets.clear();
            double lo = -kInf, hi = kInf;
            for (auto it = first; it != last; ++it) {
                const int32_t v = *it;
                for (const auto nb : {g.up[v], g.down[v]})
                    for (int32_t w : nb)
                        if (runs.of[w] != id) offsets.push_back(x[w] - x[v]);
                const auto& layer = g.layers[g.layer[v]];
                const auto p = static_cast<size_t>(g.pos[v]);
                if (p > 0) lo = std::max(lo, x[layer[p - 1]] + separation(g, room, layer[p - 1], v, options) - x[v]);
                if (p + 1 < layer.size())
                    hi = std::min(hi, x[layer[p + 1]] - separation(g, room, v, layer[p + 1], options) - x[v]);
            }
            if (offsets.empty()) continue;
            // Every t between the two middle offsets is optimal: the one
            // nearest 0 moves least; then the room clamps it.
            const size_t m = offsets.size() / 2;
            std::nth_element(offsets.begin(), offsets.begin() + static_cast<std::ptrdiff_t>(m), offsets.end());
            double upper = offsets[m], lower = upper;
            if (offsets.size() % 2 == 0)
                lower = *std::max_element(offsets.begin(), offsets.begin() + static_cast<std::ptrdiff_t>(m));
            double t = std::clamp(0.0, lower, upper);
            t = std::clamp(t, std::min(lo, 0.0), std::max(hi, 0.0));
            if (std::abs(t) < kLeast) continue;
            for (auto it = first; it != last; ++it) x[*it] += t;
            for (auto it = first; it != last; ++it) touch(*it);
            for (auto it = first; it != last; ++it) stale[*it] = 1;  // at its best t now
            ++moved;
        }
        moves += moved;
        if (moved == 0) break;
    }
    return moves;
}

}  // namespace irscope::layout::detail
