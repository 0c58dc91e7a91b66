#include "widgets/compare/compare_session.h"

#include <unordered_map>

#include <QFileInfo>

#include "core/diff/tensor_name_map.h"
#include "core/export/diff_report.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/task_queue.h"

namespace irscope::widgets {

namespace {
const QString kDiffTag = QStringLiteral("diff");

DiffMark markOf(diff::NodeDiffState s) {
    switch (s) {
    case diff::NodeDiffState::Unchanged: return DiffMark::Unchanged;
    case diff::NodeDiffState::Renamed: return DiffMark::Renamed;
    case diff::NodeDiffState::Changed: return DiffMark::Changed;
    case diff::NodeDiffState::Added: return DiffMark::Added;
    case diff::NodeDiffState::Removed: return DiffMark::Removed;
    }
    return DiffMark::None;
}

// One side's marks. sideB: the diff's "added" are this side's; otherwise "removed" are.
DiffMarks marksOf(const diff::GraphDiff& d, const LoadedDocument& doc, bool sideB) {
    const auto states = sideB ? diff::nodeStatesB(d) : diff::nodeStatesA(d);
    DiffMarks marks;
    marks.nodes.reserve(states.size());
    for (auto s : states) marks.nodes.push_back(markOf(s));
    if (doc.modules) {
        marks.moduleChanges = diff::changesInsideModules(states, *doc.modules);
        marks.moduleKinds = diff::changeKindsInsideModules(states, *doc.modules);
    }
    auto tensors = [&](const diff::TensorDiff& t, size_t count) {
        std::vector<DiffMark> out(count, DiffMark::Unchanged);
        for (int64_t i : sideB ? t.added : t.removed)
            out[static_cast<size_t>(i)] = sideB ? DiffMark::Added : DiffMark::Removed;
        for (const auto& c : t.changed) out[static_cast<size_t>(sideB ? c.b : c.a)] = DiffMark::Changed;
        return out;
    };
    marks.graphInputs = tensors(d.graphInputs, doc.graph.graphInputs.size());
    marks.weights = tensors(d.weights, doc.graph.weights.size());
    return marks;
}
}  // namespace

// Everything computed from one pair of documents; immutable once made, so
// the UI reads it without locks. It keeps both documents alive.
struct CompareSession::Result {
    std::shared_ptr<const LoadedDocument> docA, docB;
    diff::GraphDiff diff;
    std::vector<diff::ChangeRow> rows;
    DiffMarks marksA, marksB;
    QString summary;
    std::unordered_map<int64_t, int> rowOfNodeA, rowOfNodeB;  // node rows only
};

CompareSession::CompareSession(GraphSession* sideA, QObject* parent)
    : QObject(parent), a_(sideA), b_(new GraphSession(this)), lane_(new TaskQueue(QThread::LowPriority, this)) {
    connect(a_, &GraphSession::graphLoaded, this, [this] {
        if (!open_) return;
        // A reloaded (the same model): the diff is measured again. Another
        // model opened in A's place: B was chosen against the old one, and the
        // comparison ends (GraphSession::sameModelAsBefore is the rule).
        if (a_->hasDocument() && a_->sameModelAsBefore())
            recompute();
        else
            close();
    });
    connect(b_, &GraphSession::graphLoaded, this, &CompareSession::recompute);
    connect(b_, &GraphSession::loadFailed, this, [this](const QString&, const QString& message) {
        // The previous B (if any) stays loaded, but it is not the file asked for.
        result_.reset();
        a_->decorations()->clearDiffMarks();
        b_->decorations()->clearDiffMarks();
        failure_ = message;
        emit diffStale();
        emit failed(message);
    });
    connect(a_->selectionModel(), &GraphSelection::selectionChanged, this,
            [this](const ItemRef& ref) { syncFrom(a_, ref); });
    connect(b_->selectionModel(), &GraphSelection::selectionChanged, this,
            [this](const ItemRef& ref) { syncFrom(b_, ref); });
}

CompareSession::~CompareSession() { lane_->dropAll(); }

QString CompareSession::pathB() const { return b_->filePath(); }

void CompareSession::open(const QString& path) {
    open_ = true;
    failure_.clear();
    requestedB_ = path;
    result_.reset();
    lane_->dropAll();
    a_->decorations()->clearDiffMarks();
    currentRow_ = -1;
    emit opened(path);
    b_->openFile(path);
}

void CompareSession::close() {
    if (!open_) return;
    open_ = false;
    lane_->dropAll();
    b_->cancelLoad();
    result_.reset();
    a_->decorations()->clearDiffMarks();
    b_->decorations()->clearDiffMarks();
    currentRow_ = -1;
    emit closed();
}

void CompareSession::recompute() {
    auto docA = a_->documentPtr();
    auto docB = b_->documentPtr();
    // Not the old B while the new one loads (the same file by another spelling is fine).
    if (!open_ || !docA || !docB || QFileInfo(b_->filePath()) != QFileInfo(requestedB_)) return;
    result_.reset();
    emit diffStale();
    lane_->post(kDiffTag, this, [this, docA, docB](const TaskQueue::Context&) -> TaskQueue::Continuation {
        auto r = std::make_shared<Result>();
        r->docA = docA;
        r->docB = docB;
        r->diff = diff::diffGraphs(*docA->index, *docB->index);
        r->rows = diff::changeRows(r->diff, *docA->index, *docB->index, docA->modules.get(), docB->modules.get());
        r->marksA = marksOf(r->diff, *docA, false);
        r->marksB = marksOf(r->diff, *docB, true);
        for (size_t i = 0; i < r->rows.size(); ++i) {
            const auto& row = r->rows[i];
            if (!row.isNode()) continue;
            if (row.a >= 0) r->rowOfNodeA.emplace(row.a, static_cast<int>(i));
            if (row.b >= 0) r->rowOfNodeB.emplace(row.b, static_cast<int>(i));
        }
        const auto& d = r->diff;
        if (d.identical()) {
            r->summary = tr("identical: same nodes, weights, inputs and outputs");
        } else {
            const std::string nodes = exporter::countsLine(
                static_cast<int64_t>(d.changedNodes.size()), static_cast<int64_t>(d.addedNodes.size()),
                static_cast<int64_t>(d.removedNodes.size()), static_cast<int64_t>(d.renamedNodes.size()));
            auto part = [](const char* what, const diff::TensorDiff& t) {
                return t.empty() ? QString()
                                 : QStringLiteral("; %1: %2")
                                       .arg(QLatin1String(what))
                                       .arg(QString::fromStdString(exporter::countsLine(
                                           static_cast<int64_t>(t.changed.size()), static_cast<int64_t>(t.added.size()),
                                           static_cast<int64_t>(t.removed.size()), 0)));
            };
            r->summary = tr("nodes: %1").arg(QString::fromStdString(nodes)) + part("weights", d.weights) +
                         part("inputs", d.graphInputs) + part("outputs", d.graphOutputs);
        }
        return [this, r] { install(r); };
    });
}

void CompareSession::install(std::shared_ptr<const Result> result) {
    // Only the documents the diff was made of: a reload since then posts again.
    if (result->docA != a_->documentPtr() || result->docB != b_->documentPtr()) return;
    result_ = std::move(result);
    DiffMarks ma = result_->marksA, mb = result_->marksB;
    ma.dimUnchanged = mb.dimUnchanged = dim_;
    a_->decorations()->setDiffMarks(std::move(ma));
    b_->decorations()->setDiffMarks(std::move(mb));
    a_->decorations()->setDimUnchanged(dim_);
    b_->decorations()->setDimUnchanged(dim_);
    currentRow_ = -1;
    emit diffReady();
    syncFrom(a_, a_->selectionModel()->selection());  // what was selected before B arrived
}

const diff::GraphDiff* CompareSession::diff() const { return result_ ? &result_->diff : nullptr; }

const std::vector<diff::ChangeRow>& CompareSession::rows() const {
    static const std::vector<diff::ChangeRow> none;
    return result_ ? result_->rows : none;
}

std::shared_ptr<const std::vector<diff::ChangeRow>> CompareSession::rowsPtr() const {
    if (!result_) return nullptr;
    return {result_, &result_->rows};  // shares ownership of the whole result
}

QString CompareSession::summary() const { return result_ ? result_->summary : QString(); }

int64_t CompareSession::partnerInB(int64_t nodeA) const {
    if (!result_ || nodeA < 0 || static_cast<size_t>(nodeA) >= result_->diff.match.aToB.size()) return -1;
    return result_->diff.match.aToB[static_cast<size_t>(nodeA)];
}

int64_t CompareSession::partnerInA(int64_t nodeB) const {
    if (!result_ || nodeB < 0 || static_cast<size_t>(nodeB) >= result_->diff.match.bToA.size()) return -1;
    return result_->diff.match.bToA[static_cast<size_t>(nodeB)];
}

std::vector<std::pair<std::string, std::string>> CompareSession::tensorNamesBToA() const {
    if (!result_) return {};
    return diff::tensorNamesBToA(result_->diff, *result_->docA->index, *result_->docB->index);
}

void CompareSession::setDimUnchanged(bool dim) {
    dim_ = dim;
    a_->decorations()->setDimUnchanged(dim);
    b_->decorations()->setDimUnchanged(dim);
}

// The item on the other side that is `ref`: a node's partner, the weight or
// graph input of the same name, the module of the same path.
ItemRef CompareSession::partnerRef(GraphSession* to, const ItemRef& ref) const {
    if (!result_) return {};
    const auto& m = result_->diff.match;
    const bool toB = to == b_;
    switch (ref.kind) {
    case RefKind::Node: {
        const int64_t n = toB ? partnerInB(ref.index) : partnerInA(ref.index);
        if (n < 0) return {};
        const auto& g = (toB ? result_->docB : result_->docA)->graph;
        return ItemRef::node(n, QString::fromStdString(g.nodes[static_cast<size_t>(n)].name));
    }
    case RefKind::GraphInput: {
        const auto& map = toB ? m.inputAToB : m.inputBToA;
        if (ref.index < 0 || static_cast<size_t>(ref.index) >= map.size() || map[static_cast<size_t>(ref.index)] < 0)
            return {};
        return ItemRef::graphInput(map[static_cast<size_t>(ref.index)]);
    }
    case RefKind::Weight: {
        // Through the match by original name: two exporters may name placeholders differently.
        const auto& map = toB ? m.weightAToB : m.weightBToA;
        if (ref.index < 0 || static_cast<size_t>(ref.index) >= map.size()) return {};
        const int64_t w = map[static_cast<size_t>(ref.index)];
        if (w < 0) return {};
        const auto& doc = *(toB ? result_->docB : result_->docA);
        const auto& placeholders = doc.index->placeholdersOf(doc.graph.weights[static_cast<size_t>(w)].name);
        if (placeholders.empty()) return {};
        return ItemRef::weight(QString::fromStdString(placeholders.front()), w);
    }
    case RefKind::Module: {
        const auto* tree = (toB ? result_->docB : result_->docA)->modules.get();
        const auto id = tree ? tree->find(ref.name.toStdString()) : modules::kNoModule;
        return id == modules::kNoModule ? ItemRef{} : ItemRef::module(id, ref.name);
    }
    case RefKind::Output: return ref;  // outputs pair by position
    case RefKind::SubgraphNode:        // subgraphs are not paired
    case RefKind::None: break;
    }
    return {};
}

int CompareSession::rowOf(GraphSession* side, const ItemRef& ref) const {
    if (!result_ || !ref.isNode()) return -1;
    const auto& map = side == a_ ? result_->rowOfNodeA : result_->rowOfNodeB;
    auto it = map.find(ref.index);
    return it == map.end() ? -1 : it->second;
}

void CompareSession::syncFrom(GraphSession* from, const ItemRef& ref) {
    if (syncing_ || !result_) return;
    GraphSession* to = from == a_ ? b_ : a_;
    syncing_ = true;
    const ItemRef partner = partnerRef(to, ref);
    if (partner.isNone())
        to->selectionModel()->clearSelection();
    else
        to->selectionModel()->select(partner, /*focus=*/true);
    syncing_ = false;
    const int row = rowOf(from, ref);
    if (row != currentRow_) {
        currentRow_ = row;
        emit currentRowChanged(row);
    }
}

void CompareSession::goToRow(int row) {
    const auto& all = rows();
    if (row < 0 || static_cast<size_t>(row) >= all.size()) return;
    const auto& r = all[static_cast<size_t>(row)];
    using Kind = diff::ChangeRow::Kind;
    GraphSession* side = r.b >= 0 ? b_ : a_;
    const int64_t index = r.b >= 0 ? r.b : r.a;
    ItemRef ref;
    switch (r.kind) {
    case Kind::Weight: {
        const auto& idx = *(side == b_ ? result_->docB : result_->docA)->index;
        const auto& placeholders = idx.placeholdersOf(side == b_ ? r.nameB : r.nameA);
        ref = ItemRef::weight(
            QString::fromStdString(placeholders.empty() ? (side == b_ ? r.nameB : r.nameA) : placeholders.front()),
            index);
        break;
    }
    case Kind::GraphInput: ref = ItemRef::graphInput(index); break;
    case Kind::GraphOutput: ref = ItemRef::output(index); break;
    default: ref = ItemRef::node(index, QString::fromStdString(side == b_ ? r.nameB : r.nameA)); break;
    }
    side->selectionModel()->select(ref, /*focus=*/true);
    if (currentRow_ != row) {
        currentRow_ = row;
        emit currentRowChanged(row);
    }
}

bool CompareSession::goToChange(int step) {
    const auto& all = rows();
    const int from = currentRow_ < 0 && step < 0 ? static_cast<int>(all.size()) : currentRow_;
    for (int r = from + step; r >= 0 && static_cast<size_t>(r) < all.size(); r += step) {
        if (all[static_cast<size_t>(r)].kind == diff::ChangeRow::Kind::NodeRenamed) continue;
        goToRow(r);
        return true;
    }
    return false;
}

}  // namespace irscope::widgets
