#include "widgets/debugger/exec_info_panel.h"

#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "core/ir/execution_position.h"
#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"

namespace irscope::widgets {

ExecInfoPanel::ExecInfoPanel(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("execInfoPanel"));
    text_ = new QTextBrowser(this);
    text_->setObjectName(QStringLiteral("execInfoText"));
    text_->setMaximumHeight(150);
    text_->setFrameShape(QFrame::NoFrame);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("<b>Execution</b>"), this);
    lay->addWidget(title);
    lay->addWidget(text_);
    connect(c_, &DebugController::nodeStatesChanged, this, &ExecInfoPanel::rebuild);
    connect(c_, &DebugController::debuggerReset, this, &ExecInfoPanel::rebuild);
    rebuild();
}

QString ExecInfoPanel::text() const { return text_->toPlainText(); }

// A node inside a subgraph: where it stands against the debugger's frame,
// or what its op did.
QString ExecInfoPanel::subgraphNodeHtml(const ItemRef& sel) const {
    const auto* doc = c_->session()->document();
    const auto& infos = c_->nodeInfos();
    if (!doc || sel.index < 0 || sel.index >= static_cast<int64_t>(doc->graph.nodes.size()) ||
        sel.index >= static_cast<int64_t>(infos.size()) || !ir::subgraphAtPath(doc->graph, sel.subgraph))
        return {};
    const QString where = q(sel.subgraph).toHtmlEscaped();
    QString state;
    const auto& frames = c_->frames();
    // The frame standing in the node's subgraph, or in another subgraph of the same op.
    const exec::SubgraphFrame* own = nullptr;
    const exec::SubgraphFrame* sibling = nullptr;
    size_t siblingIndex = 0;
    for (const auto& f : frames) {
        if (f.path == sel.subgraph) own = &f;
        for (size_t k = 0; k < f.subgraphPaths.size(); ++k)
            if (f.path != sel.subgraph && f.subgraphPaths[k] == sel.subgraph) {
                sibling = &f;
                siblingIndex = k;
            }
    }
    const auto counted = c_->subgraphCallCounts().find(sel.subgraph);
    const int64_t soFar = counted == c_->subgraphCallCounts().end() ? 0 : counted->second;
    if (own && own->viewedCall && own->viewedSubgraph == own->subgraph) {
        state = tr("ran (viewing call %1 of %2 of %3; the run stands in call %4)")
                    .arg(own->viewedIteration + 1)
                    .arg(own->iterationsOfIt)
                    .arg(where)
                    .arg(own->iteration + 1);
    } else if (own) {
        const bool innermost = own == &frames.back();
        state = sel.inner < own->cursor                 ? tr("ran (in this call)")
                : sel.inner == own->cursor && innermost ? tr("current (next to run)")
                                                        : tr("not run yet (in this call)");
        state += tr(" · call %1 of %2 of %3").arg(own->iteration + 1).arg(own->iterationsOfIt).arg(where);
    } else if (sibling) {
        const int64_t before = siblingIndex < sibling->callsBefore.size() ? sibling->callsBefore[siblingIndex] : 0;
        state = before == 0 ? tr("not run yet: %1 has not been called where the run stands").arg(where)
                            : tr("ran in %n call(s) of %1 so far", "", static_cast<int>(before)).arg(where);
    } else if (soFar > 0) {
        state = tr("ran in %n call(s) of %1 so far (F11 at its op steps into its calls)", "", static_cast<int>(soFar))
                    .arg(where);
    } else if (infos[static_cast<size_t>(sel.index)].state == exec::NodeState::Done) {
        // No recorded calls to count (a run that frees values records none).
        state = tr("its op ran; inside %1 (F11 at the op steps into its calls)").arg(where);
    } else {
        state = tr("not run yet (inside %1)").arg(where);
    }
    return tr("<table><tr><td>State</td><td><b>%1</b></td></tr></table>").arg(state);
}

