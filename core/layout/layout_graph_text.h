#pragma once
// A LayoutGraph as plain text: what the layout engine sees of a model (box
// sizes, kinds, edges), without the IR. The layout-quality fixtures
// (tests/data/layout/*.layout, made by bench/make_layout_fixtures.sh) are
// stored this way: a few KB where the IR JSON of a 16-layer Llama is half
// a MB, and frozen against later changes to how graph_to_layout sizes
// boxes, so the bounds dot computed for them stay valid.
//
// Format, one record a line ('#' starts a comment line):
//   node <kind> <width> <height> <satellite 0|1> <name>
//   edge <source> <target> <solid|dashed>
// kind as itemKindName() writes it; nodes numbered from 0 in file order.
#include <istream>
#include <string>

#include "core/layout/layout_graph.h"

namespace irscope::layout {

std::string layoutGraphToText(const LayoutGraph& graph);

// Throws std::runtime_error naming the line on malformed input.
LayoutGraph layoutGraphFromText(std::istream& in);

}  // namespace irscope::layout
