#include "core/modules/region_drawing.h"

#include <algorithm>
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

std::string subgraphTitle(const ir::NamedSubgraph& sub) {
    const size_t ops = sub.graph ? sub.graph->nodes.size() : 0;
    return sub.name + "  · " + std::to_string(ops) + (ops == 1 ? " op" : " ops");
}

// Appends `inner` moved by (dx, dy), its items marked as drawn in subgraph s of the op.
void appendInside(const LayoutResult& inner, double dx, double dy, int64_t node, int32_t s, LayoutResult& out) {
    const size_t base = out.items.size();
    layout::appendMoved(inner, dx, dy, out);
    for (size_t i = base; i < out.items.size(); ++i) {
        out.items[i].region = node;
        out.items[i].subgraph = s;
    }
}

}  // namespace

LayoutResult layOutRegion(const ir::OpNode& node, int64_t nodeIndex, const DrawingOptions& options) {
    LayoutResult out;
    const double pad = options.framePadding, header = options.frameHeader;
    const auto& io = options.items;
    double x = pad, bottom = pad;
    for (size_t s = 0; s < node.subgraphs.size(); ++s) {
        const auto& sub = node.subgraphs[s];
        if (!sub.graph) continue;
        const ir::GraphIndex index(*sub.graph);
        layout::LayoutOptions lo = options.layout;
        lo.progress = {};
        lo.margin = pad;
        const LayoutResult inner = layout::computeLayout(layout::buildLayoutGraph(*sub.graph, index, io), lo);

        PlacedItem frame;
        frame.kind = ItemKind::Subgraph;
        frame.irIndex = nodeIndex;
        frame.name = sub.name;
        frame.lines = {subgraphTitle(sub)};
        frame.region = nodeIndex;
        frame.subgraph = static_cast<int32_t>(s);
        // Room for what a run adds to the title ("  ▶ iteration 12 of 40", "  ✔ ran 5 times").
        const std::string widest = frame.lines.front() + "  > iteration 9999 of 9999";
        const double titleWidth = (io.textWidth ? io.textWidth(widest) : layout::defaultTextWidth(widest)) + 24;
        const double w = std::max(inner.bounds.width, titleWidth);
        frame.rect = {x, pad, w, inner.bounds.height + header};
        out.items.push_back(frame);
        // Centred across when the title makes the frame wider than its contents.
        const double dx = x + (w - inner.bounds.width) / 2 - inner.bounds.x;
        appendInside(inner, dx, pad + header - inner.bounds.y, nodeIndex, static_cast<int32_t>(s), out);
        x += w + kSubgraphGap;
        bottom = std::max(bottom, frame.rect.bottom());
    }
    const double right = node.subgraphs.empty() ? pad : x - kSubgraphGap;
    out.bounds = {0, 0, right + pad, bottom + pad};
    return out;
}

}  // namespace irscope::modules
