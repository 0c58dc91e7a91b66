#include "core/modules/region_drawing.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

#include "core/ir/graph.h"
#include "core/ir/graph_index.h"
#include "core/layout/graph_to_layout.h"
#include "core/modules/module_drawing.h"  // DrawingOptions

namespace irscope::modules {

using layout::ItemKind;
using layout::LayoutResult;
using layout::PlacedItem;

bool hasRegion(const ir::OpNode& node) { return !node.subgraphs.empty(); }

std::string regionTitle(const ir::OpNode& node) {
    std::string_view op = node.opType;
    for (std::string_view prefix : {"torch.ops.higher_order.", "higher_order."})
        if (op.substr(0, prefix.size()) == prefix) op.remove_prefix(prefix.size());
    return std::string(op) + "  [" + node.name + "]";
}

namespace {

constexpr double kSubgraphGap = 16;
// Deeper higher-order ops are drawn as plain ops: a crafted program nesting
// thousands deep must not exhaust the stack.
constexpr int kMaxRegionDepth = 16;

std::string subgraphTitle(const ir::NamedSubgraph& sub) {
    const size_t ops = sub.graph ? sub.graph->nodes.size() : 0;
    return sub.name + "  · " + std::to_string(ops) + (ops == 1 ? " op" : " ops");
}

// Appends `inner` moved by (dx, dy), its items marked as drawn in subgraph s
// of the op (`frame`: "op/subgraph"); items already inside a deeper region
// keep their indexes and gain the outer frame in front of theirs.
void appendInside(const LayoutResult& inner, double dx, double dy, int64_t node, int32_t s, const std::string& frame,
                  LayoutResult& out) {
    const size_t base = out.items.size();
    layout::appendMoved(inner, dx, dy, out);
    for (size_t i = base; i < out.items.size(); ++i) {
        PlacedItem& it = out.items[i];
        const bool deeper = !it.position.empty();
        it.position = deeper ? frame + "/" + it.position : frame;
        it.region = node;
        it.subgraph = deeper ? -1 : s;
    }
}

// A graph laid out with its higher-order ops open, to any depth:
// each such op is a Region node as big as its own region, whose inside is
// placed over it after the layout.
LayoutResult layOutGraph(const ir::Graph& graph, const ir::GraphIndex& index, const DrawingOptions& options, int depth,
                         std::optional<double> margin) {
    layout::LayoutOptions lo = options.layout;
    lo.progress = {};
    if (margin) lo.margin = *margin;
    layout::LayoutGraph input = layout::buildLayoutGraph(graph, index, options.items);
    std::map<int64_t, LayoutResult> regions;
    if (depth < kMaxRegionDepth)
        for (auto& n : input.nodes) {
            if (n.kind != ItemKind::Op || n.irIndex < 0 || n.irIndex >= static_cast<int64_t>(graph.nodes.size()))
                continue;
            const ir::OpNode& op = graph.nodes[static_cast<size_t>(n.irIndex)];
            if (!hasRegion(op)) continue;
            const LayoutResult& r =
                regions.emplace(n.irIndex, layOutRegion(op, n.irIndex, options, depth + 1)).first->second;
            n.kind = ItemKind::Region;
            n.width = r.bounds.width;
            n.height = r.bounds.height + options.frameHeader;
            n.lines = {regionTitle(op)};
        }
    LayoutResult laid = layout::computeLayout(input, lo);
    if (regions.empty()) return laid;
    LayoutResult out;
    out.bounds = laid.bounds;
    out.edges = laid.edges;
    out.items = laid.items;
    for (const auto& it : laid.items) {
        if (it.kind != ItemKind::Region) continue;
        const auto r = regions.find(it.irIndex);
        if (r == regions.end()) continue;
        layout::appendMoved(r->second, it.rect.x - r->second.bounds.x,
                            it.rect.y + options.frameHeader - r->second.bounds.y, out);
    }
    return out;
}

}  // namespace

LayoutResult layOutRegion(const ir::OpNode& node, int64_t nodeIndex, const DrawingOptions& options) {
    return layOutRegion(node, nodeIndex, options, 0);
}

LayoutResult layOutOpenRegions(const ir::Graph& graph, const ir::GraphIndex& index, const DrawingOptions& options) {
    return layOutGraph(graph, index, options, -1, std::nullopt);
}

LayoutResult layOutRegion(const ir::OpNode& node, int64_t nodeIndex, const DrawingOptions& options, int depth) {
    LayoutResult out;
    const double pad = options.framePadding, header = options.frameHeader;
    const auto& io = options.items;
    double x = pad, bottom = pad;
    for (size_t s = 0; s < node.subgraphs.size(); ++s) {
        const auto& sub = node.subgraphs[s];
        if (!sub.graph) continue;
        const LayoutResult inner = layOutGraph(*sub.graph, ir::GraphIndex(*sub.graph), options, depth, pad);

        PlacedItem frame;
        frame.kind = ItemKind::Subgraph;
        frame.irIndex = nodeIndex;
        frame.name = sub.name;
        frame.lines = {subgraphTitle(sub)};
        frame.region = nodeIndex;
        frame.subgraph = static_cast<int32_t>(s);
        // The frame is named by its subgraph's path; a region inside a
        // subgraph gains the outer steps in front when it is placed there.
        frame.position = node.name + "/" + sub.name;
        // Room for what a run adds to the title ("  ▶ iteration 12 of 40", "  ✔ ran 5 times").
        const std::string widest = frame.lines.front() + "  > iteration 9999 of 9999";
        const double titleWidth = (io.textWidth ? io.textWidth(widest) : layout::defaultTextWidth(widest)) + 24;
        const double w = std::max(inner.bounds.width, titleWidth);
        frame.rect = {x, pad, w, inner.bounds.height + header};
        out.items.push_back(frame);
        // Centred across when the title makes the frame wider than its contents.
        const double dx = x + (w - inner.bounds.width) / 2 - inner.bounds.x;
        appendInside(inner, dx, pad + header - inner.bounds.y, nodeIndex, static_cast<int32_t>(s),
                     node.name + "/" + sub.name, out);
        x += w + kSubgraphGap;
        bottom = std::max(bottom, frame.rect.bottom());
    }
    const double right = node.subgraphs.empty() ? pad : x - kSubgraphGap;
    out.bounds = {0, 0, right + pad, bottom + pad};
    return out;
}

}  // namespace irscope::modules
