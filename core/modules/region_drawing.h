#pragma once
// A higher-order op drawn open (torch.cond, while_loop, scan, map, an
// autocast or no_grad region): a frame around its subgraphs, side by side in
// argument order, each in a frame of its own titled with its name and laid
// out on its own, as Model Explorer draws a group. A cond shows both
// branches; which one ran is the run's business (the graph view marks it),
// not the drawing's.
//
// The region is laid out once per op and cached by the module drawing; its
// items carry PlacedItem::region (the op's node index) and ::subgraph, and
// their irIndex counts in the subgraph, so no one mistakes a branch's `add`
// for the graph's node of the same index. Higher-order ops inside a
// subgraph are drawn open the same way, frames in frames, to any depth
// (16 levels; deeper ones as plain ops); their items carry the frames they
// are in (PlacedItem::position).
#include <cstdint>

#include "core/ir/graph.h"
#include "core/ir/graph_index.h"
#include "core/ir/op_node.h"
#include "core/layout/layout.h"
#include "core/layout/layout_result.h"

namespace irscope::modules {

struct DrawingOptions;

// Whether the op is drawn as a region when open: it owns subgraphs.
bool hasRegion(const ir::OpNode& node);

// The region's inside, placed from (0, 0): one Subgraph frame per subgraph
// with its items over it. bounds covers them plus the frame padding; the
// caller adds the region's own header above.
layout::LayoutResult layOutRegion(const ir::OpNode& node, int64_t nodeIndex, const DrawingOptions& options);
// The same for an op `depth` regions deep.
layout::LayoutResult layOutRegion(const ir::OpNode& node, int64_t nodeIndex, const DrawingOptions& options, int depth);

// A whole graph laid out flat (no modules) with every higher-order op open,
// frames in frames: what `irscope render` draws.
layout::LayoutResult layOutOpenRegions(const ir::Graph& graph, const ir::GraphIndex& index,
                                       const DrawingOptions& options);

// The region frame's title: "cond  [cond]", "while_loop  [while_loop_1]".
std::string regionTitle(const ir::OpNode& node);

}  // namespace irscope::modules
