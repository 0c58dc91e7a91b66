#include "core/layout/layout.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <future>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#include "core/layout/candidate_pool.h"
#include "core/layout/coordinate_assignment.h"
#include "core/layout/crossing_reduction.h"
#include "core/layout/edge_routing.h"
#include "core/layout/layering.h"
#include "core/layout/long_edges.h"
#include "core/layout/progress.h"

namespace irscope::layout {

using namespace detail;

namespace {

// The x solver (span_placement.h) runs on graphs of up to this many
// vertices (items and bend points), within a budget per vertex
// (network_simplex.h counts the nodes and constraints its pivots visit).
// Its work grows faster than the graph: an 8,000-vertex MoE step takes
// ~13M steps (80 ms) to the least span, a 78,000-vertex 384-expert MoE
// 133M (0.6 s, for 3% shorter edges). Beyond the bound the heuristic
// coordinates stay.
constexpr int32_t kSettledVertices = 20000;
constexpr int64_t kSettleWork = 4000;
// The settled layering (layer_settling.h) is a second drawing's start;
// the one that costs less (crossings, then span: candidate_pool.h) is
// drawn. It gets one candidate from its depth-first start
// (CandidateStarts::DepthFirst), ordered on a thread of its own beside the
// first layering (from kSecondLayeringVertices also settled there).
//  - From kSecondLayeringVertices the first keeps its full set of starts:
//    about 1.2x the layout's time, where dot takes 15x ours or more.
//  - From kShorterLayeringVertices the two share about the time of the
//    first's full set. Where the settled layering's total edge span is at
//    most kShorterSpan of the first's, one candidate each (on the
//    population's MoE decode steps of 500-800 vertices it drew 78
//    crossings where the first drew 92, dot 81); where it differs only in
//    where ties sit, the first keeps its depth-first start's three rules
//    (without its mirror) and the second gets one (a held-out rotary
//    decode step of 800 vertices: 37 crossings where the first drew 49,
//    dot 37).
//  - Below, none: on 48 generated graphs of 100-900 items, ordering it
//    beside the first (all its tie rules) changed the summed crossings by
//    1% and took the smallest speed-up over dot's from 8.5x to 6.1x.
// Up to kSettledVertices, as the x solver.
constexpr int32_t kSecondLayeringVertices = 1000;
constexpr int32_t kShorterLayeringVertices = 500;
constexpr double kShorterSpan = 0.98;

// Total edge span of a layering, in layers.
int64_t layerSpan(const LayoutGraph& graph, const Layering& layering) {
    int64_t span = 0;
    for (const auto& e : graph.edges) span += std::abs(layering.layer[e.target] - layering.layer[e.source]);
    return span;
}

void checkEdgeEndpoints(const LayoutGraph& graph) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    for (const auto& e : graph.edges)
        if (e.source < 0 || e.source >= n || e.target < 0 || e.target >= n)
            throw std::out_of_range("layout: edge endpoint out of range");
}

// Vertical placement: each layer as tall as its tallest box (fills
// out.layerTop and out.layerBottom).
void placeLayers(const LayeredGraph& g, const LayoutOptions& options, LayoutResult& out) {
    const auto h = static_cast<int32_t>(g.layers.size());
    out.layerTop.assign(h, 0);
    out.layerBottom.assign(h, 0);
    double y = options.margin;
    for (int32_t l = 0; l < h; ++l) {
        double height = 0;
        for (int32_t v : g.layers[l]) height = std::max(height, g.height[v]);
        out.layerTop[l] = y;
        out.layerBottom[l] = y + height;
        y += height + options.layerGap;
    }
}

// Every vertex's box: centred on its x and in its layer.
std::vector<Rect> vertexRects(const LayeredGraph& g, const std::vector<double>& x, const LayoutResult& out,
                              const LayoutOptions& options) {
    const int32_t vc = g.vertexCount();
    std::vector<Rect> rects(vc);
    for (int32_t v = 0; v < vc; ++v) {
        const double top = out.layerTop[g.layer[v]], bottom = out.layerBottom[g.layer[v]];
        // Centred in its layer, except that a box with edges on one side
        // only keeps to that side: beside a tall box (a module drawn open)
        // a weight sits at the bottom, just above the op it feeds, and an
        // output at the top, instead of both at mid-height with long edges.
        double cy = (top + bottom) / 2;
        if (g.up[v].empty() && !g.down[v].empty()) cy = bottom - g.height[v] / 2;
        if (!g.up[v].empty() && g.down[v].empty()) cy = top + g.height[v] / 2;
        rects[v] = {options.margin + x[v] - g.width[v] / 2, cy - g.height[v] / 2, g.width[v], g.height[v]};
    }
    return rects;
}

// Items: the input's nodes, then ghosts (drawn with their source's first line).
void placeItems(const LayoutGraph& graph, const LayeredGraph& g, const std::vector<Rect>& rects, LayoutResult& out) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    const int32_t itemTotal = g.itemCount + g.ghostCount;
    out.items.resize(itemTotal);
    for (int32_t v = 0; v < itemTotal; ++v) {
        PlacedItem& it = out.items[v];
        if (v < n) {
            const LayoutNode& node = graph.nodes[v];
            it.kind = node.kind;
            it.family = node.family;
            it.irIndex = node.irIndex;
            it.name = node.name;
            it.lines = node.lines;
            it.count = node.count;
        } else {
            const int32_t src = g.ghostOf[v - n];
            const LayoutNode& node = graph.nodes[src];
            it.kind = ItemKind::Ghost;
            it.family = node.family;
            it.irIndex = node.irIndex;
            it.ghostOf = src;
            it.name = node.name;
            it.lines = {node.lines.empty() ? node.name : node.lines.front()};
        }
        it.rect = rects[v];
        it.layer = g.layer[v];
    }
}

