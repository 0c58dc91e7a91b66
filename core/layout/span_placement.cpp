#include "core/layout/span_placement.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/layout/separation.h"

namespace irscope::layout::detail {

namespace {

// The solver works in integers: coordinates in 1/64 px. Separations are
// rounded up, so no two boxes come closer than the phases above allow.
constexpr double kUnits = 64;
// Two vertices in adjacent layers, joined by an edge, continue one
// straight run below this offset (px): invisible, and the phases above
// leave such rounding between a column's boxes and its bend points.
constexpr double kRunTolerance = 0.5;
// A straight run with at least this many boxes (bend points not counted)
// moves as one: a decoder's main column, a residual stream between its
// blocks. The least span would bend some of them for a few px less, and a
// reader follows a straight column more easily than a slightly shorter
// crooked one. Shorter runs (a weight over its linear, a bend point's
// lane) move vertex by vertex.
constexpr int32_t kRigidRun = 6;

// Span weights are scaled by this against the anchors' weight of 1 (see
// placeForLeastSpan).
constexpr int64_t kSpanScale = 16;
// The solver's placement is kept only if at most this much wider than the
// start (see placeForLeastSpan).
constexpr double kWidestGrowth = 1.25;

int64_t segmentWeight(const LayeredGraph& g, int32_t a, int32_t b) {
    const int dummies = int(g.isDummy(a)) + int(g.isDummy(b));
    return dummies == 0 ? 1 : dummies == 1 ? 2 : 8;
}

// The solver's variable of each vertex: its rigid run's, or its own.
// values: each variable's start, in units.
std::vector<int32_t> variables(const LayeredGraph& g, const std::vector<double>& x, std::vector<int64_t>& values,
                               std::vector<char>& rigid) {
    const int32_t vc = g.vertexCount();
    // A run is one vertex a layer, each within kRunTolerance of its top's x.
    std::vector<int32_t> runOf(vc, -1);
    std::vector<double> topX;          // per run
    std::vector<int32_t> lowestLayer;  // per run: the layer of its last vertex
    for (const auto& layer : g.layers)
        for (int32_t v : layer) {
            for (int32_t u : g.up[v]) {
                const int32_t run = runOf[u];
                if (lowestLayer[run] < g.layer[v] && std::abs(topX[run] - x[v]) < kRunTolerance) {
                    runOf[v] = run;
                    lowestLayer[run] = g.layer[v];
                    break;
                }
            }
            if (runOf[v] >= 0) continue;
            runOf[v] = static_cast<int32_t>(topX.size());
            topX.push_back(x[v]);
            lowestLayer.push_back(g.layer[v]);
        }
    const auto runs = static_cast<int32_t>(topX.size());
    std::vector<int32_t> boxes(runs, 0), id(runs, -1);
    for (int32_t v = 0; v < vc; ++v) boxes[runOf[v]] += g.isDummy(v) ? 0 : 1;
    std::vector<int32_t> var(vc);
    values.clear();
    rigid.clear();
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
            rigid.push_back(boxes[run] >= kRigidRun ? 1 : 0);
        }
    return var;
}

}  // namespace

