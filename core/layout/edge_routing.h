#pragma once
// Edge routing: polylines through the dummy vertices of each long edge,
// from the source's bottom side to the target's top side, each end at the
// border point nearest the next bend. Inside a dummy's layer the route
// runs vertically (layer top to bottom), so parallel long edges read as lanes.
#include <vector>

#include "core/layout/geometry.h"
#include "core/layout/layered_graph.h"

namespace irscope::layout::detail {

// Where the segment from the centre of `box` towards `toward` leaves the box.
Point clipToBox(const Rect& box, Point toward);

// Where an edge to a point below `box` leaves its bottom side, and where an
// edge from a point above `box` enters its top side: the border point
// nearest the other end's x (see edge_routing.cpp); the centre line,
// clipped, when that point is not below (above).
Point bottomPort(const Rect& box, Point toward);
Point topPort(const Rect& box, Point toward);

// Route of one chain (top to bottom); `rects` per vertex, `layerTop/Bottom` per layer.
std::vector<Point> routeChain(const LayeredGraph& g, const std::vector<int32_t>& chain, const std::vector<Rect>& rects,
                              const std::vector<double>& layerTop, const std::vector<double>& layerBottom);

}  // namespace irscope::layout::detail
