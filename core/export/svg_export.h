#pragma once
// SVG text of a laid-out graph, in the drawing conventions of
// docs/ir-format.md §6: ops as rounded boxes coloured by op family, graph
// inputs and weights as parallelograms (p_/b_/c_ with distinct fills),
// outputs as trapezoids, dashed weight edges, solid edges labelled with
// shapes.
//
// Every item is a <g> whose id is derived from its IR name (op_<node>,
// input_<name>, w_<placeholder>[_k], output_<i>, ghost_<source>_<k>) and
// whose <title> is the IR name; every edge is a <g class="edge ..."> with a
// <title> "source -> target". Only presentation attributes are used (no CSS,
// no markers), so Qt's SVG renderer draws it as browsers do.
#include <string>

#include "core/ir/graph.h"
#include "core/ir/graph_index.h"
#include "core/layout/graph_to_layout.h"
#include "core/layout/layout.h"
#include "core/layout/layout_result.h"

namespace irscope::exporter {

struct SvgOptions {
    double scale = 1.0;      // width/height attributes = drawing size * scale (the viewBox stays)
    double fontSize = 12;    // node labels; edge labels are 10/12 of it
    double lineHeight = 15;  // must match the layout input's line height
    std::string fontFamily = "DejaVu Sans Mono, Menlo, Consolas, monospace";
};

struct FamilyColors {
    const char* fill;
    const char* stroke;
};
// Fill and stroke of an item: op family for ops, kind for everything else.
FamilyColors itemColors(const layout::PlacedItem& item);

std::string layoutToSvg(const layout::LayoutResult& layout, const SvgOptions& options = {});

// The whole pipeline as `irscope render` runs it.
// The layout graphToSvg draws: every op, higher-order ops open (their
// subgraphs in frames, to any depth).
layout::LayoutResult flatLayout(const ir::Graph& graph, const ir::GraphIndex& index, bool includeWeights,
                                const SvgOptions& options);
std::string graphToSvg(const ir::Graph& graph, const ir::GraphIndex& index, bool includeWeights,
                       const SvgOptions& options = {});

// The collapsed drawing (core/modules/module_drawing.h): modules down to
// `depth` open (1: the model's children; ModuleLists open with their
// parent), the rest as boxes; depth < 0 picks the first view the window
// shows (at most ~150 items).
std::string graphToSvgByModule(const ir::Graph& graph, const ir::GraphIndex& index, bool includeWeights, int depth,
                               const SvgOptions& options = {});

// "&amp;", "&lt;", "&gt;", "&quot;", "&apos;"
std::string xmlEscape(const std::string& text);

}  // namespace irscope::exporter
