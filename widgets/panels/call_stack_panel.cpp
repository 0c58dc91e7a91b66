#include "widgets/panels/call_stack_panel.h"

#include <QListWidget>
#include <QVBoxLayout>

#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

namespace {
constexpr int kRefRole = Qt::UserRole + 1;
}

CallStackPanel::CallStackPanel(GraphSession* session, QWidget* parent)
    : QWidget(parent), session_(session), list_(new QListWidget(this)) {
    setObjectName(QStringLiteral("callStackPanel"));
    list_->setObjectName(QStringLiteral("callStackList"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(list_);
    connect(list_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { session_->select(item->data(kRefRole).value<ItemRef>(), true); });
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
    const int64_t node = session_->currentNode();
    if (!doc || node < 0 || node >= static_cast<int64_t>(doc->graph.nodes.size())) {
        auto* idle = new QListWidgetItem(tr("(not running: the current node appears here)"), list_);
        idle->setFlags(Qt::NoItemFlags);
        return;
    }
    const auto& n = doc->graph.nodes[static_cast<size_t>(node)];
    auto* top = new QListWidgetItem(QStringLiteral("▶ %1    %2").arg(q(n.name), q(n.shortOpName())), list_);
    top->setData(kRefRole, QVariant::fromValue(ItemRef::node(node, q(n.name))));
    QFont bold = top->font();
    bold.setBold(true);
    top->setFont(bold);
    if (!tree) return;
    const auto* kinds = session_->moduleKinds();
    auto path = tree->pathFromRoot(tree->moduleOfNode(node));
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
        const auto& m = tree->module(*it);
        if (m.isList) continue;  // a ModuleList is a container, not a frame of execution
        QString text = *it == modules::kRootModule ? tr("model") : q(m.path);
        if (kinds) text += QStringLiteral("    [%1]").arg(q((*kinds)[static_cast<size_t>(*it)]));
        auto* item = new QListWidgetItem(text, list_);
        item->setData(kRefRole,
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
