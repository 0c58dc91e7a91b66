#include "core/modules/frame_junctions.h"

#include <vector>

namespace irscope::modules {

using layout::ItemKind;
using layout::LayoutResult;
using layout::PlacedItem;
using layout::Point;

namespace {

// Whether the outer item `source` draws the value a port stands for: the
// port's irIndex is its producing node, or -2 - the graph input's index.
bool brings(const ModuleTree& tree, const LayoutResult& drawing, int32_t source, int64_t producer) {
    const PlacedItem* s = &drawing.items[static_cast<size_t>(source)];
    if (s->kind == ItemKind::Ghost && s->ghostOf >= 0) s = &drawing.items[static_cast<size_t>(s->ghostOf)];
    switch (s->kind) {
    case ItemKind::Port: return s->irIndex == producer;  // passed on from a frame around this one
    case ItemKind::Op: return producer >= 0 && s->irIndex == producer;
    case ItemKind::GraphInput: return producer <= -2 && s->irIndex == -2 - producer;
    case ItemKind::Module:
    case ItemKind::Frame:  // a closed module, or an open one the value leaves
        return producer >= 0 && s->irIndex >= 0 &&
               tree.isAncestorOrSelf(static_cast<ModuleId>(s->irIndex), tree.moduleOfNode(producer));
    default: return false;
    }
}

}  // namespace

void joinFramePorts(const ModuleTree& tree, int32_t frame, const ComposedRange& outer, const ComposedRange& inner,
                    LayoutResult& drawing) {
    std::vector<char> joined(outer.edgesEnd - outer.edgesBegin, 0);
    for (int32_t p = inner.itemsBegin; p < inner.itemsEnd; ++p) {
        if (drawing.items[static_cast<size_t>(p)].kind != ItemKind::Port) continue;
        const int64_t producer = drawing.items[static_cast<size_t>(p)].irIndex;
        size_t match = outer.edgesEnd;
        for (size_t e = outer.edgesBegin; e < outer.edgesEnd && match == outer.edgesEnd; ++e)
            if (drawing.edges[e].target == frame && brings(tree, drawing, drawing.edges[e].source, producer)) match = e;
        if (match == outer.edgesEnd || drawing.edges[match].points.empty()) continue;
        // One outer edge per source and frame: two values of one op (a
        // split's halves) entering the frame share it, so the second port
        // gets a copy of it.
        size_t into = match;
        if (joined[match - outer.edgesBegin]) {
            drawing.edges.push_back(drawing.edges[match]);
            into = drawing.edges.size() - 1;
            drawing.edges[into].points.pop_back();  // the copy ends at the frame, as the first did
            drawing.edges[into].label.clear();      // one shape label per line is enough
        } else {
            joined[match - outer.edgesBegin] = 1;
        }
        PlacedItem& port = drawing.items[static_cast<size_t>(p)];
        const Point dot = port.rect.center();
        // It crosses the frame's border straight above the dot, and runs
        // down to it: lines enter where their readers are, not where the
        // outer level aimed at the frame as a whole.
        auto& in = drawing.edges[into];
        if (in.points.size() >= 2) in.points.back().x = dot.x;
        in.points.push_back(dot);
        in.target = p;
        // The frame's edges from the port: its own, and copies a frame
        // inside it made (appended after every level's edges).
        for (size_t e = inner.edgesBegin; e < drawing.edges.size(); ++e)
            if (drawing.edges[e].source == p) drawing.edges[e].points.insert(drawing.edges[e].points.begin(), dot);
        port.rect = {dot.x - kJunctionSize / 2, dot.y - kJunctionSize / 2, kJunctionSize, kJunctionSize};
        port.lines.clear();
    }
}

}  // namespace irscope::modules
