#include "core/layout/spatial_grid.h"

#include <algorithm>
#include <cmath>

namespace irscope::layout {

using layout::Point;
using layout::Rect;

namespace {

Rect segmentBox(Point a, Point b) {
    const double x = std::min(a.x, b.x), y = std::min(a.y, b.y);
    return {x, y, std::abs(a.x - b.x), std::abs(a.y - b.y)};
}

}  // namespace

SpatialGrid::SpatialGrid(const layout::LayoutResult& layout, double cellSize) : layout_(&layout), cell_(cellSize) {
    const Rect& b = layout.bounds;
    x0_ = b.x;
    y0_ = b.y;
    cols_ = std::max(1, static_cast<int>(std::ceil(b.width / cell_)));
    rows_ = std::max(1, static_cast<int>(std::ceil(b.height / cell_)));
    // Keep the cell count bounded for huge drawings.
    while (static_cast<int64_t>(cols_) * rows_ > 4'000'000) {
        cell_ *= 2;
        cols_ = std::max(1, static_cast<int>(std::ceil(b.width / cell_)));
        rows_ = std::max(1, static_cast<int>(std::ceil(b.height / cell_)));
    }
    const size_t cellCount = static_cast<size_t>(cols_) * rows_;

    auto build = [&](Cells& cells, auto&& forEachBox) {
        cells.offset.assign(cellCount + 1, 0);
        forEachBox([&](int32_t, const Rect& r) {
            int c0, r0, c1, r1;
            cellRange(r, c0, r0, c1, r1);
            for (int y = r0; y <= r1; ++y)
                for (int x = c0; x <= c1; ++x) ++cells.offset[static_cast<size_t>(y) * cols_ + x + 1];
        });
        for (size_t i = 0; i < cellCount; ++i) cells.offset[i + 1] += cells.offset[i];
        cells.ids.resize(static_cast<size_t>(cells.offset[cellCount]));
        std::vector<int32_t> fill(cells.offset.begin(), cells.offset.end() - 1);
        forEachBox([&](int32_t id, const Rect& r) {
            int c0, r0, c1, r1;
            cellRange(r, c0, r0, c1, r1);
            for (int y = r0; y <= r1; ++y)
                for (int x = c0; x <= c1; ++x) {
                    auto& slot = fill[static_cast<size_t>(y) * cols_ + x];
                    // A polyline's consecutive segments often share a cell: store it once.
                    if (slot > cells.offset[static_cast<size_t>(y) * cols_ + x] && cells.ids[slot - 1] == id) {
                        continue;
                    }
                    cells.ids[slot++] = id;
                }
        });
        // Compact the duplicates skipped above.
        std::vector<int32_t> ids;
        ids.reserve(cells.ids.size());
        std::vector<int32_t> offset(cellCount + 1, 0);
        for (size_t c = 0; c < cellCount; ++c) {
            for (int32_t i = cells.offset[c]; i < fill[c]; ++i) ids.push_back(cells.ids[i]);
            offset[c + 1] = static_cast<int32_t>(ids.size());
        }
        cells.ids = std::move(ids);
        cells.offset = std::move(offset);
    };

    build(items_, [&](auto&& f) {
        for (size_t i = 0; i < layout.items.size(); ++i) f(static_cast<int32_t>(i), layout.items[i].rect);
    });
    build(edges_, [&](auto&& f) {
        for (size_t e = 0; e < layout.edges.size(); ++e) {
            const auto& pts = layout.edges[e].points;
            for (size_t k = 1; k < pts.size(); ++k) f(static_cast<int32_t>(e), segmentBox(pts[k - 1], pts[k]));
            if (!layout.edges[e].label.empty()) {
                const Point p = layout.edges[e].labelPos;
                f(static_cast<int32_t>(e),
                  Rect{p.x, p.y - 7, 8.0 * static_cast<double>(layout.edges[e].label.size()), 14});
            }
        }
    });
}

void SpatialGrid::cellRange(const Rect& r, int& c0, int& r0, int& c1, int& r1) const {
    auto clampCol = [&](double v) { return std::clamp(static_cast<int>(std::floor((v - x0_) / cell_)), 0, cols_ - 1); };
    auto clampRow = [&](double v) { return std::clamp(static_cast<int>(std::floor((v - y0_) / cell_)), 0, rows_ - 1); };
    c0 = clampCol(r.left());
    c1 = clampCol(r.right());
    r0 = clampRow(r.top());
    r1 = clampRow(r.bottom());
}

std::vector<int32_t> SpatialGrid::query(const Cells& cells, const Rect& rect, bool items) const {
    std::vector<int32_t> out;
    if (cols_ == 0 || !layout_) return out;
    int c0, r0, c1, r1;
    cellRange(rect, c0, r0, c1, r1);
    for (int y = r0; y <= r1; ++y)
        for (int x = c0; x <= c1; ++x) {
            const size_t c = static_cast<size_t>(y) * cols_ + x;
            for (int32_t i = cells.offset[c]; i < cells.offset[c + 1]; ++i) out.push_back(cells.ids[i]);
        }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (items) {
        Rect probe = rect;
        out.erase(std::remove_if(out.begin(), out.end(),
                                 [&](int32_t id) {
                                     const Rect& r = layout_->items[id].rect;
                                     return !(r.x <= probe.right() && probe.x <= r.right() && r.y <= probe.bottom() &&
                                              probe.y <= r.bottom());
                                 }),
                  out.end());
    }
    return out;
}

std::vector<int32_t> SpatialGrid::itemsIn(const Rect& rect) const { return query(items_, rect, true); }
std::vector<int32_t> SpatialGrid::edgesIn(const Rect& rect) const { return query(edges_, rect, false); }

int32_t SpatialGrid::itemAt(Point p, double slop) const {
    const auto ids = itemsIn(Rect{p.x - slop, p.y - slop, 2 * slop, 2 * slop});
    // Later items are drawn on top.
    for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
        const Rect& r = layout_->items[*it].rect;
        if (p.x >= r.x - slop && p.x <= r.right() + slop && p.y >= r.y - slop && p.y <= r.bottom() + slop) return *it;
    }
    return -1;
}

}  // namespace irscope::layout