// One input edge's polyline and label position. A self-loop is a small hook
// on the right side of its box; an edge from a ghost starts there.
void routeEdge(const LayoutGraph& graph, const LayeredGraph& g, const std::vector<Rect>& rects, size_t e,
               LayoutResult& out) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    const int32_t itemTotal = g.itemCount + g.ghostCount;
    const LayoutEdge& in = graph.edges[e];
    RoutedEdge& r = out.edges[e];
    r.style = in.style;
    r.label = in.label;
    r.targetInput = in.targetInput;
    r.source = in.source;
    r.target = in.target;
    const auto& chain = g.chain[e];
    if (chain.empty()) {  // self-loop
        const Rect& b = rects[in.source];
        r.points = {{b.right(), b.center().y - 4},
                    {b.right() + 12, b.center().y - 4},
                    {b.right() + 12, b.center().y + 4},
                    {b.right(), b.center().y + 4}};
        r.labelPos = {b.right() + 16, b.center().y};
        return;
    }
    if (chain.front() >= n && chain.front() < itemTotal) {
        r.ghosted = true;
        if (g.reversed[e])
            r.target = chain.front();
        else
            r.source = chain.front();
    }
    r.points = routeChain(g, chain, rects, out.layerTop, out.layerBottom);
    const Point a = r.points[0], b = r.points[1];
    r.labelPos = {(a.x + b.x) / 2 + 4, (a.y + b.y) / 2};
    if (g.reversed[e]) std::reverse(r.points.begin(), r.points.end());
}

// The drawing's extent: every box and every edge point, plus the margin.
Rect drawingBounds(const LayoutResult& out, const LayoutOptions& options) {
    double right = 0, bottom = 0;
    for (const auto& it : out.items) {
        right = std::max(right, it.rect.right());
        bottom = std::max(bottom, it.rect.bottom());
    }
    for (const auto& e : out.edges)
        for (const auto& p : e.points) {
            right = std::max(right, p.x);
            bottom = std::max(bottom, p.y);
        }
    return {0, 0, right + options.margin, bottom + options.margin};
}

// One layering's layered graph and its order (see computeLayout).
struct OrderedLayering {
    explicit OrderedLayering(LayeredGraph layered) : g(std::move(layered)) {}

    LayeredGraph g;
    int64_t crossings = 0;
    // The chosen order's coordinates, when measured on the way (not when
    // the last passes moved something: a fifth of the coordinate work on a
    // small graph saved), and its horizontal span as measured (before those
    // passes; 0 where lengths do not decide).
    std::vector<double> x;
    double span = 0;
    // The x solver's report (place()).
    SpanPlacement placed;

    // Whether this drawing beats `other`: by what the candidate pool weighs
    // (candidate_pool.h), as between two orders, where both were measured;
    // by crossings alone where either was not (a layering's layered graph
    // may be past the size that measures, the other's not).
    bool betterThan(const OrderedLayering& other) const {
        if (span > 0 && other.span > 0)
            return static_cast<double>(crossings) * kCrossingWorth + span <
                   static_cast<double>(other.crossings) * kCrossingWorth + other.span;
        return crossings < other.crossings;
    }

    // Orders g (crossing_reduction.h), the coordinates of each candidate
    // order measured to choose between them (two may be measured at once).
    // An order is kept flat (its layers one after another): every order
    // has the same layer sizes, so that compares alike, in one allocation.
    void order(const LayoutOptions& options, Progress* progress, CandidateStarts starts) {
        auto flat = [](const LayeredGraph& o) {
            std::vector<int32_t> ids;
            o.orderInto(ids);
            return ids;
        };
        std::vector<std::pair<std::vector<int32_t>, std::vector<double>>> measured;
        std::mutex measuredLock;
        crossings = reduceCrossings(
            g, options.crossingSweeps, progress,
            [&](const LayeredGraph& o) {
                std::vector<double> xs = assignCoordinates(o, options);
                const double s = horizontalSpan(o, xs);
                std::vector<int32_t> ids = flat(o);
                const std::lock_guard<std::mutex> hold(measuredLock);
                measured.emplace_back(std::move(ids), std::move(xs));
                return s;
            },
            starts, &span);
        const std::vector<int32_t> chosen = flat(g);
        for (auto& [ids, xs] : measured)
            if (ids == chosen) {
                x = std::move(xs);
                break;
            }
    }

