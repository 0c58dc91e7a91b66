#pragma once
// A LayoutGraph written by hand, for the suites that lay out a small graph
// shaped like part of a model (a norm feeding projections with weights):
// boxes 80 x 36 px named as given, edges solid or dashed (a weight's).
#include <cstdint>

#include "core/layout/layout_graph.h"

namespace hand_built_graph {

using irscope::layout::EdgeStyle;
using irscope::layout::ItemKind;
using irscope::layout::LayoutGraph;
using irscope::layout::LayoutNode;

inline LayoutNode box(const char* name, ItemKind kind = ItemKind::Op) {
    LayoutNode n;
    n.name = name;
    n.kind = kind;
    n.width = 80;
    n.height = 36;
    n.lines = {name};
    return n;
}

inline int32_t addEdge(LayoutGraph& g, int32_t s, int32_t t, EdgeStyle style = EdgeStyle::Solid) {
    return g.addEdge({s, t, style, "", -1});
}

}  // namespace hand_built_graph
