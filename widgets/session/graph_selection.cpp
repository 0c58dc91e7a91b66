#include "widgets/session/graph_selection.h"

#include "core/ir/execution_position.h"

#include <algorithm>

#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

using layout::ItemKind;

namespace {

// Case-insensitive substring test; `needle` is already lower case ASCII/UTF-8.
bool containsCaseless(const std::string& hay, const std::string& needle) {
    if (needle.empty()) return false;
    if (hay.size() < needle.size()) return false;
    const size_t last = hay.size() - needle.size();
    for (size_t i = 0; i <= last; ++i) {
        size_t k = 0;
        while (k < needle.size() &&
               std::tolower(static_cast<unsigned char>(hay[i + k])) == static_cast<unsigned char>(needle[k]))
            ++k;
        if (k == needle.size()) return true;
    }
    return false;
}

}  // namespace

GraphSelection::GraphSelection(GraphSession& session) : QObject(&session), s_(session) {}

void GraphSelection::documentChanged() {
    selection_ = {};
    runCursor_ = -1;
    highlight_.clear();
    marked_.clear();
    recomputeFlags();
}

void GraphSelection::layoutChanged() {
    if (selection_.kind == RefKind::Weight && !s_.showWeights()) {
        selection_ = {};
        emit selectionChanged(selection_);
    }
    recomputeFlags();
}

void GraphSelection::select(const ItemRef& ref, bool focus) {
    // Selecting a node hidden in a collapsed module opens the modules around it.
    if (s_.drawing() && ref.isNode() && ref.index >= 0 &&
        ref.index < static_cast<int64_t>(s_.document()->graph.nodes.size()) && s_.drawing()->reveal(ref.index))
        s_.relayoutModulesNow();
    // A weight drawn only inside closed modules (a layer's q_proj in a
    // collapsed decoder) opens the way to the first node that reads it, where
    // its parallelogram is drawn.
    if (s_.drawing() && ref.kind == RefKind::Weight && s_.layout() && !s_.layout()->weightItems.contains(ref.name)) {
        const auto weight = ref.index >= 0 ? std::optional<int64_t>(ref.index)
                                           : s_.document()->index->weightIndex(ref.name.toStdString());
        if (weight && *weight >= 0 && *weight < static_cast<int64_t>(s_.document()->graph.weights.size())) {
            const auto& uses = s_.document()->index->usesOfWeight(*weight);
            if (!uses.empty() && s_.drawing()->reveal(uses.front().node)) s_.relayoutModulesNow();
        }
    }
    // A module opens the way to itself; a graph input or output drawn inside a
    // module (a layer's KV cache) opens the way to its level.
    modules::ModuleId openTo = modules::kNoModule;
    if (s_.drawing() && ref.isModule() && ref.index > 0 &&
        ref.index < static_cast<int64_t>(s_.drawing()->tree().size()))
        openTo = s_.drawing()->tree().module(static_cast<modules::ModuleId>(ref.index)).parent;
    if (s_.drawing() && ref.kind == RefKind::GraphInput && ref.index >= 0 &&
        ref.index < static_cast<int64_t>(s_.document()->graph.graphInputs.size()))
        openTo = s_.drawing()->inputHome(ref.index);
    if (s_.drawing() && ref.kind == RefKind::Output && ref.index >= 0 &&
        ref.index < static_cast<int64_t>(s_.document()->graph.graphOutputs.size()))
        openTo = s_.drawing()->outputHome(ref.index);
    if (openTo != modules::kNoModule) {
        bool changed = false;
        for (auto m : s_.drawing()->tree().pathFromRoot(openTo))
            if (!s_.drawing()->isExpanded(m)) s_.drawing()->setExpanded(m, true), changed = true;
        if (changed) s_.relayoutModulesNow();
    }
    if (ref != selection_) {
        selection_ = ref;  // looking at a node never moves the run: the debugger owns the cursor
        recomputeFlags();
        emit selectionChanged(selection_);
    }
    if (focus && !ref.isNone()) emit focusRequested(ref);
}

bool GraphSelection::selectNodeByName(const QString& name, bool focus) {
    if (!s_.document()) return false;
    const std::string n = name.toStdString();
    // A position inside subgraphs (cond/true_graph_0/mul), at any depth:
    // the node in its subgraph (a call named in it is not a place in the drawing).
    if (name.contains(QLatin1Char('/'))) {
        std::string why;
        const auto p = ir::parsePosition(n, why);
        const auto at = p ? ir::resolvePosition(s_.document()->graph, *p, why) : std::nullopt;
        if (!at) return false;
        if (at->frames.empty()) {
            select(ItemRef::node(at->node), focus);
            return true;
        }
        std::string path;
        for (const auto& step : p->frames) {
            if (!path.empty()) path += '/';
            path += step.node + "/" + step.subgraph;
        }
        select(ItemRef::subgraphNode(at->frames[0].node, path, at->node, QString::fromStdString(p->node)), focus);
        return true;
    }
    if (auto i = s_.document()->index->nodeIndex(n)) {
        select(ItemRef::node(*i, name), focus);
        return true;
    }
    if (auto i = s_.document()->index->graphInputIndex(n)) {
        select(ItemRef::graphInput(*i, name), focus);
        return true;
    }
    for (const auto& [placeholder, original] : s_.document()->graph.weightNameMapping)
        if (placeholder == n || original == n) {
            select(ItemRef::weight(QString::fromStdString(placeholder),
                                   s_.document()->index->weightIndex(placeholder).value_or(-1)),
                   focus);
            return true;
        }
    return false;
}

