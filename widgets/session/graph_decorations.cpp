#include "widgets/session/graph_decorations.h"

#include <QStringList>

#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

GraphDecorations::GraphDecorations(GraphSession& session) : QObject(&session), s_(session) {}

bool GraphDecorations::highlightsModules() const { return s_.drawing() && !s_.selectionModel()->highlight().empty(); }

void GraphDecorations::documentChanged() {
    moduleOverlays_.clear();
    const bool hadLegend = !legendTitle_.isEmpty() || !legend_.empty();
    legendTitle_.clear();
    legend_.clear();
    if (hadLegend) emit overlayLegendChanged();  // the legend of the closed document's overlay goes too
    moduleDecorationsDirty_ = true;
    decorations_.clear();
    weightDecorations_.clear();
    supplied_.clear();
    diffMarks_ = {};
}

void GraphDecorations::setOverlayLegend(const QString& title, std::vector<std::pair<QColor, QString>> entries) {
    if (title == legendTitle_ && entries == legend_) return;
    legendTitle_ = title;
    legend_ = std::move(entries);
    emit overlayLegendChanged();
}

void GraphDecorations::setModuleOverlays(std::vector<std::pair<QColor, QString>> perModule) {
    moduleOverlays_ = std::move(perModule);
    moduleDecorationsDirty_ = true;
}

double GraphDecorations::moduleSeconds(int64_t module) const {
    if (!s_.drawing() || module < 0 || module >= static_cast<int64_t>(s_.drawing()->tree().size())) return 0;
    moduleDecoration(module);  // brings the aggregates up to date
    return moduleSeconds_[static_cast<size_t>(module)];
}

const QString* GraphDecorations::moduleStatus(int64_t module) const {
    if (!s_.drawing() || module < 0 || module >= static_cast<int64_t>(s_.drawing()->tree().size())) return nullptr;
    moduleDecoration(module);  // brings the aggregates up to date
    const auto& s = moduleStatus_[static_cast<size_t>(module)];
    return s.isEmpty() ? nullptr : &s;
}

const NodeDecoration* GraphDecorations::moduleDecoration(int64_t module) const {
    if (!s_.drawing() || module < 0 || module >= static_cast<int64_t>(s_.drawing()->tree().size())) return nullptr;
    const auto& tree = s_.drawing()->tree();
    if (moduleDecorationsDirty_) {
        moduleDecorationsDirty_ = false;
        moduleDecorations_.assign(tree.size(), NodeDecoration{});
        moduleStatus_.assign(tree.size(), QString());
        moduleSeconds_.assign(tree.size(), 0.0);
        std::vector<int64_t> done(tree.size(), 0), hits(tree.size(), 0);
        auto each = [&](int64_t node, auto&& fn) {
            for (auto m = tree.moduleOfNode(node); m != modules::kNoModule; m = tree.module(m).parent)
                fn(static_cast<size_t>(m));
        };
        for (size_t n = 0; n < decorations_.size() && n < tree.nodeModules().size(); ++n) {
            const auto& d = decorations_[n];
            if (d.isEmpty()) continue;
            each(static_cast<int64_t>(n), [&](size_t m) {
                auto& md = moduleDecorations_[m];
                if (d.state == RunMark::Failed) md.state = RunMark::Failed;
                if (d.state == RunMark::Done) ++done[m];
                moduleSeconds_[m] += d.seconds;
                md.breakpoint |= d.breakpoint;
                md.missingValue |= d.missingValue;
            });
        }
        for (const auto& ref : s_.selectionModel()->highlight())
            if (ref.isNode() && ref.index >= 0 && ref.index < static_cast<int64_t>(tree.nodeModules().size()))
                each(ref.index, [&](size_t m) { ++hits[m]; });
        for (size_t m = 0; m < tree.size(); ++m) {
            auto& md = moduleDecorations_[m];
            const int64_t ops = tree.module(static_cast<modules::ModuleId>(m)).opCount;
            if (md.state != RunMark::Failed && ops > 0 && done[m] == ops) md.state = RunMark::Done;
            moduleStatus_[m] = md.state == RunMark::Failed ? tr("failed")
                               : md.state == RunMark::Done ? tr("done")
                               : done[m] > 0               ? tr("%1/%2").arg(done[m]).arg(ops)
                                                           : QString();
            QStringList badge;
            if (m < moduleOverlays_.size()) {
                md.overlay = moduleOverlays_[m].first;
                if (!moduleOverlays_[m].second.isEmpty()) badge << moduleOverlays_[m].second;
            }
            if (hits[m]) badge << (hits[m] == 1 ? tr("1 hit") : tr("%1 hits").arg(hits[m]));
            if (md.state == RunMark::None && done[m] > 0) badge << tr("%1/%2 ran").arg(done[m]).arg(ops);
            md.badge = badge.join(QStringLiteral(" · "));
        }
    }
    if (s_.drawing()->isExpanded(static_cast<modules::ModuleId>(module))) return nullptr;
    const auto& d = moduleDecorations_[static_cast<size_t>(module)];
    return d.isEmpty() ? nullptr : &d;
}

QColor GraphDecorations::moduleOverlayColour(int64_t module) const {
    if (module < 0 || module >= static_cast<int64_t>(moduleOverlays_.size())) return {};
    return moduleOverlays_[static_cast<size_t>(module)].first;
}

void GraphDecorations::setNodeDecorations(std::vector<NodeDecoration> perNode) {
    moduleDecorationsDirty_ = true;
    decorations_ = std::move(perNode);
    emit decorationsChanged();
}

void GraphDecorations::setNodeDecoration(int64_t node, const NodeDecoration& decoration) {
    if (!s_.document() || node < 0 || node >= static_cast<int64_t>(s_.document()->graph.nodes.size())) return;
    if (decorations_.size() != s_.document()->graph.nodes.size())
        decorations_.resize(s_.document()->graph.nodes.size());
    decorations_[node] = decoration;
    moduleDecorationsDirty_ = true;
    emit decorationsChanged();
}

void GraphDecorations::setWeightDecorations(QHash<QString, NodeDecoration> byPlaceholder) {
    if (byPlaceholder.isEmpty() && weightDecorations_.isEmpty()) return;
    weightDecorations_ = std::move(byPlaceholder);
    emit decorationsChanged();
}

void GraphDecorations::setDiffMarks(DiffMarks marks) {
    marks.dimUnchanged = diffMarks_.dimUnchanged;
    diffMarks_ = std::move(marks);
    emit diffMarksChanged();
}

void GraphDecorations::setDimUnchanged(bool dim) {
    if (diffMarks_.dimUnchanged == dim) return;
    diffMarks_.dimUnchanged = dim;
    emit diffMarksChanged();
}

void GraphDecorations::setSuppliedPlaceholders(QSet<QString> names) {
    if (names == supplied_) return;
    supplied_ = std::move(names);
    emit suppliedPlaceholdersChanged();
}

const NodeDecoration* GraphDecorations::weightDecoration(const QString& placeholder) const {
    auto it = weightDecorations_.constFind(placeholder);
    return it == weightDecorations_.constEnd() ? nullptr : &it.value();
}

const NodeDecoration* GraphDecorations::nodeDecoration(int64_t node) const {
    if (node < 0 || node >= static_cast<int64_t>(decorations_.size())) return nullptr;
    const auto& d = decorations_[node];
    return d.isEmpty() ? nullptr : &d;
}

}  // namespace irscope::widgets
