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

std::vector<Point> routeChain(const LayeredGraph& g, const std::vector<int32_t>& chain, const std::vector<Rect>& rects,
                              const std::vector<double>& layerTop, const std::vector<double>& layerBottom) {
    std::vector<Point> pts;
    if (chain.size() < 2) return pts;
    std::vector<Point> middle;
    for (size_t i = 1; i + 1 < chain.size(); ++i) {
        const int32_t d = chain[i];
        const double x = rects[d].center().x;
        middle.push_back({x, layerTop[g.layer[d]]});
        if (layerBottom[g.layer[d]] > layerTop[g.layer[d]]) middle.push_back({x, layerBottom[g.layer[d]]});
    }
    const Rect& s = rects[chain.front()];
    const Rect& t = rects[chain.back()];
    pts.push_back(clipToBox(s, middle.empty() ? t.center() : middle.front()));
    pts.insert(pts.end(), middle.begin(), middle.end());
    pts.push_back(clipToBox(t, middle.empty() ? s.center() : middle.back()));
    return pts;
}

}  // namespace irscope::layout::detail
