#pragma once
// Invariants every layout must satisfy, shared by the layout suites.
#include <QTest>

#include <algorithm>
#include <map>
#include <vector>

#include "core/layout/layout_result.h"

namespace layout_checks {

using namespace irscope::layout;

// No two boxes overlap (they may not even touch).
inline bool noOverlaps(const LayoutResult& r, QString* why = nullptr) {
    std::map<int32_t, std::vector<const PlacedItem*>> byLayer;
    for (const auto& it : r.items) byLayer[it.layer].push_back(&it);
    for (auto& [layer, items] : byLayer) {
        std::sort(items.begin(), items.end(), [](auto a, auto b) { return a->rect.x < b->rect.x; });
        for (size_t i = 1; i < items.size(); ++i)
            if (items[i - 1]->rect.right() >= items[i]->rect.left()) {
                if (why) *why = QString("%1 overlaps %2").arg(items[i - 1]->name.c_str(), items[i]->name.c_str());
                return false;
            }
    }
    // Layers themselves are disjoint bands.
    for (size_t l = 1; l < r.layerTop.size(); ++l)
        if (r.layerTop[l] <= r.layerBottom[l - 1]) return false;
    for (const auto& it : r.items)
        if (it.rect.top() < r.layerTop[it.layer] || it.rect.bottom() > r.layerBottom[it.layer]) return false;
    return true;
}

// Every edge of an acyclic input runs downward: y never decreases along its
// polyline, and it starts on its source's box and ends on its target's.
inline bool edgesPointDown(const LayoutResult& r, QString* why = nullptr) {
    for (size_t e = 0; e < r.edges.size(); ++e) {
        const auto& edge = r.edges[e];
        if (edge.points.size() < 2) return false;
        for (size_t i = 1; i < edge.points.size(); ++i)
            if (edge.points[i].y < edge.points[i - 1].y) {
                if (why) *why = QString("edge %1 goes up").arg(e);
                return false;
            }
        const auto& s = r.items[edge.source].rect;
        const auto& t = r.items[edge.target].rect;
        const auto a = edge.points.front(), b = edge.points.back();
        const double eps = 1e-6;
        if (a.y < s.bottom() - eps && !(a.x <= s.left() + eps || a.x >= s.right() - eps)) return false;
        if (std::abs(b.y - t.top()) > eps && !(b.x <= t.left() + eps || b.x >= t.right() - eps)) return false;
        if (s.bottom() >= t.top()) {
            if (why) *why = QString("edge %1: source not above target").arg(e);
            return false;
        }
    }
    return true;
}

inline bool sameLayout(const LayoutResult& a, const LayoutResult& b) {
    if (a.items.size() != b.items.size() || a.edges.size() != b.edges.size() || !(a.bounds == b.bounds)) return false;
    for (size_t i = 0; i < a.items.size(); ++i)
        if (!(a.items[i].rect == b.items[i].rect) || a.items[i].layer != b.items[i].layer) return false;
    for (size_t i = 0; i < a.edges.size(); ++i)
        if (a.edges[i].points != b.edges[i].points || a.edges[i].source != b.edges[i].source) return false;
    return true;
}

}  // namespace layout_checks