SpanPlacement placeForLeastSpan(const LayeredGraph& g, const std::vector<double>& room, const LayoutOptions& options,
                                std::vector<double>& x, int64_t workBudget, Progress* progress) {
    const int32_t vc = g.vertexCount();
    std::vector<int64_t> r;
    std::vector<char> rigid;
    const std::vector<int32_t> var = variables(g, x, r, rigid);
    const auto variableCount = static_cast<int32_t>(r.size());
    std::vector<DifferenceConstraint> constraints;
    for (const auto& layer : g.layers)
        for (size_t i = 1; i < layer.size(); ++i) {
            const auto gap =
                static_cast<int64_t>(std::ceil(separation(g, room, layer[i - 1], layer[i], options) * kUnits));
            constraints.push_back({var[layer[i - 1]], var[layer[i]], gap, 0});
        }
    // Rounding to units (and a rigid run's straightening by up to kRunTolerance)
    // may leave a separation short: pushed right until none is. The
    // constraints follow the layers' order, so this settles in a few passes;
    // one pass a variable at most, or the runs contradict each other (they
    // cannot: runs are one vertex a layer and no two cross) and x stays.
    SpanPlacement out;
    bool settled = false;
    for (int32_t pass = 0; pass <= variableCount && !settled; ++pass) {
        settled = true;
        for (const auto& c : constraints)
            if (r[c.head] < r[c.tail] + c.minLength) {
                r[c.head] = r[c.tail] + c.minLength;
                settled = false;
            }
    }
    if (!settled) return out;
    for (int32_t v = 0; v < vc; ++v)
        for (int32_t w : g.down[v]) {
            const int32_t a = var[v], b = var[w];
            if (a == b) continue;  // within a rigid run: straight
            const auto s = static_cast<int32_t>(r.size());
            r.push_back(std::min(r[a], r[b]));
            const int64_t weight = kSpanScale * segmentWeight(g, v, w);
            constraints.push_back({s, a, 0, weight});
            constraints.push_back({s, b, 0, weight});
        }
    // Each rigid run is held to where it was by a weight of 1 per px moved,
    // against kSpanScale per px of span: among placements of equal span the
    // one nearest the start wins, so a stack of identical blocks, each free
    // to sit a little aside at no cost, stays one column instead of
    // drifting (a 200-block transformer drew 12x as wide without it). Only
    // the rigid runs: holding every vertex so made the solver ten times
    // slower and kept large branches from moving at all.
    {
        const auto origin = static_cast<int32_t>(r.size());
        r.push_back(0);
        for (int32_t k = 0; k < variableCount; ++k) {
            if (rigid[k] == 0) continue;
            const auto a = static_cast<int32_t>(r.size());
            r.push_back(std::min(r[k], r[origin] + r[k]));
            constraints.push_back({a, k, 0, 1});
            constraints.push_back({a, origin, -r[k], 1});
        }
    }
    auto span = [&](const std::vector<int64_t>& at) {
        int64_t s = 0;
        for (const auto& c : constraints) s += c.weight * (at[c.head] - at[c.tail]);
        return s;
    };
    const int64_t before = span(r);
    SimplexWork onWork;
    if (progress != nullptr && progress->active()) onWork = [&](int64_t work) { progress->advance(work, workBudget); };
    out.solver = solveNetworkSimplex(constraints, r, workBudget, /*balance=*/true, onWork);
    out.applied = true;
    // The solver's first tree may shift whole parts apart, which its pivots
    // then undo: a run stopped early can be longer than where it began.
    if (!out.solver.optimal && span(r) >= before) out.applied = false;
    // Among placements of equal span the solver's choice can still drift:
    // blocks joined only through an op centred between two inputs (a
    // residual add) may each sit a little aside at no cost, and a 32-layer
    // Llama drew 3x as wide, diagonally, for 0.6% shorter edges. A drawing
    // that much wider than the start is not the better one for a reader.
    // Both guards compare with x as it came, not its rounded and
    // straightened start.
    std::vector<double> placed(vc);
    for (int32_t v = 0; v < vc; ++v) placed[v] = static_cast<double>(r[var[v]]) / kUnits;
    auto width = [&](const std::vector<double>& at) {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (int32_t v = 0; v < vc; ++v) {
            lo = std::min(lo, at[v] - g.width[v] / 2);
            hi = std::max(hi, at[v] + g.width[v] / 2);
        }
        return hi - lo;
    };
    if (width(placed) > kWidestGrowth * width(x)) out.applied = false;
    // dot's weights straighten long edges by moving their bends onto the
    // short segments at their ends; where that leaves the plain horizontal
    // span no shorter (a CNN's skip lanes), the drawing is only longer to
    // the eye, so the start stays.
    if (horizontalSpan(g, placed) >= horizontalSpan(g, x)) out.applied = false;
    if (out.applied) x = std::move(placed);
    return out;
}

}  // namespace irscope::layout::detail
