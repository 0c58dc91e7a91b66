#include "widgets/panels/search_panel.h"

#include <QAction>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/common/panel_registry.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

namespace {
constexpr int kMaxListed = 2000;  // the list shows this many; the count and highlight cover all
}

SearchPanel::SearchPanel(GraphSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    setObjectName(QStringLiteral("searchPanel"));
    edit_ = new QLineEdit(this);
    edit_->setObjectName(QStringLiteral("searchEdit"));
    edit_->setPlaceholderText(tr("Nodes, op types, tensors, weights…"));
    edit_->setClearButtonEnabled(true);
    edit_->installEventFilter(this);
    count_ = new QLabel(this);
    count_->setObjectName(QStringLiteral("searchCount"));
    auto* prev = new QToolButton(this);
    prev->setArrowType(Qt::UpArrow);
    prev->setToolTip(tr("Previous match (Shift+Enter)"));
    auto* nxt = new QToolButton(this);
    nxt->setArrowType(Qt::DownArrow);
    nxt->setToolTip(tr("Next match (Enter)"));
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("searchResults"));
    list_->setUniformItemSizes(true);

    auto* top = new QHBoxLayout;
    top->addWidget(edit_, 1);
    top->addWidget(prev);
    top->addWidget(nxt);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addLayout(top);
    lay->addWidget(count_);
    lay->addWidget(list_, 1);

    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    connect(debounce_, &QTimer::timeout, this, &SearchPanel::runSearch);
    connect(edit_, &QLineEdit::textChanged, this, [this] {
        const auto* doc = session_->document();
        // Instant on small graphs; a short pause on big ones so typing stays fluid.
        debounce_->start(doc && doc->graph.nodes.size() > 20000 ? 150 : 0);
    });
    connect(prev, &QToolButton::clicked, this, &SearchPanel::previous);
    connect(nxt, &QToolButton::clicked, this, &SearchPanel::next);
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) { go(list_->row(item)); });
    connect(session_, &GraphSession::layoutChanged, this, &SearchPanel::searchAgainInPlace);
    updateCount();
}

void SearchPanel::focusSearch() {
    edit_->setFocus(Qt::ShortcutFocusReason);
    edit_->selectAll();
}

void SearchPanel::runSearch() {
    debounce_->stop();
    hits_ = session_->selectionModel()->find(edit_->text());
    current_ = -1;
    list_->setUpdatesEnabled(false);
    list_->clear();
    const auto* doc = session_->document();
    for (size_t i = 0; i < hits_.size() && i < static_cast<size_t>(kMaxListed); ++i) {
        const ItemRef& ref = hits_[i];
        QString text = session_->displayName(ref);
        if (ref.isNode() && doc)
            text += QStringLiteral("  —  ") + QString::fromStdString(doc->graph.nodes[ref.index].shortOpName());
        else if (ref.kind == RefKind::Weight)
            text += tr("  —  weight");
        else if (ref.kind == RefKind::GraphInput)
            text += tr("  —  input");
        list_->addItem(text);
    }
    if (hits_.size() > static_cast<size_t>(kMaxListed))
        list_->addItem(tr("… %1 more (keep typing to narrow)").arg(hits_.size() - kMaxListed));
    list_->setUpdatesEnabled(true);
    session_->selectionModel()->setHighlight(hits_);
    updateCount();
}

// The layout changed (a module opened to show the current match, weights
// toggled): the hits are searched again, and the current one stays current,
// so Enter goes on to the next match rather than back to the first.
void SearchPanel::searchAgainInPlace() {
    const bool had = current_ >= 0 && current_ < static_cast<int>(hits_.size());
    const ItemRef at = had ? hits_[static_cast<size_t>(current_)] : ItemRef{};
    runSearch();
    if (!had) return;
    const auto it = std::find(hits_.begin(), hits_.end(), at);
    if (it == hits_.end()) return;
    current_ = static_cast<int>(it - hits_.begin());
    if (current_ < list_->count()) list_->setCurrentRow(current_);
    updateCount();
}

void SearchPanel::updateCount() {
    if (edit_->text().trimmed().isEmpty())
        count_->setText(QString());
    else if (hits_.empty())
        count_->setText(tr("no match"));
    else if (current_ < 0)
        count_->setText(tr("%n match(es)", "", static_cast<int>(hits_.size())));
    else
        count_->setText(tr("%1 of %2").arg(current_ + 1).arg(hits_.size()));
}

void SearchPanel::go(int index) {
    if (hits_.empty() || index < 0 || index >= static_cast<int>(hits_.size())) return;
    current_ = index;
    if (index < list_->count()) list_->setCurrentRow(index);
    // A copy: selecting a match in a closed module opens it, and the new
    // layout searches again (searchAgainInPlace), replacing hits_.
    const ItemRef hit = hits_[static_cast<size_t>(index)];
    session_->selectionModel()->select(hit, true);
    updateCount();
}

void SearchPanel::next() {
    if (debounce_->isActive()) runSearch();
    if (hits_.empty()) return;
    go((current_ + 1) % static_cast<int>(hits_.size()));
}

void SearchPanel::previous() {
    if (debounce_->isActive()) runSearch();
    if (hits_.empty()) return;
    const int n = static_cast<int>(hits_.size());
    go(current_ <= 0 ? n - 1 : current_ - 1);
}

bool SearchPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == edit_ && event->type() == QEvent::KeyPress) {
        auto* ke = static_cast<QKeyEvent*>(event);
        if (ke->key() == Qt::Key_Return || ke->key() == Qt::Key_Enter) {
            if (ke->modifiers() & Qt::ShiftModifier)
                previous();
            else
                next();
            return true;
        }
        if (ke->key() == Qt::Key_Escape) {
            edit_->clear();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void SearchPanel::documentOpened(bool sameModel) {
    // A query for another model finds nothing in this one: it goes (clearing runs the search).
    if (!sameModel && !edit_->text().isEmpty())
        edit_->clear();
    else
        runSearch();
}

namespace {

// Go ▸ Find (Ctrl+F raises this dock and focuses the box), Find Next (F3)
// and Find Previous (Shift+F3), at the top of the Go menu.
void addFindActions(QWidget* panel, QDockWidget* dock, const PanelContext& c) {
    auto* search = static_cast<SearchPanel*>(panel);
    QMenu* go = c.window->goMenu();
    QAction* first = go->actions().value(0);
    auto* find = new QAction(QObject::tr("&Find…"), go);
    QObject::connect(find, &QAction::triggered, search, [search, dock] {
        dock->show();
        dock->raise();
        search->focusSearch();
    });
    find->setShortcut(QKeySequence::Find);
    auto* next = new QAction(QObject::tr("Find &Next"), go);
    QObject::connect(next, &QAction::triggered, search, &SearchPanel::next);
    next->setShortcut(QKeySequence::FindNext);
    auto* previous = new QAction(QObject::tr("Find &Previous"), go);
    QObject::connect(previous, &QAction::triggered, search, &SearchPanel::previous);
    previous->setShortcut(QKeySequence::FindPrevious);
    go->insertActions(first, {find, next, previous});
    go->insertSeparator(first);
    for (QAction* a : {find, next, previous}) c.window->addDocumentAction(a);
}

const bool searchPanelRegistered = registerPanel({
    .id = kSearchPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Search"),
    .order = 2,
    .make = [](const PanelContext& c) -> QWidget* { return new SearchPanel(c.session); },
    .where = {Qt::RightDockWidgetArea, {}, kPropertiesPanel},
    .installed = addFindActions,
});

}  // namespace

}  // namespace irscope::widgets
