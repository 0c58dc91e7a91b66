#pragma once
// LayoutGraph: the generic input of the layout engine. Boxes with a size and a
// kind, directed edges between them; nothing about the IR. graph_to_layout.h
// builds one from an ir::Graph; tests and benchmarks build them by hand.
#include <cstdint>
#include <string>
#include <vector>

#include "core/layout/op_family.h"

namespace irscope::layout {

// What a drawn item stands for. The layout treats Parameter/Buffer/Constant/
// OtherWeight ("weight items") specially: each is placed in the layer just
// above its consumer and kept out of the vertical alignment.
enum class ItemKind : unsigned char {
    Op,           // an OpNode (irIndex = node index)
    GraphInput,   // irIndex = graph input index
    Parameter,    // p_ placeholder (irIndex = weights[] index, -1 if unmapped)
    Buffer,       // b_ placeholder
    Constant,     // c_ placeholder (lifted tensor constant)
    OtherWeight,  // a weight used under its original name or an unknown prefix
    Output,       // irIndex = graph output index
    Ghost,        // made by the layout: a proxy of a far-away high-fan-out source
    // The collapsed drawing (core/modules/module_drawing.h); irIndex = ModuleId:
    Module,  // a collapsed module: one box for everything inside it
    Frame,   // an expanded module: a frame around its children
    Port,    // inside a frame: a value entering it from outside (name = tensor)
    // An open higher-order op (core/modules/region_drawing.h); irIndex = node index:
    Region,    // a frame around the op's subgraphs
    Subgraph,  // one subgraph's frame inside it (PlacedItem::subgraph says which)
};
const char* itemKindName(ItemKind kind);  // "op", "input", "parameter", "buffer", "constant", "weight", "output",
                                          // "ghost", "module", "frame", "port", "region", "subgraph"
bool isWeightItem(ItemKind kind);         // Parameter, Buffer, Constant, OtherWeight
// Drawn behind everything as a titled frame: Frame, Region, Subgraph.
inline bool isFrameKind(ItemKind kind) {
    return kind == ItemKind::Frame || kind == ItemKind::Region || kind == ItemKind::Subgraph;
}

struct LayoutNode {
    double width = 0;
    double height = 0;
    ItemKind kind = ItemKind::Op;
    OpFamily family = OpFamily::Other;  // meaningful for Op
    int64_t irIndex = -1;               // see ItemKind
    std::string name;                   // IR name: node name, input name, placeholder, "output_<i>"
    std::vector<std::string> lines;     // label lines, top to bottom
    int32_t count = 1;                  // a weight bundle stands for `count` weights
    // Placed like a weight item (just above its one consumer, out of the
    // alignment) whatever its kind: the collapsed drawing does this for a
    // graph input that only one box reads (an LLM's per-layer KV cache).
    bool satellite = false;
};
// A weight item, or an item asked to be placed like one.
inline bool isSatellite(const LayoutNode& node) { return node.satellite || isWeightItem(node.kind); }

enum class EdgeStyle : unsigned char { Solid, Dashed };

struct LayoutEdge {
    int32_t source = -1;  // LayoutGraph::nodes index
    int32_t target = -1;
    EdgeStyle style = EdgeStyle::Solid;
    std::string label;         // tensor shape ("1x4"), may be empty
    int64_t targetInput = -1;  // which input of the target op this edge feeds (-1: n/a)
};

struct LayoutGraph {
    std::vector<LayoutNode> nodes;
    std::vector<LayoutEdge> edges;

    int32_t addNode(LayoutNode node) {
        nodes.push_back(std::move(node));
        return static_cast<int32_t>(nodes.size() - 1);
    }
    int32_t addEdge(LayoutEdge edge) {
        edges.push_back(std::move(edge));
        return static_cast<int32_t>(edges.size() - 1);
    }
};

}  // namespace irscope::layout
