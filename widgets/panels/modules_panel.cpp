#include "widgets/panels/modules_panel.h"

#include <algorithm>

#include <QFontMetrics>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include "widgets/common/name_pattern.h"
#include "widgets/common/panel_registry.h"
#include "widgets/common/view_state.h"
#include "widgets/panels/module_tree_model.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

namespace {
// Keeps a module whose path matches, and (recursive filtering) its parents.
class ModulePathFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setPattern(NamePattern p) {
        pattern_ = std::move(p);
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        if (pattern_.isEmpty()) return true;
        const QModelIndex i = sourceModel()->index(row, ModuleTreeModel::Name, parent);
        return pattern_.matches(i.data(Qt::ToolTipRole).toString());  // the whole path
    }

private:
    NamePattern pattern_;
};
}  // namespace

ModulesPanel::ModulesPanel(GraphSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      model_(new ModuleTreeModel(session, this)),
      proxy_(new ModulePathFilter(this)),
      filter_(new QLineEdit(this)),
      debounce_(new QTimer(this)),
      view_(new QTreeView(this)) {
    setObjectName(QStringLiteral("modulesPanel"));
    // The key its column state is saved under (view_state.h); renamed when the
    // columns changed (sizes hidden, widths capped), so an older saved state
    // with every column fitted to its contents does not come back.
    view_->setObjectName(QStringLiteral("moduleTree"));
    filter_->setObjectName(QStringLiteral("modulesFilter"));
    filter_->setPlaceholderText(tr("Filter modules (text, or /regex/)"));
    filter_->setClearButtonEnabled(true);
    proxy_->setSourceModel(model_);
    proxy_->setRecursiveFilteringEnabled(true);
    view_->setModel(proxy_);
    view_->setTextElideMode(Qt::ElideMiddle);  // the end of a path tells modules apart
    view_->setUniformRowHeights(true);         // tens of thousands of rows scroll smoothly
    view_->setAlternatingRowColors(true);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setExpandsOnDoubleClick(false);  // double-click opens the module in the graph instead
    view_->header()->setStretchLastSection(false);
    view_->header()->setSectionResizeMode(ModuleTreeModel::Name, QHeaderView::Stretch);
    // The other columns fit their contents up to a cap, and the user may resize
    // them: fitted without a cap (ResizeToContents) a long class name and six
    // numbers took a 400 px dock, and every module name read "e…s".
    for (int c = ModuleTreeModel::Kind; c < ModuleTreeModel::ColumnCount; ++c)
        view_->header()->setSectionResizeMode(c, QHeaderView::Interactive);
    // Fitting reads the first 1,000 rows of a column by default, through the
    // style, for every column: on a 100,000-node LLM's module tree that was
    // the longest part of the UI thread's turns while it opens. A hundred
    // rows show the widths as well (the value tables do the same).
    view_->header()->setResizeContentsPrecision(100);
    // The sizes (weights, parameters) are hidden at first: the dock shares the
    // right column, and the names come first. The header's context menu shows
    // any column (Qt Creator's and Visual Studio's tree views do the same);
    // the choice is kept with the column widths (view_state.h).
    view_->header()->setSectionHidden(ModuleTreeModel::Weights, true);
    view_->header()->setSectionHidden(ModuleTreeModel::Parameters, true);
    view_->header()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view_->header(), &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        QMenu menu(this);
        for (int c = ModuleTreeModel::Kind; c < ModuleTreeModel::ColumnCount; ++c) {
            QAction* a = menu.addAction(model_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
            a->setCheckable(true);
            a->setChecked(!view_->header()->isSectionHidden(c));
            connect(a, &QAction::toggled, this, [this, c](bool on) {
                view_->header()->setSectionHidden(c, !on);
                fitColumns();
            });
        }
        menu.exec(view_->header()->mapToGlobal(at));
    });
    fitPause_ = new QTimer(this);
    fitPause_->setSingleShot(true);
    connect(fitPause_, &QTimer::timeout, this, &ModulesPanel::fitColumns);
    const auto fitSoon = [this] { fitPause_->start(0); };
    connect(proxy_, &QAbstractItemModel::modelReset, fitPause_, fitSoon);
    connect(proxy_, &QAbstractItemModel::layoutChanged, fitPause_, fitSoon);
    connect(proxy_, &QAbstractItemModel::dataChanged, fitPause_, fitSoon);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(filter_);
    layout->addWidget(view_);

    debounce_->setSingleShot(true);
    connect(debounce_, &QTimer::timeout, this, &ModulesPanel::applyFilter);
    connect(filter_, &QLineEdit::textChanged, this, [this] {
        // Instant on small trees; a short pause on a 384-expert MoE's 70,000 modules.
        const auto* tree = session_->moduleTree();
        debounce_->start(tree && tree->size() > 2000 ? 150 : 0);
    });

    connect(view_, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        const auto id = moduleAt(index);
        if (id < 0 || syncing_) return;
        syncing_ = true;
        session_->selectionModel()->select(
            id == 0 ? ItemRef{} : ItemRef::module(id, QString::fromStdString(session_->moduleTree()->module(id).path)),
            true);
        syncing_ = false;
    });
    connect(view_, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        const auto id = moduleAt(index);
        if (id > 0) session_->toggleModule(id);
    });
}