void ExecInfoPanel::rebuild() {
    const ItemRef sel = c_->session()->selectionModel()->selection();
    const auto& infos = c_->nodeInfos();
    if (sel.isSubgraphNode()) {
        if (const QString html = subgraphNodeHtml(sel); !html.isEmpty()) {
            text_->setHtml(html);
            return;
        }
    }
    if (!sel.isNode() || sel.index < 0 || sel.index >= (int64_t)infos.size()) {
        text_->setHtml(tr("<i>Select a node to see its run state, time and output size.</i>"));
        return;
    }
    const auto& i = infos[sel.index];
    QString state = q(exec::nodeStateName(i.state));
    if (i.current) state = tr("current (next to run)");
    QString html = tr("<table><tr><td>State</td><td><b>%1</b>%2</td></tr>")
                       .arg(state, i.breakpoint ? tr(" · breakpoint") : QString());
    if (i.state != exec::NodeState::Pending) {
        const double ms = i.seconds * 1e3;
        html += tr("<tr><td>Time</td><td>%1 ms</td></tr>").arg(ms, 0, 'f', ms < 1 ? 4 : 2);
        html += tr("<tr><td>Output size</td><td>%1</td></tr>").arg(q(exec::formatBytes(i.outputBytes)));
    }
    // What a higher-order op did: the branch a cond took, a loop's count.
    const auto* doc = c_->session()->document();
    const bool inGraph = doc && sel.index < static_cast<int64_t>(doc->graph.nodes.size());
    const auto* subgraphs = inGraph ? &doc->graph.nodes[static_cast<size_t>(sel.index)].subgraphs : nullptr;
    if (subgraphs && i.takenSubgraph >= 0 && i.takenSubgraph < static_cast<int32_t>(subgraphs->size())) {
        html += tr("<tr><td>Took</td><td><b>%1</b></td></tr>")
                    .arg(q((*subgraphs)[static_cast<size_t>(i.takenSubgraph)].name).toHtmlEscaped());
        // torch.cond(pred, true_fn, false_fn): the first subgraph is the true branch.
        const auto& node = doc->graph.nodes[static_cast<size_t>(sel.index)];
        if (node.opType == "cond" && !node.inputs.empty())
            html += tr("<tr><td>Predicate</td><td>%1 = <b>%2</b></td></tr>")
                        .arg(q(node.inputs[0].name).toHtmlEscaped(),
                             i.takenSubgraph == 0 ? QStringLiteral("True") : QStringLiteral("False"));
    }
    if (i.iterations >= 0) html += tr("<tr><td>Ran its body</td><td><b>%n time(s)</b></td></tr>", "", i.iterations);
    html += QStringLiteral("</table>");
    if (!i.widened.empty())
        html += tr("<p style='color:#8a6d00'>Computed in float32 from its rounded inputs and rounded back: this "
                   "libtorch has no kernel for its dtype (%1).</p>")
                    .arg(q(i.widened).toHtmlEscaped());
    if (i.needsMissing) html += tr("<p style='color:#d0302a'>Reads a value that is missing (see Diagnostics).</p>");
    if (!i.error.empty()) html += tr("<p style='color:#d0302a'><b>Failed:</b> %1</p>").arg(q(i.error).toHtmlEscaped());
    for (const auto& d : i.diagnostics)
        html += QStringLiteral("<p style='color:#c06000'>%1</p>").arg(q(d).toHtmlEscaped());
    text_->setHtml(html);
}

namespace {

const bool execInfoPanelRegistered = registerPanel({
    .id = kExecInfoSection,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Execution"),
    .order = 50,
    .needs = PanelNeeds::Controller,
    .make = [](const PanelContext& c) -> QWidget* { return new ExecInfoPanel(c.controller); },
    .sectionOf = kPropertiesPanel,
    .sectionEdge = Qt::BottomEdge,
});

}  // namespace

}  // namespace irscope::widgets
