#include "core/layout/edge_routing.h"

#include <algorithm>
#include <cmath>

namespace irscope::layout::detail {

Point clipToBox(const Rect& box, Point toward) {
    const Point c = box.center();
    const double dx = toward.x - c.x, dy = toward.y - c.y;
    if (dx == 0 && dy == 0) return c;
    double t = 1.0;
    if (dx != 0) t = std::min(t, (box.width / 2) / std::abs(dx));
    if (dy != 0) t = std::min(t, (box.height / 2) / std::abs(dy));
    return {c.x + dx * t, c.y + dy * t};
}

namespace {

constexpr double kPortInset = 8;  // an end stays this far inside its box's corners

// Where an edge leaves a box's bottom (enters a box's top) for a neighbour
// below (above) it: straight under (over) the box when the neighbour is
// within its width, else at the corner nearest it. Like dot's ports: an
// edge from a wide weight to an op off to one side starts at the weight's
// near corner, not at its middle (clipping the centre line started it
// about half the box's width further away).
double portX(const Rect& box, double towardX) {
    const double inset = std::min(kPortInset, box.width / 2);
    return std::clamp(towardX, box.left() + inset, box.right() - inset);
}

}  // namespace

Point bottomPort(const Rect& box, Point toward) {
    if (toward.y <= box.bottom()) return clipToBox(box, toward);  // not below: the centre line
    return {portX(box, toward.x), box.bottom()};
}

Point topPort(const Rect& box, Point toward) {
    if (toward.y >= box.top()) return clipToBox(box, toward);
    return {portX(box, toward.x), box.top()};
}

std::vector<Point> routeChain(const LayeredGraph& g, const std::vector<int32_t>& chain, const std::vector<Rect>& rects,
                              const std::vector<double>& layerTop, const std::vector<double>& layerBottom) {
    std::vector<Point> pts;
    if (chain.size() < 2) return pts;
    // One allocation per edge (the bend points between the two ports, at
    // most two per dummy): routing every edge was a tenth of a small
    // graph's allocations when the points were gathered apart and copied.
    pts.reserve(2 * chain.size());
    pts.push_back({});  // the source's port, once the first bend is known
    for (size_t i = 1; i + 1 < chain.size(); ++i) {
        const int32_t d = chain[i];
        const double x = rects[d].center().x;
        pts.push_back({x, layerTop[g.layer[d]]});
        if (layerBottom[g.layer[d]] > layerTop[g.layer[d]]) pts.push_back({x, layerBottom[g.layer[d]]});
    }
    const Rect& s = rects[chain.front()];
    const Rect& t = rects[chain.back()];
    const bool bends = pts.size() > 1;
    const Point lastBend = pts.back();
    pts.front() = bottomPort(s, bends ? pts[1] : t.center());
    pts.push_back(topPort(t, bends ? lastBend : s.center()));
    return pts;
}

}  // namespace irscope::layout::detail
