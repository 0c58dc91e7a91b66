#include "widgets/session/node_decorator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <unordered_map>

#include <QHash>
#include <QSet>

#include "widgets/common/overlay_scale.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/numeric_checks.h"

namespace irscope::widgets {

NodeDecorator::NodeDecorator(DebugController* c, GraphSession* session, QObject* parent)
    : QObject(parent), c_(c), session_(session) {
    connect(c_, &DebugController::snapshotChanged, this, &NodeDecorator::update);
}

void NodeDecorator::update() {
    const LoadedDocument* doc = session_->document();
    if (!doc || !c_->hasDocument()) return;
    const size_t n = doc->graph.nodes.size();
    const exec::OverlayKind kind = c_->checks()->overlay();
    const bool haveOverlay = kind != exec::OverlayKind::None && c_->checks()->overlayValues().size() == n;
    std::optional<OverlayScale> scale;
    if (haveOverlay) {
        std::vector<exporter::NodeDataThreshold> thresholds;
        QString title;
        if (kind == exec::OverlayKind::Imported && c_->debugger())
            if (auto data = c_->debugger()->checks().importedNodeData()) {
                thresholds = data->thresholds;
                title = QString::fromStdString(data->title);
            }
        scale = OverlayScale::fitted(kind, c_->checks()->overlayValues(), std::move(thresholds), std::move(title));
    }
    if (scale)
        session_->decorations()->setOverlayLegend(scale->title(), scale->legend());
    else
        session_->decorations()->setOverlayLegend({}, {});
    decoratePlaceholders();
    session_->decorations()->setModuleOverlays(scale ? moduleOverlays(*scale)
                                                     : std::vector<std::pair<QColor, QString>>{});
    decorateNodes(scale ? &*scale : nullptr);
    session_->selectionModel()->setSubgraphBreakpoints(c_->subgraphBreakpoints());
    // Inside a cond's branch or a loop's body the program's op is where the
    // run stands (its call site), at any depth.
    const auto& frames = c_->frames();
    const int64_t cursor = frames.empty() ? c_->runCursor() : frames.front().node;
    const int64_t current = cursor < static_cast<int64_t>(n) ? cursor : -1;
    if (session_->selectionModel()->runCursor() != current) session_->selectionModel()->setRunCursor(current);
    session_->selectionModel()->setSubgraphFrames(frames, c_->subgraphCallCounts());
}

// Nodes: run state, breakpoint, missing value, overlay (`scale`: none when null).
void NodeDecorator::decorateNodes(const OverlayScale* scale) {
    const size_t n = session_->document()->graph.nodes.size();
    const auto& infos = c_->nodeInfos();
    const auto& values = c_->checks()->overlayValues();
    std::vector<NodeDecoration> decs(n);
    // Before anything ran, nodes are plain; after, the ones not yet run are "pending".
    const bool started = c_->runCursor() > 0 || c_->lastRunFailed();
    // Inside a cond's branch or a loop's body the next node is there, not after the op.
    const bool inFrame = !c_->frames().empty();
    for (size_t i = 0; i < n && i < infos.size(); ++i) {
        const auto& info = infos[i];
        auto& d = decs[i];
        switch (info.state) {
        case exec::NodeState::Done: d.state = RunMark::Done; break;
        case exec::NodeState::Failed: d.state = RunMark::Failed; break;
        default:
            d.state = info.current && !inFrame ? RunMark::Current : (started ? RunMark::Pending : RunMark::None);
            break;
        }
        d.breakpoint = info.breakpoint;
        d.missingValue = info.needsMissing;
        d.takenSubgraph = info.takenSubgraph;
        d.iterations = info.iterations;
        d.subgraphRuns = info.subgraphRuns;
        if (d.state == RunMark::Done) d.seconds = info.seconds;
        if (scale) {
            d.overlay = scale->color(values[i]);
            d.badge = scale->badge(values[i]);
        }
    }
    session_->decorations()->setNodeDecorations(std::move(decs));
}

// Placeholders: a red mark while their value is missing; the lifted constants
// the IR lacks but the debugger now has are "supplied" (validation's findings
// about them are settled).
void NodeDecorator::decoratePlaceholders() {
    const LoadedDocument* doc = session_->document();
    QHash<QString, NodeDecoration> marks;
    for (const auto& m : c_->values()->missing()) {
        if (m.value.kind == "input" || m.awaitsStateDict) continue;
        NodeDecoration d;
        d.missingValue = true;
        marks.insert(q(m.value.name), d);
    }
    // The lifted constants the IR has no value for (validation's findings;
    // few, and usually none) are settled once the debugger has a fitting
    // value for them: one of the wrong shape or dtype is there but the node
    // reading it fails. This runs on every snapshot, and a large MoE has
    // 70,000 weights: only those constants are looked up.
    std::unordered_map<std::string_view, bool> settled;  // placeholder -> has a fitting value
    for (const auto& [placeholder, original] : doc->index->constantsWithoutValue()) settled.emplace(placeholder, true);
    if (!settled.empty()) {
        auto unsettle = [&](std::string_view name) {
            if (auto it = settled.find(name); it != settled.end()) it->second = false;
        };
        for (const auto& m : c_->values()->missing()) unsettle(m.value.name);
        for (const auto& r : c_->values()->weightRows())
            if (r.status == exec::WeightStatus::ShapeMismatch || r.status == exec::WeightStatus::DTypeMismatch)
                for (const auto& p : r.placeholders) unsettle(p);
    }
    QSet<QString> supplied;
    for (const auto& [placeholder, fits] : settled)
        if (fits) supplied.insert(QString::fromUtf8(placeholder.data(), static_cast<qsizetype>(placeholder.size())));
    session_->decorations()->setSuppliedPlaceholders(std::move(supplied));
    session_->decorations()->setWeightDecorations(std::move(marks));
}

// A closed module shows its ops' overlay aggregated: time summed, the rest
// the worst of its ops (the largest error or max |x|, the lowest cosine or
// SQNR, NaN/Inf if any op has one). Summed times get their own scale (over
// the modules); the worst values share the ops' scale.
std::vector<std::pair<QColor, QString>> NodeDecorator::moduleOverlays(const OverlayScale& nodeScale) const {
    const auto* tree = session_->moduleTree();
    const auto& values = c_->checks()->overlayValues();
    if (!tree || values.size() != tree->nodeModules().size()) return {};
    std::vector<double> agg(tree->size(), std::numeric_limits<double>::quiet_NaN());
    const bool sum = nodeScale.kind() == exec::OverlayKind::Time;
    const bool lowIsWorse =
        nodeScale.kind() == exec::OverlayKind::ErrorCosine || nodeScale.kind() == exec::OverlayKind::ErrorSqnr;
    for (size_t n = 0; n < values.size(); ++n) {
        const double v = values[n];
        if (std::isnan(v)) continue;
        for (auto m = tree->moduleOfNode(static_cast<int64_t>(n)); m != modules::kNoModule;
             m = tree->module(m).parent) {
            double& a = agg[static_cast<size_t>(m)];
            a = std::isnan(a) ? v : sum ? a + v : lowIsWorse ? std::min(a, v) : std::max(a, v);
        }
    }
    OverlayScale scale = nodeScale;
    if (sum) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t m = 1; m < agg.size(); ++m)
            if (!std::isnan(agg[m])) lo = std::min(lo, agg[m]), hi = std::max(hi, agg[m]);
        scale = OverlayScale(nodeScale.kind(), lo, hi);
    }
    std::vector<std::pair<QColor, QString>> out(agg.size());
    for (size_t m = 0; m < agg.size(); ++m) out[m] = {scale.color(agg[m]), scale.badge(agg[m])};
    return out;
}

}  // namespace irscope::widgets
