#pragma once
// LayoutResult: what the layout hands to a renderer (SVG export, graph view).
//
// Item ids: items[i] for i < LayoutGraph::nodes.size() is LayoutGraph node i;
// ghost proxies made by the layout are appended after them. Edge ids:
// edges[i] is LayoutGraph edge i (an edge whose source was replaced by a
// ghost has source == that ghost's id and `ghosted` set).
#include <cstdint>
#include <string>
#include <vector>

#include "core/layout/geometry.h"
#include "core/layout/layout_graph.h"

namespace irscope::layout {

struct PlacedItem {
    ItemKind kind = ItemKind::Op;
    OpFamily family = OpFamily::Other;
    int64_t irIndex = -1;  // as LayoutNode::irIndex (for a ghost: its source's)
    int32_t ghostOf = -1;  // for a ghost: the item id it stands for
    std::string name;      // for a ghost: the source's name
    std::vector<std::string> lines;
    int32_t count = 1;  // as LayoutNode::count
    Rect rect;
    int32_t layer = 0;
    // Drawn inside an open higher-order op (core/modules/region_drawing.h):
    // that op's node index, and which of its subgraphs. irIndex of such an
    // item counts in the subgraph (its ops, inputs, outputs), never in the graph.
    int64_t region = -1;
    int32_t subgraph = -1;
    // The subgraph it is drawn in, as its path of "op/subgraph" steps (an
    // execution position's frames without calls, ir/execution_position.h):
    // "while_loop/while_loop_body_graph_0/cond/true_graph_0"; "" at the top
    // level. A subgraph's own frame carries its own path. An item two or
    // more levels deep keeps `region` (the outermost op) with `subgraph` -1:
    // its irIndex counts in its own subgraph.
    std::string position;
};

struct RoutedEdge {
    int32_t source = -1;  // item ids
    int32_t target = -1;
    EdgeStyle style = EdgeStyle::Solid;
    // Polyline from the source's border to the target's border (the arrow
    // tip is the last point). Vertical runs through dummy layers make long
    // edges read as straight lanes; a renderer may round the corners.
    std::vector<Point> points;
    std::string label;
    // Left-middle anchor of the label (text starts here, vertically centred);
    // meaningful when label is not empty. It lies in the gap just below the source.
    Point labelPos;
    int64_t targetInput = -1;
    bool ghosted = false;  // the edge's real source is items[source].ghostOf
};

struct LayoutStats {
    int32_t layers = 0;
    int64_t dummies = 0;  // bend points inserted for long edges
    int64_t ghosts = 0;
    int64_t crossings = 0;      // between adjacent layers, dummies included
    int64_t reversedEdges = 0;  // edges that pointed upward (cycles in the input)
    // The x placement's solver (span_placement.h): its pivots, its work
    // (nodes and constraints visited), and whether it reached the least
    // span for the order and its placement was kept (false: the graph was
    // too large to run it, it stopped at its budget, or its placement was
    // wider or no shorter than the start, which stayed; span_placement.h).
    int64_t spanPivots = 0;
    int64_t spanWork = 0;
    bool spanSettled = false;
};

struct LayoutResult {
    std::vector<PlacedItem> items;
    std::vector<RoutedEdge> edges;
    Rect bounds;                   // every item and edge point, plus the margin
    std::vector<double> layerTop;  // y of each layer's top, layer order
    std::vector<double> layerBottom;
    LayoutStats stats;
};

// Appends `from` moved by (dx, dy) to `to`, its item ids shifted past
// `to`'s (edges and ghosts follow), its stats added: how a drawing made of
// parts laid out on their own (modules, a higher-order op's subgraphs) is
// put together.
void appendMoved(const LayoutResult& from, double dx, double dy, LayoutResult& to);

}  // namespace irscope::layout
