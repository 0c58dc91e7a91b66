#pragma once
// The collapsed drawing: a graph drawn by module, as Model Explorer draws
// groups. A collapsed module is one box (kind, ops, weights); an expanded one
// is a frame around its children, laid out on its own. Values entering a
// frame from outside start at small "port" items inside its top edge.
//
// Each expanded module is one *level*: its direct ops (with their weights),
// its child modules as boxes, and ports. A level's items and edges never
// change (built once, cached); expanding a child only changes that child's
// box size, so the level is laid out again (small: one module's contents)
// and everything above it re-placed. A 100,000-node LLM opens with a few
// hundred items laid out instead of all of them.
//
// compose() flattens the levels into one LayoutResult in scene coordinates,
// so SVG export, the graph view, hit tests and the minimap draw it like any
// layout: a frame comes before the items inside it (drawn behind them).
//
// Weight bundles: when one op reads more than 8 weights whose names differ
// only in one index (an MoE `stack` of 384 experts), they are one item,
// "384 × layers.3.mlp.experts.{0..383}.up_proj.weight".
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/graph_index.h"
#include "core/layout/graph_to_layout.h"
#include "core/layout/layout.h"
#include "core/modules/module_level.h"
#include "core/modules/module_tree.h"

namespace irscope::modules {

struct DrawingOptions {
    layout::GraphLayoutOptions items;  // text widths, weights on or off
    layout::LayoutOptions layout;
    double framePadding = 12;  // inside a frame, around its contents
    double frameHeader = 22;   // room for the frame's title
    int bundleMinimum = 9;     // weights of one op sharing a pattern, from this many on, are one item
};

class ModuleDrawing {
public:
    // The graph, index and tree must outlive the drawing.
    ModuleDrawing(const ir::Graph& graph, const ir::GraphIndex& index, const ModuleTree& tree,
                  DrawingOptions options = {});
    ~ModuleDrawing();
    ModuleDrawing(const ModuleDrawing&) = delete;
    ModuleDrawing& operator=(const ModuleDrawing&) = delete;

    const ModuleTree& tree() const { return tree_; }
    const std::vector<std::string>& kinds() const { return kinds_; }

    // ---- expansion (the root is always expanded)
    bool isExpanded(ModuleId m) const { return expanded_[static_cast<size_t>(m)] != 0; }
    void setExpanded(ModuleId m, bool expanded);
    void expandAll();
    void collapseAll();
    // Expands every module of depth < depth (ModuleLists count as part of their parent).
    void expandToDepth(int depth);
    // The first view: one level of structure, the first depth at which two
    // modules show as boxes (wrappers of one child open on the way); a model
    // with no such level, the deepest cut whose visible items stay within
    // maxItems.
    void expandInitial(int maxItems = 150);
    // Expands every module on the way to the node's module; true if anything changed.
    bool reveal(int64_t node);
    // A higher-order op with subgraphs (region_drawing.h) drawn open, as a
    // frame around them, or as its op box. Open by default: a cond's
    // branches are what a reader wants to see.
    bool isRegionOpen(int64_t node) const;
    void setRegionOpen(int64_t node, bool open);
    // The deepest expanded-and-visible module drawn as a box for a node (the
    // node's own module when it is visible; else its collapsed ancestor).
    ModuleId visibleModuleOf(int64_t node) const;
    bool isNodeVisible(int64_t node) const;
    // Expanded, or a module of one op (always drawn as that op).
    bool isOpen(ModuleId m) const;
    // The module whose level draws a graph input (where its readers meet) or a
    // graph output (its producer's); the root for most models' inputs.
    ModuleId inputHome(int64_t input) const { return inputHome_[static_cast<size_t>(input)]; }
    ModuleId outputHome(int64_t output) const { return outputHome_[static_cast<size_t>(output)]; }

    // ---- drawing
    // Progress and cancellation for the next compose() calls (see layout::LayoutProgress).
    void setProgress(layout::LayoutProgress progress) { options_.layout.progress = std::move(progress); }
    // Lays out what changed since the last call and returns the whole picture.
    // Throws layout::LayoutCancelled when options.layout.progress says so.
    layout::LayoutResult compose();
    // Ops and collapsed boxes visible with the current expansion (no weights, ports or frames).
    int64_t visibleItems() const;

private:
    struct Level;
    Level& level(ModuleId m);
    LevelContext context() const;
    void layOut(ModuleId m);
    void invalidateUpward(ModuleId m);
    void appendLevel(ModuleId m, double dx, double dy, layout::LayoutResult& out);
    void shapeRegionItem(Level& lv, size_t item);
    const layout::LayoutResult& region(int64_t node);

    const ir::Graph& graph_;
    const ir::GraphIndex& index_;
    const ModuleTree& tree_;
    DrawingOptions options_;
    std::vector<std::string> kinds_;
    std::vector<char> expanded_;
    std::vector<ModuleId> inputHome_, outputHome_;
    std::vector<std::unique_ptr<Level>> levels_;  // by ModuleId, built on demand
    std::vector<char> regionClosed_;              // by node index
    // Laid out on first opening; the op box's own size and label, kept for closing.
    std::unordered_map<int64_t, layout::LayoutResult> regions_;
    std::unordered_map<int64_t, layout::LayoutNode> regionOpForm_;
};

}  // namespace irscope::modules