    // The ordered graph's final x: its measured coordinates (or new ones
    // where none were measured for the final order), moved to the least
    // span up to kSettledVertices.
    void place(const LayoutOptions& options, Progress* progress) {
        if (x.empty()) x = assignCoordinates(g, options, progress);
        if (g.vertexCount() <= kSettledVertices)
            placed = settleCoordinates(g, options, x, kSettleWork * int64_t{g.vertexCount()}, progress);
    }
};

}  // namespace

LayoutResult computeLayout(const LayoutGraph& graph, const LayoutOptions& options) {
    LayoutResult out;
    checkEdgeEndpoints(graph);
    Progress progress(&options.progress);
    if (graph.nodes.empty()) {
        out.bounds = {0, 0, 2 * options.margin, 2 * options.margin};
        progress.finish();
        return out;
    }

    // Each phase's slice of the run: its share of the time on 20k-100k node
    // Llama IRs (crossings ~57%, routing and output ~14%, layering ~13%).
    progress.phase("layering", 0.0, 0.12);
    const Layering layering = assignLayers(graph);
    progress.phase("long edges", 0.12, 0.2);
    OrderedLayering best{buildLayeredGraph(graph, layering, options)};
    // Which layerings are ordered, and from which starts (see the
    // constants above). Where the first layering's starts depend on the
    // settled one (below kSecondLayeringVertices), it is settled first;
    // from there on the second layering's own thread.
    const int32_t vc = best.g.vertexCount();
    const bool second = vc >= kShorterLayeringVertices && vc <= kSettledVertices;
    const bool sharing = second && vc < kSecondLayeringVertices;
    CandidateStarts firstStarts = CandidateStarts::All;
    std::optional<Layering> settled;
    if (sharing) {
        settled = settleLayering(graph, layering);
        if (settled->layer == layering.layer) {
            settled.reset();
        } else {
            const bool shorter =
                static_cast<double>(layerSpan(graph, *settled)) <= kShorterSpan * layerSpan(graph, layering);
            firstStarts = shorter ? CandidateStarts::DepthFirst : CandidateStarts::DepthFirstRules;
        }
    }
    progress.phase("crossings", 0.2, 0.78);
    if (second && (settled || !sharing)) {
        // The settled layering is settled and ordered on a thread of its own
        // beside the first (its single candidate would otherwise leave the
        // second core idle). It reports no progress (the first reports for
        // both) but hears a cancel: when the first stops, it stops at its
        // next report, so a cancelled layout waits at most for its settling
        // (0.5-2.5 ms on the population's 1,000-3,500 item graphs) or one
        // stretch between reports. The drawings do not depend on which
        // finishes first. Only the one drawn is placed: the x solver for
        // both took the population's largest MoE decode steps 1.4x as long.
        std::optional<OrderedLayering> other;
        std::atomic<bool> stop{false};
        const LayoutProgress stopped = [&stop](double, const char*) { return !stop.load(); };
        Progress besideProgress(&stopped);
        auto layOutOther = [&] {
            if (!settled) {
                settled = settleLayering(graph, layering);
                if (settled->layer == layering.layer) return;
            }
            other.emplace(buildLayeredGraph(graph, *settled, options));
            besideProgress.phase("crossings", 0, 1);
            other->order(options, &besideProgress, CandidateStarts::DepthFirst);
        };
        std::future<void> beside;
        try {
            beside = std::async(std::launch::async, layOutOther);
        } catch (const std::system_error&) {  // no thread to be had: after the first, on this one
        }
        try {
            best.order(options, &progress, firstStarts);
        } catch (...) {
            stop = true;
            throw;
        }
        if (beside.valid())
            beside.get();
        else
            layOutOther();
        if (other && other->betterThan(best)) best = std::move(*other);
    } else {
        best.order(options, &progress, firstStarts);
    }
    progress.phase("coordinates", 0.78, 0.87);
    best.place(options, &progress);
    LayeredGraph& g = best.g;
    const std::vector<double>& x = best.x;
    out.stats.crossings = best.crossings;
    out.stats.spanPivots = best.placed.solver.pivots;
    out.stats.spanWork = best.placed.solver.work;
    out.stats.spanSettled = best.placed.applied && best.placed.solver.optimal;
    progress.phase("routing", 0.87, 1.0);

    placeLayers(g, options, out);
    const std::vector<Rect> rects = vertexRects(g, x, out, options);
    placeItems(graph, g, rects, out);
    // Edges, in input order.
    out.edges.resize(graph.edges.size());
    for (size_t e = 0; e < graph.edges.size(); ++e) {
        progress.advance(1, static_cast<int64_t>(graph.edges.size()));
        routeEdge(graph, g, rects, e, out);
    }
    out.bounds = drawingBounds(out, options);

    out.stats.layers = static_cast<int32_t>(g.layers.size());
    out.stats.ghosts = g.ghostCount;
    out.stats.dummies = g.vertexCount() - (g.itemCount + g.ghostCount);
    out.stats.reversedEdges = g.reversedCount;
    progress.finish();
    return out;
}

}  // namespace irscope::layout