void ModulesPanel::documentOpened(bool sameModel) {
    if (!sameModel) filter_->clear();  // another model's filter would hide this one's modules
    view_->expandToDepth(1);
}

QModelIndex ModulesPanel::viewIndexOf(int64_t module) const {
    return proxy_->mapFromSource(model_->indexOf(static_cast<modules::ModuleId>(module)));
}

int64_t ModulesPanel::moduleAt(const QModelIndex& viewIndex) const {
    return model_->moduleAt(proxy_->mapToSource(viewIndex));
}

void ModulesPanel::fitColumns() {
    if (userColumns(*view_)) return;  // widths the user set (or restored) stay
    const QFontMetrics fm(view_->font());
    const int margin = 2 * fm.averageCharWidth();
    for (int c = ModuleTreeModel::Kind; c < ModuleTreeModel::ColumnCount; ++c) {
        // A class name ("MultiheadAttention") or a number of up to eight digits; longer ones elide.
        const int cap = fm.horizontalAdvance(c == ModuleTreeModel::Kind ? QStringLiteral("MultiheadAttention")
                                                                        : QStringLiteral("12,345,678")) +
                        margin;
        view_->resizeColumnToContents(c);  // the rows in view and the header
        view_->header()->resizeSection(c, std::min(view_->header()->sectionSize(c), cap));
    }
}

void ModulesPanel::setFilterText(const QString& text) {
    filter_->setText(text);
    applyFilter();
}

void ModulesPanel::applyFilter() {
    debounce_->stop();
    const NamePattern pattern(filter_->text());
    filter_->setStyleSheet(pattern.isValid() ? QString() : QStringLiteral("color:#d0302a"));
    filter_->setToolTip(pattern.isValid() ? QString() : pattern.error());
    static_cast<ModulePathFilter*>(proxy_)->setPattern(pattern);
    if (pattern.isEmpty())
        view_->expandToDepth(1);
    else
        view_->expandAll();  // every match in sight
}

void ModulesPanel::followSelection() {
    if (syncing_) return;
    const int64_t m = session_->moduleOf(session_->selectionModel()->selection());
    const QModelIndex index = proxy_->mapFromSource(model_->indexOf(static_cast<modules::ModuleId>(m < 0 ? 0 : m)));
    if (!index.isValid()) return;
    syncing_ = true;
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) view_->expand(p);
    view_->setCurrentIndex(index);
    view_->scrollTo(index);
    syncing_ = false;
}

namespace {

const bool modulesPanelRegistered = registerPanel({
    .id = kModulesPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Modules"),
    .order = 4,
    .make = [](const PanelContext& c) -> QWidget* { return new ModulesPanel(c.session); },
    .where = {Qt::RightDockWidgetArea, {}, kOpStatsPanel},
});

}  // namespace

}  // namespace irscope::widgets