void GraphSelection::setSubgraphFrames(std::vector<exec::SubgraphFrame> frames,
                                       std::map<std::string, int64_t> callCounts) {
    if (frames == frames_ && callCounts == callCounts_) return;
    frames_ = std::move(frames);
    callCounts_ = std::move(callCounts);
    emit runCursorChanged(runCursor_);
}

void GraphSelection::setSubgraphBreakpoints(std::vector<exec::SubgraphBreakpoint> breakpoints) {
    if (breakpoints == subgraphBreakpoints_) return;
    subgraphBreakpoints_ = std::move(breakpoints);
    s_.decorations()->redraw();
}

bool GraphSelection::hasSubgraphBreakpoint(const std::string& subgraph, int64_t inner) const {
    const exec::SubgraphBreakpoint b{subgraph, inner};
    return std::find(subgraphBreakpoints_.begin(), subgraphBreakpoints_.end(), b) != subgraphBreakpoints_.end();
}

void GraphSelection::announceAll() {
    emit selectionChanged(selection_);
    emit runCursorChanged(runCursor_);
    emit highlightChanged();
}

void GraphSelection::setRunCursor(int64_t node) {
    if (node == runCursor_) return;
    runCursor_ = node;
    recomputeFlags();
    emit runCursorChanged(node);
}

bool GraphSelection::walk(bool up) {
    if (!s_.layout() || selection_.isNone()) return false;
    const auto items = s_.layout()->itemsOf(selection_);
    if (items.empty()) return false;
    const auto& r = s_.layout()->result;
    // Also the edges of the selection's ghost proxies.
    std::vector<int32_t> selfItems = items;
    for (size_t i = 0; i < r.items.size(); ++i)
        if (r.items[i].kind == ItemKind::Ghost &&
            std::find(items.begin(), items.end(), r.items[i].ghostOf) != items.end())
            selfItems.push_back(static_cast<int32_t>(i));
    int32_t best = -1;
    int64_t bestKey = INT64_MAX;
    for (int32_t item : selfItems) {
        for (int32_t k = s_.layout()->itemEdgeOffset[item]; k < s_.layout()->itemEdgeOffset[item + 1]; ++k) {
            const auto& e = r.edges[s_.layout()->itemEdges[k]];
            int32_t other = -1;
            int64_t key = 0;
            if (up && e.target == item) {
                other = e.source;
                // Prefer the data path (solid edges, lowest input) over weights.
                key = (e.style == layout::EdgeStyle::Solid ? 0 : 1'000'000) + std::max<int64_t>(e.targetInput, 0);
            } else if (!up && e.source == item) {
                other = e.target;
                key = static_cast<int64_t>(r.items[e.target].layer) * 1'000'000 +
                      static_cast<int64_t>(r.items[e.target].rect.x);
            }
            if (other >= 0 && key < bestKey) {
                bestKey = key;
                best = other;
            }
        }
    }
    if (best < 0) return false;
    const ItemRef ref = s_.layout()->refOf(best);
    if (ref.isNone()) return false;
    select(ref, true);
    return true;
}

bool GraphSelection::walkToProducer() { return walk(true); }
bool GraphSelection::walkToConsumer() { return walk(false); }

void GraphSelection::setMarked(std::vector<int64_t> nodes) {
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    const int64_t n = s_.document() ? static_cast<int64_t>(s_.document()->graph.nodes.size()) : 0;
    nodes.erase(std::remove_if(nodes.begin(), nodes.end(), [n](int64_t i) { return i < 0 || i >= n; }), nodes.end());
    if (nodes == marked_) return;
    marked_ = std::move(nodes);
    recomputeFlags();
    emit markedChanged();
    emit highlightChanged();  // the view repaints
}

void GraphSelection::toggleMarked(int64_t node) {
    std::vector<int64_t> next = marked_;
    auto it = std::lower_bound(next.begin(), next.end(), node);
    if (it != next.end() && *it == node)
        next.erase(it);
    else
        next.insert(it, node);
    setMarked(std::move(next));
}

void GraphSelection::setHighlight(std::vector<ItemRef> refs) {
    highlight_ = std::move(refs);
    s_.decorations()->modulesChanged();
    recomputeFlags();
    emit highlightChanged();
}

