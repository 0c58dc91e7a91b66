#include "widgets/session/graph_session.h"

#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"

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

}  // namespace

GraphSession::GraphSession(QObject* parent)
    : QObject(parent),
      lane_(new TaskQueue(QThread::LowPriority, this)),
      selection_(new GraphSelection(*this)),
      decorations_(new GraphDecorations(*this)) {
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
    lane_->post(
        kLoadTag, this,
        [this, path, weights, grouped, prepare = preparation_, before = documentPtr()](const TaskQueue::Context& ctx) {
            return loadInBackground(ctx, path, weights, grouped, prepare, before);
        });
}

namespace {

// Whether what the user set up for `before` (filters, queries, files,
// breakpoints) carries over to `after`: the same file again, a new export of
// it, its meta twin (ir/same_model.h). Comparing two 70,000-weight models
// takes ~30 ms: an open decides it on its worker.
bool sameModel(const LoadedDocument* before, const LoadedDocument* after) {
    return before && after &&
           (canonicalDocumentPath(before->path) == canonicalDocumentPath(after->path) ||
            ir::isSameModel(before->graph, after->graph));
}

}  // namespace

// On the worker: parse, index, validate, lay out; progress and the outcome go
// to the UI thread through `ctx` (dropped once a newer open or a cancel came).
TaskQueue::Continuation GraphSession::loadInBackground(const TaskQueue::Context& ctx, const QString& path, bool weights,
                                                       bool grouped, const Preparation& prepare,
                                                       const std::shared_ptr<const LoadedDocument>& before) {
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
            // The first view: one level of structure; the rest is laid out on demand.
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
        const bool same = sameModel(before.get(), doc.get());
        return [this, doc, lay, drawing, prepared, before, same] {
            prepared_ = prepared;
            loading_ = false;
            // The verdict holds against the document still shown; a close in
            // between (no document) is judged here again.
            install(doc, lay, drawing, doc_ == before ? same : sameModel(doc_.get(), doc.get()));
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

void GraphSession::setDocument(std::shared_ptr<LoadedDocument> doc, std::shared_ptr<DocumentLayout> layout,
                               std::shared_ptr<modules::ModuleDrawing> drawing) {
    const bool same = sameModel(doc_.get(), doc.get());
    install(std::move(doc), std::move(layout), std::move(drawing), same);
}

void GraphSession::install(std::shared_ptr<LoadedDocument> doc, std::shared_ptr<DocumentLayout> layout,
                           std::shared_ptr<modules::ModuleDrawing> drawing, bool sameModel) {
    // Decided once, for every panel: what the user set up for the previous
    // document carries over to the same model; another model starts clean.
    sameModelAsBefore_ = sameModel;
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
    selection_->documentChanged();
    emit graphLoaded();
    prepared_.reset();  // taken by whoever needed it, or not needed
    selection_->announceAll();
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
    selection_->layoutChanged();  // a hidden weight cannot stay selected
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
