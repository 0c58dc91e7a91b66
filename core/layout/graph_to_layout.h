#pragma once
// Builds the layout input for a torch_ir graph, following torch_ir's own
// drawing (docs/ir-format.md §6): one item per graph input, op and graph
// output, and one weight item per *use* of a weight (a p_/b_/c_ placeholder
// read by two nodes is drawn twice, each copy just above its consumer).
//
// Item order: graph inputs, ops (execution order), weight uses (by consumer,
// then input), outputs. Box sizes come from a text-width callback so the GUI
// can measure with its real font; the default estimate needs no Qt.
#include <functional>
#include <string_view>

#include "core/ir/graph.h"
#include "core/ir/graph_index.h"
#include "core/layout/layout_graph.h"

namespace irscope::layout {

// 7.2 px per character (12 px monospace), counting UTF-8 code points.
double defaultTextWidth(std::string_view line);

struct GraphLayoutOptions {
    bool includeWeights = true;                              // false: like --no-weights
    std::function<double(std::string_view line)> textWidth;  // empty: defaultTextWidth
    double lineHeight = 15;
    double paddingX = 10;
    double paddingY = 6;
    double slant = 10;  // extra width for parallelograms (inputs, weights) and trapezoids (outputs)
    double minWidth = 44;
};

LayoutGraph buildLayoutGraph(const ir::Graph& graph, const ir::GraphIndex& index,
                             const GraphLayoutOptions& options = {});

// The op's first label line: its short name, except that a getitem reads
// "getitem [i]" (the selected output) instead of the Python repr
// "<built-in function getitem>" that op_type carries; "getitem" alone when
// the index attr is missing or not an integer (validation reports that).
std::string opLabel(const ir::OpNode& node);

// Item kind of a weight placeholder as the index classifies it.
ItemKind weightItemKind(ir::TensorKind kind);

}  // namespace irscope::layout
