#include "widgets/session/graph_session.h"

#include "widgets/session/graph_decorations.h"

#include "widgets/session/off_thread_release.h"

#include <algorithm>
#include <cctype>

#include "core/ir/json_io.h"
#include "core/ir/same_model.h"
#include "core/modules/region_drawing.h"
#include "widgets/common/document_path.h"

namespace irscope::widgets {

using layout::ItemKind;

namespace {

// The worker's two kinds of job: each newer one supersedes the older.
const QString kLoadTag = QStringLiteral("load");
const QString kLayoutTag = QStringLiteral("layout");

// A drawing of `doc` that keeps the document alive as long as it lives.
std::shared_ptr<modules::ModuleDrawing> makeDrawing(const std::shared_ptr<LoadedDocument>& doc, bool weights,
                                                    const layout::LayoutProgress& progress = {}) {
    return makeReleasedOffThread(
        new modules::ModuleDrawing(doc->graph, *doc->index, *doc->modules, drawingOptions(weights, progress)), doc);
}

// Case-insensitive substring test; `needle` is already lower case ASCII/UTF-8.
bool containsCI(const std::string& hay, const std::string& needle) {
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

GraphSession::GraphSession(QObject* parent)
    : QObject(parent), lane_(new TaskQueue(QThread::LowPriority, this)), decorations_(new GraphDecorations(*this)) {
    qRegisterMetaType<ItemRef>("irscope::widgets::ItemRef");
}

GraphSession::~GraphSession() {
    // A load's layout stops at its next progress report; a relayout runs to
    // the end. Wait for the worker so that none outlives us.
    delete lane_;  // drops what waits, finishes what runs
}

void GraphSession::openFile(const QString& path) {
    const bool weights = showWeights_;
    const bool grouped = groupByModule_;
    loading_ = true;
    emit loadStarted(path);
    // A newer open replaces one still waiting and stops one running (its result is dropped).
    lane_->post(kLoadTag, this, [this, path, weights, grouped, prepare = preparation_](const TaskQueue::Context& ctx) {
        return loadInBackground(ctx, path, weights, grouped, prepare);
    });
}

// On the worker: parse, index, validate, lay out; progress and the outcome go
// to the UI thread through `ctx` (dropped once a newer open or a cancel came).
TaskQueue::Continuation GraphSession::loadInBackground(const TaskQueue::Context& ctx, const QString& path, bool weights,
                                                       bool grouped, const Preparation& prepare) {
    auto progress = [this, &ctx](int percent, const QString& stage) {
        ctx.deliver([this, percent, stage] { emit loadProgress(percent, stage); });
    };
    QString error;
    bool cancelled = false;
    try {
        auto doc = loadDocument(path, ctx.droppedFlag(), progress);
        progress(70, QStringLiteral("Laying out"));
        // 70-99% while laying out; stops (LayoutCancelled) once cancelled or superseded.
        int shown = 70;
        auto report = [&](double fraction, const char*) {
            if (ctx.isDropped()) return false;
            const int percent = 70 + static_cast<int>(fraction * 29);
            if (percent > shown) {
                shown = percent;
                progress(percent, QStringLiteral("Laying out"));
            }
            return true;
        };
        std::shared_ptr<DocumentLayout> lay;
        std::shared_ptr<modules::ModuleDrawing> drawing;
        if (grouped) {
            // The first view: collapsed to at most ~150 items; the rest is laid out on demand.
            drawing = makeDrawing(doc, weights, report);
            drawing->expandInitial();
            lay = layoutByModule(*doc, *drawing);
            drawing->setProgress({});  // `report` lives on this worker's stack only
        } else {
            lay = layoutDocument(*doc, weights, report);
        }
        if (ctx.isDropped()) throw ir::LoadCancelled();
        std::shared_ptr<void> prepared = prepare ? prepare(doc) : nullptr;
        if (ctx.isDropped()) throw ir::LoadCancelled();
        return [this, doc, lay, drawing, prepared] {
            prepared_ = prepared;
            finishLoad(doc, lay, drawing);
        };
    } catch (const ir::LoadCancelled&) {
        cancelled = true;
    } catch (const layout::LayoutCancelled&) {
        cancelled = true;
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }
    return [this, path, error, cancelled] {
        loading_ = false;
        if (cancelled)
            emit loadCancelled(path);
        else
            emit loadFailed(path, error);
    };
}

void GraphSession::reload() {
    if (doc_) openFile(doc_->path);
}

void GraphSession::setPreparation(Preparation prepare) { preparation_ = std::move(prepare); }

std::shared_ptr<void> GraphSession::takePrepared() { return std::exchange(prepared_, nullptr); }

void GraphSession::closeDocument() {
    cancelLoad();
    lane_->dropAll();  // a relayout of the closed document is stale
    if (doc_) setDocument(nullptr, nullptr, nullptr);
}

void GraphSession::cancelLoad() {
    if (!loading_) return;
    // The worker notices between stages; its result is dropped whenever it comes.
    lane_->dropTag(kLoadTag);
    loading_ = false;
    emit loadCancelled(QString());
}

void GraphSession::finishLoad(std::shared_ptr<LoadedDocument> doc, std::shared_ptr<DocumentLayout> layout,
                              std::shared_ptr<modules::ModuleDrawing> drawing) {
    loading_ = false;
    setDocument(std::move(doc), std::move(layout), std::move(drawing));
}

void GraphSession::setDocument(std::shared_ptr<LoadedDocument> doc, std::shared_ptr<DocumentLayout> layout,
                               std::shared_ptr<modules::ModuleDrawing> drawing) {
    // Decided once, here, for every panel: what the user set up for the
    // previous document (filters, queries, files, breakpoints) carries over to
    // the same model (the same file again, a new export of it, its meta twin:
    // ir/same_model.h); another model starts clean.
    sameModelAsBefore_ = doc_ && doc &&
                         (canonicalDocumentPath(doc_->path) == canonicalDocumentPath(doc->path) ||
                          ir::isSameModel(doc_->graph, doc->graph));
    doc_ = std::move(doc);
    layout_ = std::move(layout);
    drawing_ = std::move(drawing);
    decorations_->documentChanged();
    lane_->dropTag(kLayoutTag);  // a relayout of the previous document is stale
    if (layout_ && !drawing_) showWeights_ = layout_->includeWeights;
    if (layout_ && groupByModule_ != layout_->byModule) {
        groupByModule_ = layout_->byModule;
        emit groupByModuleChanged(groupByModule_);
    }
    selection_ = {};
    runCursor_ = -1;
    highlight_.clear();
    marked_.clear();
    recomputeFlags();
    emit graphLoaded();
    prepared_.reset();  // taken by whoever needed it, or not needed
    emit selectionChanged(selection_);
    emit runCursorChanged(runCursor_);
    emit highlightChanged();
}

void GraphSession::setShowWeights(bool show) {
    if (show == showWeights_) return;
    showWeights_ = show;
    emit showWeightsChanged(show);
    if (!doc_) return;
    relayoutInBackground({});
}

void GraphSession::setGroupByModule(bool grouped) {
    if (grouped == groupByModule_) return;
    groupByModule_ = grouped;
    emit groupByModuleChanged(grouped);
    if (!doc_) return;
    relayoutInBackground([](modules::ModuleDrawing& d) { d.expandInitial(); });
}

// Lays the document out on a worker: flat, or by module with a fresh drawing
// that copies the current expansion, then `configure` changes it.
void GraphSession::relayoutInBackground(std::function<void(modules::ModuleDrawing&)> configure) {
    auto doc = doc_;
    const bool show = showWeights_, grouped = groupByModule_ && doc_->modules;
    std::vector<char> expansion;
    if (drawing_)
        for (size_t m = 0; m < drawing_->tree().size(); ++m)
            expansion.push_back(drawing_->isExpanded(static_cast<modules::ModuleId>(m)) ? 1 : 0);
    emit layoutBusy(true);
    // A newer relayout supersedes this one (its result is dropped).
    lane_->post(kLayoutTag, this,
                [this, doc, show, grouped, expansion, configure](const TaskQueue::Context&) -> TaskQueue::Continuation {
                    std::shared_ptr<DocumentLayout> lay;
                    std::shared_ptr<modules::ModuleDrawing> drawing;
                    if (grouped) {
                        drawing = makeDrawing(doc, show);
                        if (expansion.empty()) drawing->expandInitial();
                        for (size_t m = 1; m < expansion.size(); ++m)
                            drawing->setExpanded(static_cast<modules::ModuleId>(m), expansion[m] != 0);
                        if (configure) configure(*drawing);
                        lay = layoutByModule(*doc, *drawing);
                    } else {
                        lay = layoutDocument(*doc, show);
                    }
                    return [this, lay, doc, drawing] {
                        if (doc != doc_) return;
                        drawing_ = drawing;
                        installLayout(lay);
                        emit layoutBusy(false);
                    };
                });
}

void GraphSession::installLayout(std::shared_ptr<DocumentLayout> layout) {
    layout_ = std::move(layout);
    decorations_->modulesChanged();
    // A hidden weight cannot stay selected.
    if (selection_.kind == RefKind::Weight && !showWeights_) {
        selection_ = {};
        emit selectionChanged(selection_);
    }
    recomputeFlags();
    emit layoutChanged();
}

bool GraphSession::isModuleExpanded(int64_t module) const {
    return drawing_ && module >= 0 && module < static_cast<int64_t>(drawing_->tree().size()) &&
           drawing_->isExpanded(static_cast<modules::ModuleId>(module));
}

void GraphSession::setModuleExpanded(int64_t module, bool expanded) {
    if (!drawing_ || module <= 0 || module >= static_cast<int64_t>(drawing_->tree().size())) return;
    if (drawing_->isExpanded(static_cast<modules::ModuleId>(module)) == expanded) return;
    emit moduleToggling(module);
    drawing_->setExpanded(static_cast<modules::ModuleId>(module), expanded);
    relayoutModulesNow();
}

bool GraphSession::hasRegion(int64_t node) const {
    return drawing_ && doc_ && node >= 0 && node < static_cast<int64_t>(doc_->graph.nodes.size()) &&
           modules::hasRegion(doc_->graph.nodes[static_cast<size_t>(node)]);
}

bool GraphSession::isRegionOpen(int64_t node) const { return drawing_ && drawing_->isRegionOpen(node); }

void GraphSession::setRegionOpen(int64_t node, bool open) {
    if (!hasRegion(node) || drawing_->isRegionOpen(node) == open) return;
    drawing_->setRegionOpen(node, open);
    relayoutModulesNow();
}

void GraphSession::relayoutModulesNow() {
    lane_->dropTag(kLayoutTag);  // a background relayout still running is now stale
    installLayout(layoutByModule(*doc_, *drawing_));
}

void GraphSession::expandModulesToDepth(int depth) {
    if (!drawing_) return;
    relayoutInBackground([depth](modules::ModuleDrawing& d) {
        if (depth < 0)
            d.expandInitial();
        else
            d.expandToDepth(depth);
    });
}

void GraphSession::expandAllModules() {
    if (!drawing_) return;
    relayoutInBackground([](modules::ModuleDrawing& d) { d.expandAll(); });
}

int64_t GraphSession::closedModuleOf(int64_t node) const {
    if (!drawing_ || node < 0 || node >= static_cast<int64_t>(drawing_->tree().nodeModules().size())) return -1;
    const auto m = drawing_->visibleModuleOf(node);
    return drawing_->isOpen(m) ? -1 : m;
}

int64_t GraphSession::enclosingModuleOf(int64_t node) const {
    const auto* tree = moduleTree();
    if (!tree || !doc_ || node < 0 || node >= static_cast<int64_t>(tree->nodeModules().size())) return 0;
    auto m = tree->moduleOfNode(node);
    while (m > 0 && (tree->module(m).isList || modules::isSingleOp(*tree, doc_->graph, m))) m = tree->module(m).parent;
    return m;
}

int64_t GraphSession::frameModuleOf(int64_t node) const {
    const auto* tree = moduleTree();
    if (!tree || node < 0 || node >= static_cast<int64_t>(tree->nodeModules().size())) return 0;
    auto m = tree->moduleOfNode(node);
    while (m > 0 && tree->module(m).isList) m = tree->module(m).parent;
    return m;
}

int64_t GraphSession::moduleOf(const ItemRef& ref) const {
    const auto* tree = moduleTree();
    if (!tree) return -1;
    if (ref.isModule()) return ref.index;
    if (ref.isNode() && ref.index >= 0 && ref.index < static_cast<int64_t>(tree->nodeModules().size()))
        return tree->moduleOfNode(ref.index);
    return -1;
}

void GraphSession::select(const ItemRef& ref, bool focus) {
    // Selecting a node hidden in a collapsed module opens the modules around it.
    if (drawing_ && ref.isNode() && ref.index >= 0 && ref.index < static_cast<int64_t>(doc_->graph.nodes.size()) &&
        drawing_->reveal(ref.index))
        relayoutModulesNow();
    // A weight drawn only inside closed modules (a layer's q_proj in a
    // collapsed decoder) opens the way to the first node that reads it, where
    // its parallelogram is drawn.
    if (drawing_ && ref.kind == RefKind::Weight && layout_ && !layout_->weightItems.contains(ref.name)) {
        const auto weight =
            ref.index >= 0 ? std::optional<int64_t>(ref.index) : doc_->index->weightIndex(ref.name.toStdString());
        if (weight && *weight >= 0 && *weight < static_cast<int64_t>(doc_->graph.weights.size())) {
            const auto& uses = doc_->index->usesOfWeight(*weight);
            if (!uses.empty() && drawing_->reveal(uses.front().node)) relayoutModulesNow();
        }
    }
    // A module opens the way to itself; a graph input or output drawn inside a
    // module (a layer's KV cache) opens the way to its level.
    modules::ModuleId openTo = modules::kNoModule;
    if (drawing_ && ref.isModule() && ref.index > 0 && ref.index < static_cast<int64_t>(drawing_->tree().size()))
        openTo = drawing_->tree().module(static_cast<modules::ModuleId>(ref.index)).parent;
    if (drawing_ && ref.kind == RefKind::GraphInput && ref.index >= 0 &&
        ref.index < static_cast<int64_t>(doc_->graph.graphInputs.size()))
        openTo = drawing_->inputHome(ref.index);
    if (drawing_ && ref.kind == RefKind::Output && ref.index >= 0 &&
        ref.index < static_cast<int64_t>(doc_->graph.graphOutputs.size()))
        openTo = drawing_->outputHome(ref.index);
    if (openTo != modules::kNoModule) {
        bool changed = false;
        for (auto m : drawing_->tree().pathFromRoot(openTo))
            if (!drawing_->isExpanded(m)) drawing_->setExpanded(m, true), changed = true;
        if (changed) relayoutModulesNow();
    }
    if (ref != selection_) {
        selection_ = ref;
        if (ref.isNode()) setRunCursor(ref.index);
        recomputeFlags();
        emit selectionChanged(selection_);
    }
    if (focus && !ref.isNone()) emit focusRequested(ref);
}

bool GraphSession::selectNodeByName(const QString& name, bool focus) {
    if (!doc_) return false;
    const std::string n = name.toStdString();
    if (auto i = doc_->index->nodeIndex(n)) {
        select(ItemRef::node(*i, name), focus);
        return true;
    }
    if (auto i = doc_->index->graphInputIndex(n)) {
        select(ItemRef::graphInput(*i, name), focus);
        return true;
    }
    for (const auto& [placeholder, original] : doc_->graph.weightNameMapping)
        if (placeholder == n || original == n) {
            select(ItemRef::weight(QString::fromStdString(placeholder),
                                   doc_->index->weightIndex(placeholder).value_or(-1)),
                   focus);
            return true;
        }
    return false;
}

void GraphSession::setSubgraphFrame(std::optional<exec::SubgraphFrame> frame) {
    if (frame == frame_) return;
    frame_ = frame;
    emit runCursorChanged(runCursor_);
}

void GraphSession::setSubgraphBreakpoints(std::vector<exec::SubgraphBreakpoint> breakpoints) {
    if (breakpoints == subgraphBreakpoints_) return;
    subgraphBreakpoints_ = std::move(breakpoints);
    emit decorations_->decorationsChanged();
}

bool GraphSession::hasSubgraphBreakpoint(int64_t node, int32_t subgraph, int64_t inner) const {
    const exec::SubgraphBreakpoint b{node, subgraph, inner};
    return std::find(subgraphBreakpoints_.begin(), subgraphBreakpoints_.end(), b) != subgraphBreakpoints_.end();
}

void GraphSession::setRunCursor(int64_t node) {
    if (node == runCursor_) return;
    runCursor_ = node;
    recomputeFlags();
    emit runCursorChanged(node);
}

bool GraphSession::walk(bool up) {
    if (!layout_ || selection_.isNone()) return false;
    const auto items = layout_->itemsOf(selection_);
    if (items.empty()) return false;
    const auto& r = layout_->result;
    // Also the edges of the selection's ghost proxies.
    std::vector<int32_t> selfItems = items;
    for (size_t i = 0; i < r.items.size(); ++i)
        if (r.items[i].kind == ItemKind::Ghost &&
            std::find(items.begin(), items.end(), r.items[i].ghostOf) != items.end())
            selfItems.push_back(static_cast<int32_t>(i));
    int32_t best = -1;
    int64_t bestKey = INT64_MAX;
    for (int32_t item : selfItems) {
        for (int32_t k = layout_->itemEdgeOffset[item]; k < layout_->itemEdgeOffset[item + 1]; ++k) {
            const auto& e = r.edges[layout_->itemEdges[k]];
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
    const ItemRef ref = layout_->refOf(best);
    if (ref.isNone()) return false;
    select(ref, true);
    return true;
}

bool GraphSession::walkToProducer() { return walk(true); }
bool GraphSession::walkToConsumer() { return walk(false); }

void GraphSession::setMarked(std::vector<int64_t> nodes) {
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    const int64_t n = doc_ ? static_cast<int64_t>(doc_->graph.nodes.size()) : 0;
    nodes.erase(std::remove_if(nodes.begin(), nodes.end(), [n](int64_t i) { return i < 0 || i >= n; }), nodes.end());
    if (nodes == marked_) return;
    marked_ = std::move(nodes);
    recomputeFlags();
    emit markedChanged();
    emit highlightChanged();  // the view repaints
}

void GraphSession::toggleMarked(int64_t node) {
    std::vector<int64_t> next = marked_;
    auto it = std::lower_bound(next.begin(), next.end(), node);
    if (it != next.end() && *it == node)
        next.erase(it);
    else
        next.insert(it, node);
    setMarked(std::move(next));
}

void GraphSession::setHighlight(std::vector<ItemRef> refs) {
    highlight_ = std::move(refs);
    decorations_->modulesChanged();
    recomputeFlags();
    emit highlightChanged();
}

std::vector<ItemRef> GraphSession::find(const QString& text) const {
    std::vector<ItemRef> out;
    if (!doc_) return out;
    const std::string needle = text.trimmed().toLower().toStdString();
    if (needle.empty()) return out;
    const auto& g = doc_->graph;
    for (size_t i = 0; i < g.graphInputs.size(); ++i)
        if (containsCI(g.graphInputs[i].name, needle))
            out.push_back(ItemRef::graphInput(static_cast<int64_t>(i), QString::fromStdString(g.graphInputs[i].name)));
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const auto& n = g.nodes[i];
        bool hit = containsCI(n.name, needle) || containsCI(n.opType, needle);
        for (size_t k = 0; !hit && k < n.outputs.size(); ++k) hit = containsCI(n.outputs[k].name, needle);
        if (hit) out.push_back(ItemRef::node(static_cast<int64_t>(i), QString::fromStdString(n.name)));
    }
    if (showWeights_) {
        for (const auto& [placeholder, original] : g.weightNameMapping)
            if (containsCI(placeholder, needle) || containsCI(original, needle))
                out.push_back(ItemRef::weight(QString::fromStdString(placeholder),
                                              doc_->index->weightIndex(placeholder).value_or(-1)));
    }
    if (const auto* tree = moduleTree())
        for (size_t m = 1; m < tree->size(); ++m) {
            const auto& mod = tree->module(static_cast<modules::ModuleId>(m));
            if (mod.opCount > 1 && containsCI(mod.path, needle))
                out.push_back(ItemRef::module(static_cast<int64_t>(m), QString::fromStdString(mod.path)));
        }
    for (size_t i = 0; i < g.graphOutputs.size(); ++i)
        if (containsCI(g.graphOutputs[i].name, needle) && !doc_->index->producerOfTensor(g.graphOutputs[i].name))
            out.push_back(ItemRef::output(static_cast<int64_t>(i), QString::fromStdString(g.graphOutputs[i].name)));
    return out;
}

std::vector<ItemRef> GraphSession::nodesOfOpType(const QString& opType) const {
    std::vector<ItemRef> out;
    if (!doc_) return out;
    const std::string t = opType.toStdString();
    for (size_t i = 0; i < doc_->graph.nodes.size(); ++i)
        if (doc_->graph.nodes[i].opType == t)
            out.push_back(ItemRef::node(static_cast<int64_t>(i), QString::fromStdString(doc_->graph.nodes[i].name)));
    return out;
}

void GraphSession::recomputeFlags() {
    itemFlags_.clear();
    edgeFlags_.clear();
    if (!layout_) return;
    const auto& r = layout_->result;
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
        for (int32_t item : layout_->itemsOf(ref)) mark(item, kFlagHighlighted);
    for (int64_t node : marked_)
        for (int32_t item : layout_->itemsOf(ItemRef::node(node))) mark(item, kFlagMarked);

    if (!selection_.isNone()) {
        const auto selected = withGhosts(layout_->itemsOf(selection_));
        for (int32_t item : selected) {
            mark(item, kFlagSelected);
            for (int32_t k = layout_->itemEdgeOffset[item]; k < layout_->itemEdgeOffset[item + 1]; ++k) {
                const int32_t e = layout_->itemEdges[k];
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
        for (int32_t item : layout_->itemsOf(ItemRef::node(runCursor_))) mark(item, kFlagRunCursor);
}

QString GraphSession::displayName(const ItemRef& ref) const {
    if (!doc_) return ref.name;
    const auto& g = doc_->graph;
    switch (ref.kind) {
    case RefKind::Node:
        if (ref.index >= 0 && ref.index < static_cast<int64_t>(g.nodes.size()))
            return QString::fromStdString(g.nodes[ref.index].name);
        break;
    case RefKind::GraphInput:
        if (ref.index >= 0 && ref.index < static_cast<int64_t>(g.graphInputs.size()))
            return QString::fromStdString(g.graphInputs[ref.index].name);
        break;
    case RefKind::Output:
        if (ref.index >= 0 && ref.index < static_cast<int64_t>(g.graphOutputs.size()))
            return QStringLiteral("output_%1 (%2)")
                .arg(ref.index)
                .arg(QString::fromStdString(g.graphOutputs[ref.index].name));
        break;
    default: break;
    }
    return ref.name;
}

}  // namespace irscope::widgets
