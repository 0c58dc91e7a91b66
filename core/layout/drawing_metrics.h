#pragma once
// Drawing metrics: crossings, width, edge length and straightness of a
// drawn layered graph, measured from the geometry alone, so that our layout
// and Graphviz dot's are compared the same way (bench/bench_layout.cpp) and
// the layout-quality tests (tests/layout/test_dot_bounds.cpp) hold our
// drawing to the numbers dot reached on the same input:
//   crossings  between adjacent ranks (rows of box centres), each edge
//              sampled at every rank it passes, box centre to box centre;
//   width      of the boxes' bounding box;
//   edge len   total polyline length as drawn (border to border);
//   straight   share of op -> op edges whose boxes are vertically aligned.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/layout/geometry.h"
#include "core/layout/layout_graph.h"
#include "core/layout/layout_result.h"

namespace irscope::layout {

// A drawing of a LayoutGraph: a box per node, a polyline per edge (empty:
// not drawn) and its drawn ends (node indices; a ghost's box when it has one).
struct Drawing {
    std::vector<Rect> boxes;
    std::vector<std::vector<Point>> edges;
    std::vector<std::pair<int32_t, int32_t>> ends;
};

struct DrawingMetrics {
    int64_t crossings = 0;
    double width = 0;
    double edgeLength = 0;
    double straightPercent = 0;  // of op -> op edges
    int32_t ranks = 0;
};

// Our layout as a Drawing (items, then ghosts, as boxes).
Drawing drawingOf(const LayoutResult& result);

// `graph` gives each edge's kinds (op -> op) for straightness; boxes may
// outnumber its nodes (ghosts).
DrawingMetrics measureDrawing(const LayoutGraph& graph, const Drawing& drawing);

}  // namespace irscope::layout
