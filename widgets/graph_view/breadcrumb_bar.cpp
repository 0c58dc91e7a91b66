#include "widgets/graph_view/breadcrumb_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

BreadcrumbBar::BreadcrumbBar(GraphSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    setObjectName(QStringLiteral("breadcrumbBar"));
    layout_ = new QHBoxLayout(this);
    layout_->setContentsMargins(6, 1, 6, 1);
    layout_->setSpacing(0);
    connect(session_, &GraphSession::graphLoaded, this, &BreadcrumbBar::rebuild);
    connect(session_->selectionModel(), &GraphSelection::selectionChanged, this, &BreadcrumbBar::rebuild);
    rebuild();
}

QStringList BreadcrumbBar::crumbs() const {
    QStringList out;
    for (int i = 0; i < layout_->count(); ++i) {
        auto* w = layout_->itemAt(i)->widget();
        if (auto* b = qobject_cast<QToolButton*>(w))
            out << b->text();
        else if (auto* l = qobject_cast<QLabel*>(w); l && l->objectName() == QLatin1String("crumbLeaf"))
            out << l->text();
    }
    return out;
}

void BreadcrumbBar::rebuild() {
    while (auto* item = layout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const auto* tree = session_->moduleTree();
    setVisible(tree != nullptr && tree->size() > 1);
    if (!isVisible()) return;
    const ItemRef sel = session_->selectionModel()->selection();
    const int64_t module = std::max<int64_t>(session_->moduleOf(sel), 0);
    bool first = true;
    for (auto m : tree->pathFromRoot(static_cast<modules::ModuleId>(module))) {
        if (!first) {
            auto* sep = new QLabel(QStringLiteral("›"), this);
            sep->setContentsMargins(3, 0, 3, 0);
            layout_->addWidget(sep);
        }
        first = false;
        const auto& mod = tree->module(m);
        auto* b = new QToolButton(this);
        b->setAutoRaise(true);
        b->setText(m == modules::kRootModule ? tr("model") : QString::fromStdString(mod.name));
        b->setToolTip(m == modules::kRootModule ? tr("The whole model") : QString::fromStdString(mod.path));
        connect(b, &QToolButton::clicked, this, [this, m, path = QString::fromStdString(mod.path)] {
            session_->selectionModel()->select(m == modules::kRootModule ? ItemRef{} : ItemRef::module(m, path), true);
        });
        layout_->addWidget(b);
    }
    if (sel.isNode()) {
        layout_->addWidget(new QLabel(QStringLiteral("›"), this));
        auto* leaf = new QLabel(session_->displayName(sel), this);
        leaf->setObjectName(QStringLiteral("crumbLeaf"));
        leaf->setContentsMargins(4, 0, 0, 0);
        QFont f = leaf->font();
        f.setBold(true);
        leaf->setFont(f);
        layout_->addWidget(leaf);
    }
    layout_->addStretch(1);
}

}  // namespace irscope::widgets
