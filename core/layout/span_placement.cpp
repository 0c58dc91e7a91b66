#include "core/layout/span_placement.h"

#include <algorithm>
#include <cmath>

#include "core/layout/separation.h"

namespace irscope::layout::detail {

namespace {

// The solver works in integers: coordinates in 1/64 px. Separations are
// rounded up, so no two boxes come closer than the phases above allow.
constexpr double kUnits = 64;
// Two vertices in adjacent layers, joined by an edge, continue one
// straight run below this offset (px): invisible, and the phases above
// leave such rounding between a column's boxes and its bend points.
constexpr double kStraight = 0.5;
// A straight run with at least this many boxes (bend points not counted)
// moves as one: a decoder's main column, a residual stream between its
// blocks. The least span would bend some of them for a few px less, and a
// reader follows a straight column more easily than a slightly shorter
// crooked one. Shorter runs (a weight over its linear, a bend point's
// lane) move vertex by vertex.
constexpr int32_t kRigidRun = 6;

int64_t segmentWeight(const LayeredGraph& g, int32_t a, int32_t b) {
    const int dummies = int(g.isDummy(a)) + int(g.isDummy(b));
    return dummies == 0 ? 1 : dummies == 1 ? 2 : 8;
}

// The solver's variable of each vertex: its rigid run's, or its own.
// values: each variable's start, in units.
std::vector<int32_t> variables(const LayeredGraph& g, const std::vector<double>& x, std::vector<int64_t>& values) {
    const int32_t vc = g.vertexCount();
    std::vector<int32_t> runOf(vc, -1);
    int32_t runs = 0;
    for (const auto& layer : g.layers)
        for (int32_t v : layer) {
            for (int32_t u : g.up[v])
                if (std::abs(x[u] - x[v]) < kStraight) {
                    runOf[v] = runOf[u];
                    break;
                }
            if (runOf[v] < 0) runOf[v] = runs++;
        }
    std::vector<int32_t> boxes(runs, 0), id(runs, -1);
    for (int32_t v = 0; v < vc; ++v) boxes[runOf[v]] += g.isDummy(v) ? 0 : 1;
    std::vector<int32_t> var(vc);
    values.clear();
    // A run's value is its first (top) vertex's: layers are visited top down.
    for (const auto& layer : g.layers)
        for (int32_t v : layer) {
            const int32_t run = runOf[v];
            if (boxes[run] >= kRigidRun && id[run] >= 0) {
                var[v] = id[run];
                continue;
            }
            var[v] = static_cast<int32_t>(values.size());
            if (boxes[run] >= kRigidRun) id[run] = var[v];
            values.push_back(std::llround(x[v] * kUnits));
        }
    return var;
}

}  // namespace

SimplexReport placeForLeastSpan(const LayeredGraph& g, const std::vector<double>& room, const LayoutOptions& options,
                                std::vector<double>& x, int64_t workBudget) {
    const int32_t vc = g.vertexCount();
    std::vector<int64_t> r;
    const std::vector<int32_t> var = variables(g, x, r);
    const auto variableCount = static_cast<int32_t>(r.size());
    std::vector<DifferenceConstraint> constraints;
    for (const auto& layer : g.layers)
        for (size_t i = 1; i < layer.size(); ++i) {
            const auto gap =
                static_cast<int64_t>(std::ceil(separation(g, room, layer[i - 1], layer[i], options) * kUnits));
            constraints.push_back({var[layer[i - 1]], var[layer[i]], gap, 0});
        }
    // Rounding to units (and a rigid run's straightening by up to kStraight)
    // may leave a separation short: pushed right until none is. The
    // constraints follow the layers' order, so this settles in a few passes.
    for (bool changed = true; changed;) {
        changed = false;
        for (const auto& c : constraints)
            if (r[c.head] < r[c.tail] + c.minLength) {
                r[c.head] = r[c.tail] + c.minLength;
                changed = true;
            }
    }
    for (int32_t v = 0; v < vc; ++v)
        for (int32_t w : g.down[v]) {
            const int32_t a = var[v], b = var[w];
            if (a == b) continue;  // within a rigid run: straight
            const auto s = static_cast<int32_t>(r.size());
            r.push_back(std::min(r[a], r[b]));
            const int64_t weight = segmentWeight(g, v, w);
            constraints.push_back({s, a, 0, weight});
            constraints.push_back({s, b, 0, weight});
        }
    auto span = [&](const std::vector<int64_t>& at) {
        int64_t s = 0;
        for (const auto& c : constraints) s += c.weight * (at[c.head] - at[c.tail]);
        return s;
    };
    const int64_t before = span(r);
    const std::vector<int64_t> start(r.begin(), r.begin() + variableCount);
    const SimplexReport report = solveNetworkSimplex(constraints, r, workBudget, /*balance=*/true);
    // The solver's first tree may shift whole parts apart, which its pivots
    // then undo: a run stopped early can be longer than where it began.
    if (!report.optimal && span(r) >= before) std::copy(start.begin(), start.end(), r.begin());
    for (int32_t v = 0; v < vc; ++v) x[v] = static_cast<double>(r[var[v]]) / kUnits;
    return report;
}

}  // namespace irscope::layout::detail
