#pragma once
// One expanded module's *level* of the collapsed drawing (module_drawing.h):
// the layout input made of its direct ops (with their weights, bundled when
// one op reads many of one pattern), its child modules as boxes, ports for
// values that enter from outside, and the graph inputs and outputs that live
// at this level. Depends on the tree and the graph only, never on which
// modules are open, so a level is built once and cached.
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/graph_index.h"
#include "core/layout/graph_to_layout.h"
#include "core/layout/layout_graph.h"
#include "core/modules/module_tree.h"

namespace irscope::modules {

struct DrawingOptions;

// What building a level reads (all owned by the ModuleDrawing).
struct LevelContext {
    const ir::Graph& graph;
    const ir::GraphIndex& index;
    const ModuleTree& tree;
    const std::vector<std::string>& kinds;
    const DrawingOptions& options;
    const std::vector<ModuleId>& inputHome;   // where each graph input is drawn
    const std::vector<ModuleId>& outputHome;  // where each graph output is drawn
};

// The items and edges of module m's level; itemModule[i] is the child module
// item i draws (kNoModule for ops, weights, ports, inputs and outputs).
void buildLevel(const LevelContext& context, ModuleId m, layout::LayoutGraph& out, std::vector<ModuleId>& itemModule);

// A closed module's label: its path, then "kind · N ops · M weights".
std::vector<std::string> collapsedLines(const LevelContext& context, ModuleId module);

// Sizes a box to its label lines (parallelograms and trapezoids a slant wider).
void sizeItem(layout::LayoutNode& node, const layout::GraphLayoutOptions& options);

// A module drawn as its op, never as a box: no submodules with ops, and one
// op besides getitems (a Linear; a BatchNorm and the getitem of its tuple).
bool isSingleOp(const ModuleTree& tree, const ir::Graph& graph, ModuleId m);

// "layers.3.mlp.experts.{0..383}.up_proj.weight" for names that differ in one
// dotted component; "" when they differ in more than one (no bundle).
std::string bundlePattern(const std::vector<std::string>& names);

}  // namespace irscope::modules
