#include "widgets/panels/call_stack_panel.h"

#include <QListWidget>
#include <QVBoxLayout>

#include "core/ir/execution_position.h"
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
    // Inside higher-order ops: the innermost subgraph's next node, then
    // each frame from the innermost out (its subgraph and call, then the op
    // that called it), like a call stack's frames.
    const auto& frames = session_->selectionModel()->subgraphFrames();
    const auto graphOf = [&](const std::string& where) -> const ir::Graph* {
        return where.empty() ? &doc->graph : ir::subgraphAtPath(doc->graph, where);
    };
    // The op of a frame, as a selection: the program's node, or a node inside a subgraph.
    const auto opRef = [&](const exec::SubgraphFrame& f, const ir::OpNode& op) {
        return f.where.empty() ? ItemRef::node(f.node, q(op.name))
                               : ItemRef::subgraphNode(node, f.where, f.node, q(op.name));
    };
    bool framesShown = !frames.empty() && frames.front().node == node;
    for (const auto& f : frames) {
        const ir::Graph* in = graphOf(f.where);
        const ir::Graph* sub = ir::subgraphAtPath(doc->graph, f.path);
        if (!in || !sub || f.node < 0 || f.node >= static_cast<int64_t>(in->nodes.size())) framesShown = false;
    }
    if (framesShown) {
        const auto& innermost = frames.back();
        const ir::Graph& sub = *ir::subgraphAtPath(doc->graph, innermost.path);
        QListWidgetItem* next;
        if (innermost.cursor < static_cast<int64_t>(sub.nodes.size())) {
            const auto& in = sub.nodes[static_cast<size_t>(innermost.cursor)];
            next = new QListWidgetItem(QStringLiteral("▶ %1    %2").arg(q(in.name), q(in.shortOpName())), list_);
            next->setData(kFrameRefRole, QVariant::fromValue(ItemRef::subgraphNode(node, innermost.path,
                                                                                   innermost.cursor, q(in.name))));
        } else {
            const auto& op = graphOf(innermost.where)->nodes[static_cast<size_t>(innermost.node)];
            next = new QListWidgetItem(tr("▶ (every node of %1 ran)").arg(q(innermost.path)), list_);
            next->setData(kFrameRefRole, QVariant::fromValue(opRef(innermost, op)));
        }
        next->setFont(bold);
        for (auto f = frames.rbegin(); f != frames.rend(); ++f) {
            const auto& op = graphOf(f->where)->nodes[static_cast<size_t>(f->node)];
            const std::string& subName = op.subgraphs[static_cast<size_t>(f->subgraph)].name;
            auto* call = new QListWidgetItem(
                tr("%1    iteration %2 of %3").arg(q(subName)).arg(f->iteration + 1).arg(f->iterationsOfIt), list_);
            call->setData(kFrameRefRole, QVariant::fromValue(opRef(*f, op)));
            auto* opItem = new QListWidgetItem(QStringLiteral("%1    %2").arg(q(op.name), q(op.shortOpName())), list_);
            opItem->setData(kFrameRefRole, QVariant::fromValue(opRef(*f, op)));
        }
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
