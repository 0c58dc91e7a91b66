#pragma once
// GraphRenderer: draws a DocumentLayout with QPainter, with level of detail.
// The graph view, its minimap, PNG export (`irscope render -o X.png`) and the
// benchmark all draw through it, so they look the same.
//
//   Overview (a box is a few pixels): items and edges are plotted straight
//   into a raster buffer, highlights as bright marks; ~1 ms per 100k items.
//   Shapes (boxes readable, text not): flat boxes and straight edge lines.
//   Full: antialiased shapes, labels, arrowheads, shape labels on edges.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <QRectF>

#include "core/exec/debugger/subgraph_frames.h"
#include "widgets/graph_view/graph_theme.h"
#include "widgets/session/diff_marks.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/node_decoration.h"

class QPainter;

namespace irscope::widgets {

enum class DetailLevel { Auto, Overview, Shapes, Full };

struct RenderRequest {
    const DocumentLayout* layout = nullptr;
    QRectF sceneRect;            // the part of the drawing to show
    QRectF target;               // where on the painter, in logical pixels
    qreal devicePixelRatio = 1;  // of the paint device (raster overview buffer)
    GraphTheme theme = GraphTheme::light();
    const std::vector<uint8_t>* itemFlags = nullptr;                // ItemFlag bits per item, may be null
    const std::vector<uint8_t>* edgeFlags = nullptr;                // EdgeFlag bits per edge, may be null
    std::function<const NodeDecoration*(int64_t node)> decoration;  // may be empty
    // Decorations of placeholder items by placeholder name (missing-value marks); may be empty.
    std::function<const NodeDecoration*(const std::string& placeholder)> weightDecoration;
    // Decorations of collapsed module boxes and frames (aggregated over the ops inside); may be empty.
    std::function<const NodeDecoration*(int64_t module)> moduleDecoration;
    // An open module's frame outlined in its ops' aggregate overlay colour (invalid: none); may be empty.
    std::function<QColor(int64_t module)> frameOverlay;
    // Where the run stands inside higher-order ops, at any depth (the
    // innermost subgraph's next node ringed, the nodes after it faded), how
    // often each subgraph ran so far (by path: nested frames say it), and
    // which subgraph nodes have a breakpoint; may be null / empty.
    const std::vector<exec::SubgraphFrame>* frames = nullptr;
    const std::map<std::string, int64_t>* callCounts = nullptr;
    std::function<bool(const std::string& subgraph, int64_t inner)> subgraphBreakpoint;
    // A comparison's marks (added / removed / changed, modules holding changes); may be null.
    const DiffMarks* diff = nullptr;
    DetailLevel detail = DetailLevel::Auto;
    bool fillBackground = true;
    // Overview only: fill `target` exactly, scaling across and down apart
    // (the minimap of a 2,200-layer column would otherwise be under a pixel wide).
    bool stretch = false;
};

// Zoom (target px per scene px) thresholds of the levels of detail.
inline constexpr double kOverviewBelowZoom = 0.12;
inline constexpr double kTextFromZoom = 0.45;
inline constexpr double kEdgeLabelsFromZoom = 0.7;

DetailLevel detailFor(double zoom);
void renderGraph(QPainter& painter, const RenderRequest& request);

}  // namespace irscope::widgets
