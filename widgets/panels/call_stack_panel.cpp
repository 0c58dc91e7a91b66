#include "widgets/panels/call_stack_panel.h"

#include <QListWidget>
#include <QVBoxLayout>

#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

namespace {
constexpr int kFrameRefRole = Qt::UserRole + 1;
}

CallStackPanel::CallStackPanel(GraphSession* session, QWidget* parent)
    : QWidget(parent), session_(session), list_(new QListWidget(this)) {
    setObjectName(QStringLiteral("callStackPanel"));
    list_->setObjectName(QStringLiteral("callStackList"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(list_);
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        session_->selectionModel()->select(item->data(kFrameRefRole).value<ItemRef>(), true);
    });
    rebuild();
}

QStringList CallStackPanel::frames() const {
    QStringList out;
    for (int i = 0; i < list_->count(); ++i) out << list_->item(i)->text();
    return out;
}

void CallStackPanel::rebuild() {
    list_->clear();
    const auto* doc = session_->document();
    const auto* tree = session_->moduleTree();
    const int64_t node = session_->selectionModel()->runCursor();
    if (!doc || node < 0 || node >= static_cast<int64_t>(doc->graph.nodes.size())) {
        auto* idle = new QListWidgetItem(tr("(not running: the next node to run appears here)"), list_);
        idle->setFlags(Qt::NoItemFlags);
        return;
    }
    const auto& n = doc->graph.nodes[static_cast<size_t>(node)];
    QFont bold = list_->font();
    bold.setBold(true);
    // Inside a higher-order op: the subgraph's next node, then the subgraph
    // and its iteration, then the op that called it, like a call's frame.
    const auto& frame = session_->selectionModel()->subgraphFrame();
    if (frame && frame->node == node && frame->subgraph >= 0 &&
        frame->subgraph < static_cast<int32_t>(n.subgraphs.size()) && n.subgraphs[frame->subgraph].graph) {
        const auto& sub = n.subgraphs[static_cast<size_t>(frame->subgraph)];
        const auto& inner = sub.graph->nodes;
        QListWidgetItem* next;
        if (frame->cursor < static_cast<int64_t>(inner.size())) {
            const auto& in = inner[static_cast<size_t>(frame->cursor)];
            next = new QListWidgetItem(QStringLiteral("▶ %1    %2").arg(q(in.name), q(in.shortOpName())), list_);
            next->setData(kFrameRefRole,
                          QVariant::fromValue(ItemRef::subgraphNode(node, frame->subgraph, frame->cursor, q(in.name))));
        } else {
            next = new QListWidgetItem(tr("▶ (every node of %1 ran)").arg(q(sub.name)), list_);
            next->setData(kFrameRefRole, QVariant::fromValue(ItemRef::node(node, q(n.name))));
        }
        next->setFont(bold);
        auto* call = new QListWidgetItem(
            tr("%1    iteration %2 of %3").arg(q(sub.name)).arg(frame->iteration + 1).arg(frame->iterationsOfIt),
            list_);
        call->setData(kFrameRefRole, QVariant::fromValue(ItemRef::node(node, q(n.name))));
        auto* op = new QListWidgetItem(QStringLiteral("%1    %2").arg(q(n.name), q(n.shortOpName())), list_);
        op->setData(kFrameRefRole, QVariant::fromValue(ItemRef::node(node, q(n.name))));
    } else {
        auto* top = new QListWidgetItem(QStringLiteral("▶ %1    %2").arg(q(n.name), q(n.shortOpName())), list_);
        top->setData(kFrameRefRole, QVariant::fromValue(ItemRef::node(node, q(n.name))));
        top->setFont(bold);
    }
    if (!tree) return;
    const auto* kinds = session_->moduleKinds();
    auto path = tree->pathFromRoot(tree->moduleOfNode(node));
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
        const auto& m = tree->module(*it);
        if (m.isList) continue;  // a ModuleList is a container, not a frame of execution
        QString text = *it == modules::kRootModule ? tr("model") : q(m.path);
        if (kinds) text += QStringLiteral("    [%1]").arg(q((*kinds)[static_cast<size_t>(*it)]));
        auto* item = new QListWidgetItem(text, list_);
        item->setData(kFrameRefRole,
                      QVariant::fromValue(*it == modules::kRootModule ? ItemRef{} : ItemRef::module(*it, q(m.path))));
    }
}

namespace {

const bool callStackPanelRegistered = registerPanel({
    .id = kCallStackPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Call Stack"),
    .order = 5,
    .make = [](const PanelContext& c) -> QWidget* { return new CallStackPanel(c.session); },
    .where = {Qt::RightDockWidgetArea, {}, kModulesPanel},
});

}  // namespace

}  // namespace irscope::widgets
