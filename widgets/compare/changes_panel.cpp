#include "widgets/compare/changes_panel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "widgets/common/panel_registry.h"
#include "widgets/common/view_state.h"
#include "widgets/compare/changes_model.h"
#include "widgets/compare/compare_session.h"
#include "widgets/compare/compare_ui.h"
#include "widgets/session/diff_marks.h"

namespace irscope::widgets {

namespace {
// Hides renamed-only rows unless asked, and filters on the text columns.
class ChangesFilter : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void setShowRenamed(bool show) {
        showRenamed_ = show;
        invalidateFilter();
    }
    void setText(const QString& text) {
        text_ = text;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override {
        const auto* m = sourceModel();
        const auto kind = m->index(row, 0, parent).data(ChangesModel::kKindRole).toInt();
        if (!showRenamed_ && kind == static_cast<int>(diff::ChangeRow::Change::Renamed)) return false;
        if (text_.isEmpty()) return true;
        for (int c = 0; c < ChangesModel::ColumnCount; ++c)
            if (m->index(row, c, parent).data().toString().contains(text_, Qt::CaseInsensitive)) return true;
        return false;
    }

private:
    bool showRenamed_ = false;
    QString text_;
};
}  // namespace

ChangesPanel::ChangesPanel(CompareSession* compare, QWidget* parent)
    : QWidget(parent),
      compare_(compare),
      summary_(new QLabel(this)),
      filter_(new QLineEdit(this)),
      showRenamed_(new QCheckBox(tr("Show renamed"), this)),
      table_(new QTableView(this)),
      model_(new ChangesModel(this)),
      proxy_(new ChangesFilter(this)) {
    summary_->setObjectName(QStringLiteral("changesSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    filter_->setPlaceholderText(tr("Filter changes (name, op, module, detail)"));
    filter_->setClearButtonEnabled(true);
    showRenamed_->setToolTip(
        tr("Nodes that differ only by name: FX renumbers every later node of an op after an insertion"));
    proxy_->setSourceModel(model_);
    table_->setModel(proxy_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(20);
    table_->horizontalHeader()->setStretchLastSection(true);
    // Column widths from the first rows only: a shape change lists all 100,000 nodes.
    table_->horizontalHeader()->setResizeContentsPrecision(200);
    table_->setWordWrap(false);

    auto* top = new QHBoxLayout;
    top->addWidget(filter_, 1);
    top->addWidget(showRenamed_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    layout->addLayout(top);
    layout->addWidget(table_, 1);

    connect(filter_, &QLineEdit::textChanged, this,
            [this](const QString& t) { static_cast<ChangesFilter*>(proxy_)->setText(t); });
    connect(showRenamed_, &QCheckBox::toggled, this,
            [this](bool on) { static_cast<ChangesFilter*>(proxy_)->setShowRenamed(on); });
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& index) {
        if (following_ || !index.isValid()) return;
        compare_->goToRow(index.data(ChangesModel::kRowRole).toInt());
    });
    connect(compare_, &CompareSession::diffReady, this, &ChangesPanel::refresh);
    auto comparing = [this] {
        model_->setRows(nullptr);
        summary_->setText(tr("Comparing…"));
    };
    connect(compare_, &CompareSession::opened, this, comparing);
    connect(compare_, &CompareSession::diffStale, this, comparing);
    connect(compare_, &CompareSession::closed, this, [this] {
        model_->setRows(nullptr);
        summary_->setText(tr("No comparison. File ▸ Compare With… opens a second IR beside this one."));
    });
    connect(compare_, &CompareSession::failed, this, [this](const QString& message) { summary_->setText(message); });
    connect(compare_, &CompareSession::currentRowChanged, this, &ChangesPanel::followCurrentRow);
    // What the comparison holds now: the panel may be made after it opened
    // (the window's panels come after its first frame, `irscope A --compare B`).
    if (compare_->hasDiff()) {
        refresh();
        followCurrentRow(compare_->currentRow());
    } else if (!compare_->failure().isEmpty()) {
        summary_->setText(compare_->failure());
    } else if (compare_->isOpen()) {
        comparing();
    } else
        summary_->setText(tr("No comparison. File ▸ Compare With… opens a second IR beside this one."));
}

int ChangesPanel::visibleRows() const { return proxy_->rowCount(); }

void ChangesPanel::refresh() {
    model_->setRows(compare_->rowsPtr());
    const QString legend =
        QStringLiteral(
            "<span style='color:%1'>■ added</span> &nbsp;<span style='color:%2'>■ removed</span> &nbsp;"
            "<span style='color:%3'>■ changed</span>")
            .arg(DiffMarks::color(DiffMark::Added).name(), DiffMarks::color(DiffMark::Removed).name(),
                 DiffMarks::color(DiffMark::Changed).name());
    summary_->setText(QStringLiteral("<b>%1</b><br>%2 &nbsp; F8 / Shift+F8: next / previous change")
                          .arg(compare_->summary().toHtmlEscaped(), legend));
    if (!userColumns(*table_)) table_->resizeColumnsToContents();  // widths the user set stay
    for (int c = 0; c < ChangesModel::ColumnCount; ++c)
        table_->setColumnWidth(c, std::min(table_->columnWidth(c), c == ChangesModel::DetailCol ? 360 : 200));
}

void ChangesPanel::followCurrentRow(int row) {
    following_ = true;
    const QModelIndex source = model_->index(row, 0);
    const QModelIndex index = source.isValid() ? proxy_->mapFromSource(source) : QModelIndex();
    if (index.isValid()) {
        table_->selectionModel()->setCurrentIndex(index,
                                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        table_->scrollTo(index);
    } else {
        table_->selectionModel()->clearSelection();
    }
    following_ = false;
}

namespace {

// Hidden until a comparison opens (compare_ui.cpp shows it then).
const bool changesPanelRegistered = registerPanel({
    .id = kChangesPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Changes"),
    .order = 200,
    .needs = PanelNeeds::Compare,
    .make = [](const PanelContext& c) -> QWidget* { return new ChangesPanel(c.compare); },
    .where = {Qt::LeftDockWidgetArea, {}, {}},
});

}  // namespace

}  // namespace irscope::widgets
