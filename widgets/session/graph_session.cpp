#include "widgets/session/graph_session.h"

#include <algorithm>
#include <cctype>

#include <QPointer>
#include <QThread>

#include "core/ir/json_io.h"

namespace irscope::widgets {

using layout::ItemKind;

namespace {

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

GraphSession::GraphSession(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ItemRef>("irscope::widgets::ItemRef");
}

GraphSession::~GraphSession() {
    if (cancel_) *cancel_ = true;
    // A load's layout stops at its next progress report; a show-weights
    // relayout runs to the end. Wait for the workers so none outlives us.
    for (QThread* t : std::as_const(workers_)) {
        t->wait();
        delete t;
    }
}

void GraphSession::startWorker(std::function<void()> job) {
    QThread* thread = QThread::create(std::move(job));
    workers_.insert(thread);
    connect(thread, &QThread::finished, this, [this, thread] {
        workers_.remove(thread);
        thread->deleteLater();
    });
    thread->start(QThread::LowPriority);
}

void GraphSession::openFile(const QString& path) {
    if (cancel_) *cancel_ = true;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    cancel_ = cancel;
    const int generation = ++loadGeneration_;
    const bool weights = showWeights_;
    loading_ = true;
    emit loadStarted(path);
    QPointer<GraphSession> self(this);
    startWorker([this, self, generation, path, cancel, weights] {
        auto progress = [&](int percent, const QString& stage) {
            QMetaObject::invokeMethod(
                this,
                [this, generation, percent, stage] {
                    if (generation == loadGeneration_) emit loadProgress(percent, stage);
                },
                Qt::QueuedConnection);
        };
        QString error;
        bool cancelled = false;
        try {
            auto doc = loadDocument(path, *cancel, progress);
            progress(70, QStringLiteral("Laying out"));
            // 70-99% while laying out; stops (LayoutCancelled) once cancelled or superseded.
            int shown = 70;
            auto lay = layoutDocument(*doc, weights, [&](double fraction, const char*) {
                if (*cancel) return false;
                const int percent = 70 + static_cast<int>(fraction * 29);
                if (percent > shown) {
                    shown = percent;
                    progress(percent, QStringLiteral("Laying out"));
                }
                return true;
            });
            if (*cancel) throw ir::LoadCancelled();
            QMetaObject::invokeMethod(
                this, [this, generation, doc, lay] { finishLoad(generation, doc, lay); }, Qt::QueuedConnection);
            return;
        } catch (const ir::LoadCancelled&) {
            cancelled = true;
        } catch (const layout::LayoutCancelled&) {
            cancelled = true;
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, generation, path, error, cancelled] {
                if (generation != loadGeneration_) return;
                loading_ = false;
                if (cancelled) emit loadCancelled(path);
                else emit loadFailed(path, error);
            },
            Qt::QueuedConnection);
    });
}

void GraphSession::reload() {
    if (doc_) openFile(doc_->path);
}

void GraphSession::cancelLoad() {
    if (!loading_) return;
    if (cancel_) *cancel_ = true;
    // The worker notices between stages; drop its result whenever it comes.
    ++loadGeneration_;
    loading_ = false;
    emit loadCancelled(QString());
}

void GraphSession::finishLoad(int generation, std::shared_ptr<LoadedDocument> doc,
                              std::shared_ptr<DocumentLayout> layout) {
    if (generation != loadGeneration_) return;
    loading_ = false;
    setDocument(std::move(doc), std::move(layout));
}

void GraphSession::setDocument(std::shared_ptr<LoadedDocument> doc, std::shared_ptr<DocumentLayout> layout) {
    doc_ = std::move(doc);
    layout_ = std::move(layout);
    ++layoutGeneration_;
    if (layout_) showWeights_ = layout_->includeWeights;
    selection_ = {};
    currentNode_ = -1;
    highlight_.clear();
    decorations_.clear();
    weightDecorations_.clear();
    supplied_.clear();
    recomputeFlags();
    emit graphLoaded();
    emit selectionChanged(selection_);
    emit currentNodeChanged(currentNode_);
    emit highlightChanged();
}

void GraphSession::setShowWeights(bool show) {
    if (show == showWeights_) return;
    showWeights_ = show;
    emit showWeightsChanged(show);
    if (!doc_) return;
    const int generation = ++layoutGeneration_;
    auto doc = doc_;
    emit layoutBusy(true);
    startWorker([this, generation, doc, show] {
        auto lay = layoutDocument(*doc, show);
        QMetaObject::invokeMethod(
            this,
            [this, generation, lay, doc] {
                if (generation != layoutGeneration_ || doc != doc_) return;
                layout_ = lay;
                // A hidden weight cannot stay selected.
                if (selection_.kind == RefKind::Weight && !layout_->includeWeights) {
                    selection_ = {};
                    emit selectionChanged(selection_);
                }
                recomputeFlags();
                emit layoutBusy(false);
                emit layoutChanged();
            },
            Qt::QueuedConnection);
    });
}

void GraphSession::select(const ItemRef& ref, bool focus) {
    if (ref != selection_) {
        selection_ = ref;
        if (ref.isNode()) setCurrentNode(ref.index);
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
            select(ItemRef::weight(QString::fromStdString(placeholder), doc_->index->weightIndex(placeholder).value_or(-1)),
                   focus);
            return true;
        }
    return false;
}

void GraphSession::setCurrentNode(int64_t node) {
    if (node == currentNode_) return;
    currentNode_ = node;
    recomputeFlags();
    emit currentNodeChanged(node);
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
                key = static_cast<int64_t>(r.items[e.target].layer) * 1'000'000 + static_cast<int64_t>(r.items[e.target].rect.x);
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

void GraphSession::setHighlight(std::vector<ItemRef> refs) {
    highlight_ = std::move(refs);
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
    if (currentNode_ >= 0)
        for (int32_t item : layout_->itemsOf(ItemRef::node(currentNode_))) mark(item, kFlagCurrent);
}

void GraphSession::setNodeDecorations(std::vector<NodeDecoration> perNode) {
    decorations_ = std::move(perNode);
    emit decorationsChanged();
}

void GraphSession::setNodeDecoration(int64_t node, const NodeDecoration& decoration) {
    if (!doc_ || node < 0 || node >= static_cast<int64_t>(doc_->graph.nodes.size())) return;
    if (decorations_.size() != doc_->graph.nodes.size()) decorations_.resize(doc_->graph.nodes.size());
    decorations_[node] = decoration;
    emit decorationsChanged();
}

void GraphSession::setWeightDecorations(QHash<QString, NodeDecoration> byPlaceholder) {
    if (byPlaceholder.isEmpty() && weightDecorations_.isEmpty()) return;
    weightDecorations_ = std::move(byPlaceholder);
    emit decorationsChanged();
}

void GraphSession::setSuppliedPlaceholders(QSet<QString> names) {
    if (names == supplied_) return;
    supplied_ = std::move(names);
    emit suppliedPlaceholdersChanged();
}

const NodeDecoration* GraphSession::weightDecoration(const QString& placeholder) const {
    auto it = weightDecorations_.constFind(placeholder);
    return it == weightDecorations_.constEnd() ? nullptr : &it.value();
}

const NodeDecoration* GraphSession::nodeDecoration(int64_t node) const {
    if (node < 0 || node >= static_cast<int64_t>(decorations_.size())) return nullptr;
    const auto& d = decorations_[node];
    return d.isEmpty() ? nullptr : &d;
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
                return QStringLiteral("output_%1 (%2)").arg(ref.index).arg(QString::fromStdString(g.graphOutputs[ref.index].name));
            break;
        default: break;
    }
    return ref.name;
}

}  // namespace irscope::widgets
