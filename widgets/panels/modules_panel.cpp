#include "widgets/panels/modules_panel.h"

#include <QHeaderView>
#include <QTreeView>
#include <QVBoxLayout>

#include "widgets/panels/module_tree_model.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

ModulesPanel::ModulesPanel(GraphSession* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new ModuleTreeModel(session, this)), view_(new QTreeView(this)) {
    setObjectName(QStringLiteral("modulesPanel"));
    view_->setObjectName(QStringLiteral("modulesTree"));
    view_->setModel(model_);
    view_->setUniformRowHeights(true);  // tens of thousands of rows scroll smoothly
    view_->setAlternatingRowColors(true);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setExpandsOnDoubleClick(false);  // double-click opens the module in the graph instead
    view_->header()->setStretchLastSection(false);
    view_->header()->setSectionResizeMode(ModuleTreeModel::Name, QHeaderView::Stretch);
    for (int c = ModuleTreeModel::Kind; c < ModuleTreeModel::ColumnCount; ++c)
        view_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);

    connect(view_, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        const auto id = model_->moduleAt(index);
        if (id < 0 || syncing_) return;
        syncing_ = true;
        session_->select(
            id == 0 ? ItemRef{} : ItemRef::module(id, QString::fromStdString(session_->moduleTree()->module(id).path)),
            true);
        syncing_ = false;
    });
    connect(view_, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        const auto id = model_->moduleAt(index);
        if (id > 0) session_->toggleModule(id);
    });
    connect(session_, &GraphSession::graphLoaded, this, [this] { view_->expandToDepth(1); });
    connect(session_, &GraphSession::selectionChanged, this, &ModulesPanel::followSelection);
}

void ModulesPanel::followSelection() {
    if (syncing_) return;
    const int64_t m = session_->moduleOf(session_->selection());
    const QModelIndex index = model_->indexOf(static_cast<modules::ModuleId>(m < 0 ? 0 : m));
    if (!index.isValid()) return;
    syncing_ = true;
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) view_->expand(p);
    view_->setCurrentIndex(index);
    view_->scrollTo(index);
    syncing_ = false;
}

}  // namespace irscope::widgets
