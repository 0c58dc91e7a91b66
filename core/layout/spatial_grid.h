#pragma once
// SpatialGrid: a uniform grid over a laid-out graph's items and edge segments,
// so a view draws and hit-tests only what lies in its viewport. Built once per
// layout (linear time, CSR storage); queries return each id once.
#include <cstdint>
#include <vector>

#include "core/layout/layout_result.h"

namespace irscope::layout {

class SpatialGrid {
public:
    SpatialGrid() = default;
    explicit SpatialGrid(const layout::LayoutResult& layout, double cellSize = 256);

    // Item / edge ids whose box (or a segment's box) meets the rectangle, ascending.
    std::vector<int32_t> itemsIn(const layout::Rect& rect) const;
    std::vector<int32_t> edgesIn(const layout::Rect& rect) const;
    // Topmost item whose rectangle contains p (within `slop` scene px), or -1.
    int32_t itemAt(layout::Point p, double slop = 0) const;

    bool empty() const { return cols_ == 0; }

private:
    struct Cells {
        std::vector<int32_t> offset;  // cols*rows + 1
        std::vector<int32_t> ids;
    };
    void cellRange(const layout::Rect& r, int& c0, int& r0, int& c1, int& r1) const;
    std::vector<int32_t> query(const Cells& cells, const layout::Rect& rect, bool items) const;

    const layout::LayoutResult* layout_ = nullptr;
    double x0_ = 0, y0_ = 0, cell_ = 256;
    int cols_ = 0, rows_ = 0;
    Cells items_, edges_;
};

}  // namespace irscope::layout
