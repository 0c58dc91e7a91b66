#pragma once
// A value that enters an open module is drawn once. Each level of the
// collapsed drawing is laid out on its own (module_level.h), so a value from
// outside a frame is a port item inside it; composed as they are, the port
// would be a second box of the value, and a third one inside a nested frame
// (`embedding` outside `layers`, in `layers`, in `layers.0`). When the levels
// are composed, the parent's edge that brings the value into the frame runs
// on to the port, the port shrinks to a junction dot with no label, and the
// frame's own edges leave from that dot: one line from the producer to every
// reader, through as many frames as it crosses.
#include <cstddef>
#include <cstdint>

#include "core/layout/layout_result.h"
#include "core/modules/module_tree.h"

namespace irscope::modules {

// The side of a junction dot, in layout units.
inline constexpr double kJunctionSize = 7;

// The items and edges one level added to a composed drawing.
struct ComposedRange {
    int32_t itemsBegin = 0, itemsEnd = 0;
    size_t edgesBegin = 0, edgesEnd = 0;
};

// Joins the ports of `inner` (the level drawn inside the frame item `frame`)
// to the edges of `outer` (the level holding the frame) that bring their
// values. A port no edge brings (none should) stays as it was.
void joinFramePorts(const ModuleTree& tree, int32_t frame, const ComposedRange& outer, const ComposedRange& inner,
                    layout::LayoutResult& drawing);

}  // namespace irscope::modules
