#include "widgets/session/loaded_document.h"

#include "core/modules/region_drawing.h"

#include "widgets/session/off_thread_release.h"

#include "core/ir/execution_position.h"
#include "core/ir/json_io.h"
#include "core/ir/validate.h"
#include "core/layout/graph_to_layout.h"
#include "core/layout/layout.h"
#include "core/modules/module_inference.h"

namespace irscope::widgets {

using layout::ItemKind;

std::vector<int32_t> DocumentLayout::itemsOf(const ItemRef& ref) const {
    auto one = [](const std::vector<int32_t>& v, int64_t i) -> std::vector<int32_t> {
        if (i < 0 || i >= static_cast<int64_t>(v.size()) || v[i] < 0) return {};
        return {v[i]};
    };
    switch (ref.kind) {
    case RefKind::Node: {
        auto own = one(nodeItem, ref.index);
        return own.empty() ? one(hiddenNodeBox, ref.index) : own;
    }
    case RefKind::Module: return one(moduleItem, ref.index);
    case RefKind::GraphInput: return one(inputItem, ref.index);
    case RefKind::Output: return one(outputItem, ref.index);
    case RefKind::Weight: {
        auto it = weightItems.find(ref.name);
        return it == weightItems.end() ? std::vector<int32_t>{} : it.value();
    }
    case RefKind::SubgraphNode: {
        const auto& items = result.items;
        for (size_t i = 0; i < items.size(); ++i)
            if (items[i].region == ref.index && (items[i].kind == ItemKind::Op || items[i].kind == ItemKind::Region) &&
                items[i].position == ref.subgraph && items[i].irIndex == ref.inner)
                return {static_cast<int32_t>(i)};
        return {};
    }
    case RefKind::None: break;
    }
    return {};
}

ItemRef DocumentLayout::refOf(int32_t item) const {
    if (item < 0 || item >= static_cast<int32_t>(result.items.size())) return {};
    const auto* it = &result.items[item];
    if (it->kind == ItemKind::Ghost && it->ghostOf >= 0) it = &result.items[it->ghostOf];
    // A subgraph's op, at any depth, is itself (a higher-order op inside a
    // subgraph too); anything else drawn for a higher-order op (its
    // subgraphs' frames, inputs and outputs) stands for that op.
    if (it->region >= 0 && (it->kind == ItemKind::Op || it->kind == ItemKind::Region) && !it->position.empty())
        return ItemRef::subgraphNode(it->region, it->position, it->irIndex, QString::fromStdString(it->name));
    // A nested op's subgraph frame stands for that op.
    std::string enclosing, op;
    if (it->region >= 0 && it->kind == ItemKind::Subgraph && ir::splitSubgraphPath(it->position, enclosing, op) &&
        !enclosing.empty())
        return ItemRef::subgraphNode(it->region, enclosing, it->irIndex, QString::fromStdString(op));
    if (it->region >= 0) return ItemRef::node(it->region);
    const QString name = QString::fromStdString(it->name);
    switch (it->kind) {
    case ItemKind::Op:
    case ItemKind::Region:
    case ItemKind::Subgraph: return ItemRef::node(it->irIndex, name);
    case ItemKind::GraphInput: return ItemRef::graphInput(it->irIndex, name);
    case ItemKind::Output: return ItemRef::output(it->irIndex, name);
    case ItemKind::Ghost: return {};
    case ItemKind::Module:
    case ItemKind::Frame: return ItemRef::module(it->irIndex, name);
    case ItemKind::Port:  // a value entering a frame: its producer
        if (it->irIndex >= 0) return ItemRef::node(it->irIndex);
        if (it->irIndex <= -2) return ItemRef::graphInput(-2 - it->irIndex);
        return {};
    default: return ItemRef::weight(name, it->irIndex);
    }
}

namespace {
void buildLookups(DocumentLayout& lay, const LoadedDocument& doc);
}

std::shared_ptr<LoadedDocument> loadDocument(const QString& path, const std::atomic<bool>& cancel,
                                             const ProgressFn& progress) {
    auto doc = makeReleasedOffThread(new LoadedDocument);
    doc->path = path;
    ir::LoadOptions options;
    int lastPercent = -1;
    options.progress = [&](double fraction) {
        const int percent = static_cast<int>(fraction * 60);
        if (percent != lastPercent && progress) {
            lastPercent = percent;
            progress(percent, QStringLiteral("Reading"));
        }
        return !cancel.load();
    };
    doc->graph = ir::loadGraphFile(path.toStdString(), options);
    if (cancel) throw ir::LoadCancelled();
    if (progress) progress(62, QStringLiteral("Indexing"));
    doc->index = std::make_unique<ir::GraphIndex>(doc->graph);
    if (cancel) throw ir::LoadCancelled();
    if (progress) progress(66, QStringLiteral("Validating"));
    doc->diagnostics = ir::validateGraph(doc->graph, *doc->index);
    if (cancel) throw ir::LoadCancelled();
    if (progress) progress(68, QStringLiteral("Finding modules"));
    doc->modules = std::make_unique<modules::ModuleTree>(modules::inferModuleTree(doc->graph, *doc->index));
    if (cancel) throw ir::LoadCancelled();
    return doc;
}

std::shared_ptr<DocumentLayout> layoutDocument(const LoadedDocument& doc, bool includeWeights,
                                               const layout::LayoutProgress& progress) {
    auto out = makeReleasedOffThread(new DocumentLayout);
    out->includeWeights = includeWeights;
    bool holdsSubgraphs = false;
    for (const auto& n : doc.graph.nodes) holdsSubgraphs = holdsSubgraphs || !n.subgraphs.empty();
    if (holdsSubgraphs) {
        // Higher-order ops open, frames in frames (core/modules/region_drawing.h).
        out->result = modules::layOutOpenRegions(doc.graph, *doc.index, drawingOptions(includeWeights, progress));
        buildLookups(*out, doc);
        return out;
    }
    layout::GraphLayoutOptions go;
    go.includeWeights = includeWeights;
    go.lineHeight = kLabelLineHeight;
    const auto input = layout::buildLayoutGraph(doc.graph, *doc.index, go);
    layout::LayoutOptions lo;
    lo.progress = progress;
    out->result = layout::computeLayout(input, lo);
    buildLookups(*out, doc);
    return out;
}

modules::DrawingOptions drawingOptions(bool includeWeights, const layout::LayoutProgress& progress) {
    modules::DrawingOptions d;
    d.items.includeWeights = includeWeights;
    d.items.lineHeight = kLabelLineHeight;
    d.layout.progress = progress;
    return d;
}

std::shared_ptr<DocumentLayout> layoutByModule(const LoadedDocument& doc, modules::ModuleDrawing& drawing) {
    auto out = makeReleasedOffThread(new DocumentLayout);
    out->includeWeights = true;
    out->byModule = true;
    out->result = drawing.compose();
    buildLookups(*out, doc);
    const auto& tree = drawing.tree();
    out->moduleItem.assign(tree.size(), -1);
    for (size_t i = 0; i < out->result.items.size(); ++i) {
        const auto& it = out->result.items[i];
        if ((it.kind == ItemKind::Module || it.kind == ItemKind::Frame) && it.irIndex >= 0 &&
            it.irIndex < static_cast<int64_t>(tree.size()))
            out->moduleItem[static_cast<size_t>(it.irIndex)] = static_cast<int32_t>(i);
    }
    out->hiddenNodeBox.assign(doc.graph.nodes.size(), -1);
    for (size_t n = 0; n < doc.graph.nodes.size(); ++n) {
        if (out->nodeItem[n] >= 0) continue;
        const auto box = drawing.visibleModuleOf(static_cast<int64_t>(n));
        if (box >= 0 && !drawing.isOpen(box)) out->hiddenNodeBox[n] = out->moduleItem[static_cast<size_t>(box)];
    }
    return out;
}

namespace {

// Item lookups (node/input/output/weight -> items) and edges per item.
void buildLookups(DocumentLayout& lay, const LoadedDocument& doc) {
    auto* out = &lay;
    const auto& r = out->result;
    out->grid = layout::SpatialGrid(r);

    out->nodeItem.assign(doc.graph.nodes.size(), -1);
    out->inputItem.assign(doc.graph.graphInputs.size(), -1);
    out->outputItem.assign(doc.graph.graphOutputs.size(), -1);
    auto put = [](std::vector<int32_t>& v, int64_t i, int32_t item) {
        if (i >= 0 && i < static_cast<int64_t>(v.size())) v[i] = item;
    };
    for (size_t i = 0; i < r.items.size(); ++i) {
        const auto& it = r.items[i];
        const auto id = static_cast<int32_t>(i);
        if (it.region >= 0) continue;  // inside a subgraph: indexes count there
        switch (it.kind) {
        case ItemKind::Op:
        case ItemKind::Region: put(out->nodeItem, it.irIndex, id); break;
        case ItemKind::GraphInput: put(out->inputItem, it.irIndex, id); break;
        case ItemKind::Output: put(out->outputItem, it.irIndex, id); break;
        case ItemKind::Ghost:
        case ItemKind::Module:
        case ItemKind::Frame:
        case ItemKind::Subgraph:
        case ItemKind::Port: break;
        default: out->weightItems[QString::fromStdString(it.name)].push_back(id); break;
        }
    }
    // Edges per item (CSR).
    out->itemEdgeOffset.assign(r.items.size() + 1, 0);
    auto valid = [&](int32_t i) { return i >= 0 && i < static_cast<int32_t>(r.items.size()); };
    for (const auto& e : r.edges) {
        if (valid(e.source)) ++out->itemEdgeOffset[e.source + 1];
        if (valid(e.target) && e.target != e.source) ++out->itemEdgeOffset[e.target + 1];
    }
    for (size_t i = 0; i < r.items.size(); ++i) out->itemEdgeOffset[i + 1] += out->itemEdgeOffset[i];
    out->itemEdges.resize(out->itemEdgeOffset.back());
    std::vector<int32_t> fill(out->itemEdgeOffset.begin(), out->itemEdgeOffset.end() - 1);
    for (size_t e = 0; e < r.edges.size(); ++e) {
        const auto& edge = r.edges[e];
        if (valid(edge.source)) out->itemEdges[fill[edge.source]++] = static_cast<int32_t>(e);
        if (valid(edge.target) && edge.target != edge.source)
            out->itemEdges[fill[edge.target]++] = static_cast<int32_t>(e);
    }
}

}  // namespace
}  // namespace irscope::widgets
