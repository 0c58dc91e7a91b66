#pragma once
// Edge routing: polylines through the dummy vertices of each long edge,
// clipped to the source and target boxes. Inside a dummy's layer the route
// runs vertically (layer top to bottom), so parallel long edges read as lanes.
#include <vector>

#include "core/layout/geometry.h"
#include "core/layout/layered_graph.h"

namespace irscope::layout::detail {

// Where the segment from the centre of `box` towards `toward` leaves the box.
Point clipToBox(const Rect& box, Point toward);

// Route of one chain (top to bottom); `rects` per vertex, `layerTop/Bottom` per layer.
std::vector<Point> routeChain(const LayeredGraph& g, const std::vector<int32_t>& chain, const std::vector<Rect>& rects,
                              const std::vector<double>& layerTop, const std::vector<double>& layerBottom);

}  // namespace irscope::layout::detail
