#include "core/layout/drawing_metrics.h"

#include <algorithm>
#include <cmath>

#include "core/layout/crossing_count.h"

namespace irscope::layout {

namespace {

// x of a polyline at height y (the nearer end's x when it does not reach y).
double xAt(const std::vector<Point>& pl, double y) {
    for (size_t i = 1; i < pl.size(); ++i) {
        const Point a = pl[i - 1], b = pl[i];
        if ((a.y <= y && y <= b.y) || (b.y <= y && y <= a.y)) {
            if (b.y == a.y) return (a.x + b.x) / 2;
            return a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y);
        }
    }
    return std::abs(pl.front().y - y) < std::abs(pl.back().y - y) ? pl.front().x : pl.back().x;
}

// Strict inversions among (top x, bottom x) pairs, ends equal within 0.01 px shared.
int64_t gapCrossings(const std::vector<std::pair<double, double>>& gap) {
    std::vector<double> tops, bottoms;
    for (const auto& [p, q] : gap) {
        tops.push_back(p);
        bottoms.push_back(q);
    }
    auto compress = [](std::vector<double>& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end(), [](double a, double b) { return std::abs(a - b) < 0.01; }), v.end());
    };
    compress(tops);
    compress(bottoms);
    auto idx = [](const std::vector<double>& v, double x) {
        return static_cast<int32_t>(std::lower_bound(v.begin(), v.end(), x - 0.005) - v.begin());
    };
    std::vector<std::pair<int32_t, int32_t>> segs;
    for (const auto& [p, q] : gap) segs.emplace_back(idx(tops, p), idx(bottoms, q));
    return detail::countBilayerCrossings(segs, static_cast<int32_t>(bottoms.size()));
}

}  // namespace

Drawing drawingOf(const LayoutResult& result) {
    Drawing d;
    for (const auto& it : result.items) d.boxes.push_back(it.rect);
    for (const auto& e : result.edges) {
        d.edges.push_back(e.points);
        d.ends.emplace_back(e.source, e.target);
    }
    return d;
}

DrawingMetrics measureDrawing(const LayoutGraph& graph, const Drawing& d) {
    DrawingMetrics m;
    std::vector<double> ys;
    double lo = 1e300, hi = -1e300;
    for (const Rect& r : d.boxes) {
        ys.push_back(std::round(r.center().y * 10) / 10);
        lo = std::min(lo, r.left());
        hi = std::max(hi, r.right());
    }
    std::sort(ys.begin(), ys.end());
    ys.erase(std::unique(ys.begin(), ys.end(), [](double a, double b) { return std::abs(a - b) < 1; }), ys.end());
    m.width = d.boxes.empty() ? 0 : hi - lo;
    m.ranks = static_cast<int32_t>(ys.size());
    auto rankOf = [&](double y) {
        return static_cast<int>(std::lower_bound(ys.begin(), ys.end(), std::round(y * 10) / 10 - 0.5) - ys.begin());
    };
    // Per rank gap r -> r+1: (x at r, x at r+1) of every edge passing it.
    std::vector<std::vector<std::pair<double, double>>> gaps(ys.size());
    int opEdges = 0, straight = 0;
    for (size_t e = 0; e < d.edges.size(); ++e) {
        const auto& pl = d.edges[e];
        const auto [s, t] = d.ends[e];
        const bool opop = graph.nodes[graph.edges[e].source].kind == ItemKind::Op &&
                          graph.nodes[graph.edges[e].target].kind == ItemKind::Op;
        opEdges += opop;
        if (pl.size() < 2) continue;
        for (size_t i = 1; i < pl.size(); ++i) m.edgeLength += std::hypot(pl[i].x - pl[i - 1].x, pl[i].y - pl[i - 1].y);
        const Point a = d.boxes[s].center(), b = d.boxes[t].center();
        if (opop && std::abs(a.x - b.x) < 0.5) ++straight;
        // Sampled from box centre to box centre at every rank in between.
        int r0 = rankOf(a.y), r1 = rankOf(b.y);
        const bool flip = r0 > r1;
        if (flip) std::swap(r0, r1);
        double prev = (flip ? b : a).x;
        for (int r = r0 + 1; r <= r1; ++r) {
            const double x = r == r1 ? (flip ? a : b).x : xAt(pl, ys[r]);
            gaps[r - 1].emplace_back(prev, x);
            prev = x;
        }
    }
    for (const auto& gap : gaps)
        if (gap.size() >= 2) m.crossings += gapCrossings(gap);
    m.straightPercent = opEdges ? 100.0 * straight / opEdges : 0;
    return m;
}

}  // namespace irscope::layout