std::vector<ItemRef> GraphSelection::find(const QString& text) const {
    std::vector<ItemRef> out;
    if (!s_.document()) return out;
    const std::string needle = text.trimmed().toLower().toStdString();
    if (needle.empty()) return out;
    const auto& g = s_.document()->graph;
    for (size_t i = 0; i < g.graphInputs.size(); ++i)
        if (containsCaseless(g.graphInputs[i].name, needle))
            out.push_back(ItemRef::graphInput(static_cast<int64_t>(i), QString::fromStdString(g.graphInputs[i].name)));
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const auto& n = g.nodes[i];
        bool hit = containsCaseless(n.name, needle) || containsCaseless(n.opType, needle);
        for (size_t k = 0; !hit && k < n.outputs.size(); ++k) hit = containsCaseless(n.outputs[k].name, needle);
        if (hit) out.push_back(ItemRef::node(static_cast<int64_t>(i), QString::fromStdString(n.name)));
    }
    if (s_.showWeights()) {
        for (const auto& [placeholder, original] : g.weightNameMapping)
            if (containsCaseless(placeholder, needle) || containsCaseless(original, needle))
                out.push_back(ItemRef::weight(QString::fromStdString(placeholder),
                                              s_.document()->index->weightIndex(placeholder).value_or(-1)));
    }
    if (const auto* tree = s_.moduleTree())
        for (size_t m = 1; m < tree->size(); ++m) {
            const auto& mod = tree->module(static_cast<modules::ModuleId>(m));
            if (mod.opCount > 1 && containsCaseless(mod.path, needle))
                out.push_back(ItemRef::module(static_cast<int64_t>(m), QString::fromStdString(mod.path)));
        }
    for (size_t i = 0; i < g.graphOutputs.size(); ++i)
        if (containsCaseless(g.graphOutputs[i].name, needle) &&
            !s_.document()->index->producerOfTensor(g.graphOutputs[i].name))
            out.push_back(ItemRef::output(static_cast<int64_t>(i), QString::fromStdString(g.graphOutputs[i].name)));
    return out;
}

std::vector<ItemRef> GraphSelection::nodesOfOpType(const QString& opType) const {
    std::vector<ItemRef> out;
    if (!s_.document()) return out;
    const std::string t = opType.toStdString();
    for (size_t i = 0; i < s_.document()->graph.nodes.size(); ++i)
        if (s_.document()->graph.nodes[i].opType == t)
            out.push_back(
                ItemRef::node(static_cast<int64_t>(i), QString::fromStdString(s_.document()->graph.nodes[i].name)));
    return out;
}

void GraphSelection::recomputeFlags() {
    itemFlags_.clear();
    edgeFlags_.clear();
    if (!s_.layout()) return;
    const auto& r = s_.layout()->result;
    itemFlags_.assign(r.items.size(), 0);
    edgeFlags_.assign(r.edges.size(), 0);
    auto mark = [&](int32_t item, uint8_t flag) {
        if (item < 0 || item >= static_cast<int32_t>(itemFlags_.size())) return;
        itemFlags_[item] |= flag;
    };
    // Ghost proxies share their source's flags.
    auto withGhosts = [&](const std::vector<int32_t>& items) {
        std::vector<int32_t> all = items;
        for (size_t i = 0; i < r.items.size(); ++i)
            if (r.items[i].kind == ItemKind::Ghost &&
                std::find(items.begin(), items.end(), r.items[i].ghostOf) != items.end())
                all.push_back(static_cast<int32_t>(i));
        return all;
    };
    auto realItem = [&](int32_t item) {
        return r.items[item].kind == ItemKind::Ghost && r.items[item].ghostOf >= 0 ? r.items[item].ghostOf : item;
    };

    for (const auto& ref : highlight_)
        for (int32_t item : s_.layout()->itemsOf(ref)) mark(item, kFlagHighlighted);
    for (int64_t node : marked_)
        for (int32_t item : s_.layout()->itemsOf(ItemRef::node(node))) mark(item, kFlagMarked);

    if (!selection_.isNone()) {
        const auto selected = withGhosts(s_.layout()->itemsOf(selection_));
        for (int32_t item : selected) {
            mark(item, kFlagSelected);
            for (int32_t k = s_.layout()->itemEdgeOffset[item]; k < s_.layout()->itemEdgeOffset[item + 1]; ++k) {
                const int32_t e = s_.layout()->itemEdges[k];
                const auto& edge = r.edges[e];
                if (edge.target == item) {
                    edgeFlags_[e] |= kEdgeIntoSelection;
                    mark(edge.source, kFlagProducer);
                    mark(realItem(edge.source), kFlagProducer);
                }
                if (edge.source == item) {
                    edgeFlags_[e] |= kEdgeOutOfSelection;
                    mark(edge.target, kFlagConsumer);
                }
            }
        }
    }
    if (runCursor_ >= 0)
        for (int32_t item : s_.layout()->itemsOf(ItemRef::node(runCursor_))) mark(item, kFlagRunCursor);
}

}  // namespace irscope::widgets
