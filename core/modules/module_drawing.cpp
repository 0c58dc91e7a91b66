#include "core/modules/module_drawing.h"

#include <algorithm>
#include <unordered_map>

#include "core/modules/frame_junctions.h"
#include "core/modules/module_kind.h"
#include "core/modules/region_drawing.h"

namespace irscope::modules {

using layout::ItemKind;
using layout::LayoutEdge;
using layout::LayoutGraph;
using layout::LayoutNode;
using layout::LayoutResult;

struct ModuleDrawing::Level {
    LayoutGraph graph;                 // items and edges: fixed once built
    std::vector<ModuleId> itemModule;  // item -> child module it draws (kNoModule: not a child)
    LayoutResult result;
    bool valid = false;
};

ModuleDrawing::ModuleDrawing(const ir::Graph& graph, const ir::GraphIndex& index, const ModuleTree& tree,
                             DrawingOptions options)
    : graph_(graph),
      index_(index),
      tree_(tree),
      options_(std::move(options)),
      kinds_(moduleKinds(tree, graph)),
      expanded_(tree.size(), 0),
      levels_(tree.size()),
      regionClosed_(graph.nodes.size(), 0) {
    expanded_[kRootModule] = 1;
    // Where graph inputs and outputs are drawn: the level of the module that
    // holds all their readers (or their producer). An LLM's per-layer KV cache
    // is drawn inside its layer, not as a row of 120 across the top.
    auto drawnLevel = [this](ModuleId m) {
        while (m != kRootModule && (tree_.module(m).isList || isSingleOp(tree_, graph_, m))) m = tree_.module(m).parent;
        return m;
    };
    inputHome_.assign(graph.graphInputs.size(), kRootModule);
    for (size_t g = 0; g < graph.graphInputs.size(); ++g) {
        ModuleId home = kNoModule;
        for (const auto& use : index.consumersOfGraphInput(static_cast<int64_t>(g)))
            home = tree.commonAncestor(home, tree.moduleOfNode(use.node));
        bool isOutput = false;
        for (const auto& out : graph.graphOutputs)
            isOutput |= out.name == graph.graphInputs[g].name && !index.producerOfTensor(out.name);
        inputHome_[g] = home == kNoModule || isOutput ? kRootModule : drawnLevel(home);
    }
    outputHome_.assign(graph.graphOutputs.size(), kRootModule);
    for (size_t o = 0; o < graph.graphOutputs.size(); ++o)
        if (auto p = index.producerOfTensor(graph.graphOutputs[o].name))
            outputHome_[o] = drawnLevel(tree.moduleOfNode(p->first));
    // Per-element inputs (a KV cache: every layer its own) stay in their
    // elements; the one input that only the first layer reads, or the output
    // only the last layer makes, is the model's and is drawn beside the list.
    auto liftLoneElements = [&](std::vector<ModuleId>& homes) {
        std::unordered_map<ModuleId, std::vector<ModuleId>> elementsOfList;
        auto elementOf = [&](ModuleId m) {
            for (; m > kRootModule; m = tree.module(m).parent)
                if (tree.module(tree.module(m).parent).isList) return m;
            return kNoModule;
        };
        for (ModuleId h : homes)
            if (ModuleId e = elementOf(h); e != kNoModule) {
                auto& v = elementsOfList[tree.module(e).parent];
                if (std::find(v.begin(), v.end(), e) == v.end()) v.push_back(e);
            }
        for (ModuleId& h : homes)
            if (ModuleId e = elementOf(h); e != kNoModule && elementsOfList[tree.module(e).parent].size() == 1)
                h = drawnLevel(tree.module(tree.module(e).parent).parent);
    };
    liftLoneElements(inputHome_);
    liftLoneElements(outputHome_);
}

ModuleDrawing::~ModuleDrawing() = default;

// ---------------------------------------------------------------- expansion

void ModuleDrawing::invalidateUpward(ModuleId m) {
    for (; m != kNoModule; m = tree_.module(m).parent)
        if (levels_[static_cast<size_t>(m)]) levels_[static_cast<size_t>(m)]->valid = false;
}

void ModuleDrawing::setExpanded(ModuleId m, bool expanded) {
    if (m == kRootModule || m < 0 || static_cast<size_t>(m) >= tree_.size()) return;
    if ((expanded_[static_cast<size_t>(m)] != 0) == expanded) return;
    expanded_[static_cast<size_t>(m)] = expanded ? 1 : 0;
    invalidateUpward(tree_.module(m).parent);
}

void ModuleDrawing::expandAll() {
    for (size_t m = 1; m < tree_.size(); ++m) setExpanded(static_cast<ModuleId>(m), true);
}

void ModuleDrawing::collapseAll() {
    for (size_t m = 1; m < tree_.size(); ++m) setExpanded(static_cast<ModuleId>(m), false);
}

namespace {

// Depth counted without ModuleLists: layers.3 is at depth 1 like embed_tokens.
std::vector<int> effectiveDepths(const ModuleTree& tree) {
    std::vector<int> d(tree.size(), 0);
    for (size_t m = 1; m < tree.size(); ++m) {
        const Module& mod = tree.module(static_cast<ModuleId>(m));
        const int parentDepth = d[static_cast<size_t>(mod.parent)];
        d[m] = mod.isList ? parentDepth : parentDepth + 1;
        if (tree.module(mod.parent).isList) d[m] = parentDepth + 1;
    }
    return d;
}

}  // namespace

void ModuleDrawing::expandToDepth(int depth) {
    const auto d = effectiveDepths(tree_);
    // Parents come before children: a list is open when its parent is.
    for (size_t m = 1; m < tree_.size(); ++m) {
        const Module& mod = tree_.module(static_cast<ModuleId>(m));
        const bool parentOpen = expanded_[static_cast<size_t>(mod.parent)] != 0;
        const bool open = parentOpen && (mod.isList || d[m] < depth);
        setExpanded(static_cast<ModuleId>(m), open);
    }
}

void ModuleDrawing::expandInitial(int maxItems) {
    const auto d = effectiveDepths(tree_);
    const int deepest = d.empty() ? 0 : *std::max_element(d.begin(), d.end());
    int chosen = 1;
    for (int depth = 1; depth <= deepest + 1; ++depth) {
        // Items visible with every module of effective depth < depth open:
        // the ops of open modules and the boxes of closed ones.
        std::vector<char> open(tree_.size(), 0);
        open[kRootModule] = 1;
        for (size_t m = 1; m < tree_.size(); ++m) {  // parents come first
            const Module& mod = tree_.module(static_cast<ModuleId>(m));
            open[m] = open[static_cast<size_t>(mod.parent)] &&
                      (mod.isList || d[m] < depth || isSingleOp(tree_, graph_, static_cast<ModuleId>(m)));
        }
        int64_t items = 0, boxes = 0;
        for (size_t m = 0; m < tree_.size(); ++m) {
            if (!open[m]) continue;
            const Module& mod = tree_.module(static_cast<ModuleId>(m));
            items += static_cast<int64_t>(mod.nodes.size());
            for (ModuleId c : mod.children)
                if (!open[static_cast<size_t>(c)] && tree_.module(c).opCount > 0) ++items, ++boxes;
        }
        if (depth > 1 && items > maxItems) break;
        chosen = depth;
        // One level of structure at a glance: the first depth that shows two
        // modules as boxes (the layers of a decoder, the stages of a CNN);
        // a wrapper with one child (model.model) opens on the way there.
        if (boxes >= 2) break;
    }
    expandToDepth(chosen);
}

bool ModuleDrawing::reveal(int64_t node) {
    bool changed = false;
    for (ModuleId m : tree_.pathFromRoot(tree_.moduleOfNode(node)))
        if (!isOpen(m)) {
            setExpanded(m, true);
            changed = true;
        }
    return changed;
}

bool ModuleDrawing::isRegionOpen(int64_t node) const {
    return node >= 0 && node < static_cast<int64_t>(graph_.nodes.size()) &&
           hasRegion(graph_.nodes[static_cast<size_t>(node)]) && regionClosed_[static_cast<size_t>(node)] == 0;
}

void ModuleDrawing::setRegionOpen(int64_t node, bool open) {
    if (node < 0 || node >= static_cast<int64_t>(graph_.nodes.size()) || !hasRegion(graph_.nodes[node])) return;
    if (isRegionOpen(node) == open) return;
    regionClosed_[static_cast<size_t>(node)] = open ? 0 : 1;
    // The level that draws the op: the one holding its item.
    for (size_t m = 0; m < levels_.size(); ++m) {
        if (!levels_[m]) continue;
        const auto& nodes = levels_[m]->graph.nodes;
        for (size_t i = 0; i < nodes.size(); ++i)
            if (levels_[m]->itemModule[i] == kNoModule && nodes[i].irIndex == node &&
                (nodes[i].kind == ItemKind::Op || nodes[i].kind == ItemKind::Region))
                invalidateUpward(static_cast<ModuleId>(m));
    }
}

// A module of one op is drawn as that op, open or not.
bool ModuleDrawing::isOpen(ModuleId m) const { return isExpanded(m) || isSingleOp(tree_, graph_, m); }

ModuleId ModuleDrawing::visibleModuleOf(int64_t node) const {
    const auto path = tree_.pathFromRoot(tree_.moduleOfNode(node));
    for (ModuleId m : path)
        if (!isOpen(m)) return m;
    return path.back();
}

bool ModuleDrawing::isNodeVisible(int64_t node) const {
    for (ModuleId m : tree_.pathFromRoot(tree_.moduleOfNode(node)))
        if (!isOpen(m)) return false;
    return true;
}

// ---------------------------------------------------------------- levels

LevelContext ModuleDrawing::context() const {
    return {graph_, index_, tree_, kinds_, options_, inputHome_, outputHome_};
}

ModuleDrawing::Level& ModuleDrawing::level(ModuleId m) {
    auto& slot = levels_[static_cast<size_t>(m)];
    if (!slot) {
        slot = std::make_unique<Level>();
        buildLevel(context(), m, slot->graph, slot->itemModule);
    }
    return *slot;
}

const LayoutResult& ModuleDrawing::region(int64_t node) {
    auto it = regions_.find(node);
    if (it == regions_.end())
        it = regions_.emplace(node, layOutRegion(graph_.nodes[static_cast<size_t>(node)], node, options_)).first;
    return it->second;
}

// An op with subgraphs: a Region frame as big as its subgraphs when open, its
// op box when closed.
void ModuleDrawing::shapeRegionItem(Level& lv, size_t item) {
    LayoutNode& node = lv.graph.nodes[item];
    const int64_t n = node.irIndex;
    if (isRegionOpen(n)) {
        if (node.kind == ItemKind::Region) return;
        regionOpForm_.emplace(n, node);
        const auto& b = region(n).bounds;
        node.kind = ItemKind::Region;
        node.width = b.width;
        node.height = b.height + options_.frameHeader;
        node.lines = {regionTitle(graph_.nodes[static_cast<size_t>(n)])};
        lv.valid = false;
    } else if (node.kind == ItemKind::Region) {
        node = regionOpForm_.at(n);
        lv.valid = false;
    }
}

void ModuleDrawing::layOut(ModuleId m) {
    Level& lv = level(m);
    // Children first: an open child's frame is as big as its own layout.
    for (size_t item = 0; item < lv.itemModule.size(); ++item) {
        const ModuleId c = lv.itemModule[item];
        if (c == kNoModule) {
            const auto kind = lv.graph.nodes[item].kind;
            const int64_t n = lv.graph.nodes[item].irIndex;
            if ((kind == ItemKind::Op || kind == ItemKind::Region) && n >= 0 &&
                n < static_cast<int64_t>(graph_.nodes.size()) && hasRegion(graph_.nodes[static_cast<size_t>(n)]))
                shapeRegionItem(lv, item);
            continue;
        }
        LayoutNode& node = lv.graph.nodes[item];
        const bool open = isExpanded(c) && tree_.module(c).opCount > 0;
        const ItemKind wanted = open ? ItemKind::Frame : ItemKind::Module;
        if (open) {
            layOut(c);
            const auto& b = level(c).result.bounds;
            if (node.kind != wanted || node.width != b.width || node.height != b.height + options_.frameHeader)
                lv.valid = false;
            node.width = b.width;
            node.height = b.height + options_.frameHeader;
            node.lines = {tree_.module(c).path + "  [" + kinds_[static_cast<size_t>(c)] + "]"};
        } else if (node.kind != wanted) {
            lv.valid = false;
            node.kind = wanted;
            node.lines = collapsedLines(context(), c);
            sizeItem(node, options_.items);
        }
        node.kind = wanted;
    }
    if (lv.valid) return;
    layout::LayoutOptions lo = options_.layout;
    lo.progress = {};
    if (m != kRootModule) lo.margin = options_.framePadding;
    if (options_.layout.progress && !options_.layout.progress(0.0, "modules")) throw layout::LayoutCancelled();
    lv.result = layout::computeLayout(lv.graph, lo);
    lv.valid = true;
}

void ModuleDrawing::appendLevel(ModuleId m, double dx, double dy, LayoutResult& out) {
    const LayoutResult& r = level(m).result;
    const ComposedRange here{static_cast<int32_t>(out.items.size()),
                             static_cast<int32_t>(out.items.size() + r.items.size()), out.edges.size(),
                             out.edges.size() + r.edges.size()};
    layout::appendMoved(r, dx, dy, out);
    for (size_t k = 0; k < r.items.size(); ++k) {
        const auto& it = r.items[k];
        if (it.kind == ItemKind::Region) {
            const LayoutResult& inside = region(it.irIndex);
            layout::appendMoved(inside, it.rect.x + dx - inside.bounds.x,
                                it.rect.y + dy + options_.frameHeader - inside.bounds.y, out);
            continue;
        }
        if (it.kind != ItemKind::Frame) continue;
        const LayoutResult& inner = level(static_cast<ModuleId>(it.irIndex)).result;
        const ComposedRange within{static_cast<int32_t>(out.items.size()),
                                   static_cast<int32_t>(out.items.size() + inner.items.size()), out.edges.size(),
                                   out.edges.size() + inner.edges.size()};
        appendLevel(static_cast<ModuleId>(it.irIndex), it.rect.x + dx - inner.bounds.x,
                    it.rect.y + dy + options_.frameHeader - inner.bounds.y, out);
        joinFramePorts(tree_, here.itemsBegin + static_cast<int32_t>(k), here, within, out);
    }
}

LayoutResult ModuleDrawing::compose() {
    layOut(kRootModule);
    LayoutResult out;
    const LayoutResult& root = level(kRootModule).result;
    appendLevel(kRootModule, 0, 0, out);
    out.bounds = root.bounds;
    out.layerTop = root.layerTop;
    out.layerBottom = root.layerBottom;
    out.stats.layers = root.stats.layers;
    if (options_.layout.progress) options_.layout.progress(1.0, "done");
    return out;
}

int64_t ModuleDrawing::visibleItems() const {
    int64_t count = 0;
    std::vector<ModuleId> stack{kRootModule};
    while (!stack.empty()) {
        const ModuleId m = stack.back();
        stack.pop_back();
        const Module& mod = tree_.module(m);
        count += static_cast<int64_t>(mod.nodes.size());
        for (ModuleId c : mod.children) {
            if (tree_.module(c).opCount == 0) continue;
            if (isOpen(c))
                stack.push_back(c);
            else
                ++count;
        }
    }
    return count;
}

}  // namespace irscope::modules
