#include "core/layout/layout_result.h"

namespace irscope::layout {

void appendMoved(const LayoutResult& from, double dx, double dy, LayoutResult& to) {
    const auto base = static_cast<int32_t>(to.items.size());
    for (const auto& it : from.items) {
        to.items.push_back(it);
        auto& p = to.items.back();
        p.rect.x += dx;
        p.rect.y += dy;
        if (p.ghostOf >= 0) p.ghostOf += base;
    }
    for (const auto& e : from.edges) {
        to.edges.push_back(e);
        auto& q = to.edges.back();
        q.source += base;
        q.target += base;
        for (auto& pt : q.points) pt.x += dx, pt.y += dy;
        q.labelPos.x += dx;
        q.labelPos.y += dy;
    }
    to.stats.dummies += from.stats.dummies;
    to.stats.ghosts += from.stats.ghosts;
    to.stats.crossings += from.stats.crossings;
    to.stats.reversedEdges += from.stats.reversedEdges;
}

}  // namespace irscope::layout
