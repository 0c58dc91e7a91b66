#include "widgets/debugger/breakpoints_panel.h"

#include <algorithm>
#include <vector>

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/debugger/tensor_viewer_area.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/numeric_checks.h"

namespace irscope::widgets {

namespace {

enum EntryKind { kBreakpoint, kWatch, kGlobalWatch };
constexpr int kKindRole = Qt::UserRole + 1, kNodeRole = Qt::UserRole + 2;

}  // namespace

BreakpointsPanel::BreakpointsPanel(DebugController* c, QWidget* parent)
    : QWidget(parent),
      c_(c),
      list_(new QListWidget(this)),
      remove_(new QPushButton(tr("Remove"), this)),
      removeAll_(new QPushButton(tr("Remove all"), this)) {
    setObjectName(QStringLiteral("breakpointsPanel"));
    list_->setObjectName(QStringLiteral("breakpointsList"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(remove_);
    buttons->addWidget(removeAll_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(list_, 1);
    layout->addLayout(buttons);
    connect(remove_, &QPushButton::clicked, this, &BreakpointsPanel::removeSelected);
    connect(removeAll_, &QPushButton::clicked, this, &BreakpointsPanel::removeAll);
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const qint64 node = item->data(kNodeRole).toLongLong();
        if (node >= 0) c_->session()->selectionModel()->select(ItemRef::node(node), true);
    });
    connect(c_, &DebugController::nodeStatesChanged, this, &BreakpointsPanel::rebuild);
    connect(c_->checks(), &NumericChecks::watchesChanged, this, &BreakpointsPanel::rebuild);
    connect(c_, &DebugController::debuggerReset, this, &BreakpointsPanel::rebuild);
    connect(c_->checks(), &NumericChecks::checksChanged, this, &BreakpointsPanel::rebuild);
    rebuild();
}

QStringList BreakpointsPanel::entries() const {
    QStringList out;
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->flags() & Qt::ItemIsSelectable) out << list_->item(i)->text();
    return out;
}

// From the controller's snapshot only (never the session's lock: this runs
// on every progress tick of a run), and only when the entries changed, so
// that the current row survives.
void BreakpointsPanel::rebuild() {
    struct Entry {
        QString text;
        EntryKind kind;
        qint64 node;
        QString tip;
    };
    std::vector<Entry> entries;
    const LoadedDocument* doc = c_->session()->document();
    const QString noReference =
        c_->checks()->checking() ? QString() : tr("  (no reference yet: the difference part cannot fire)");
    const exec::WatchCondition global = c_->checks()->globalWatch();
    if (global.any())
        entries.push_back(
            {tr("◆ every node: %1").arg(q(exec::watchConditionText(global))) + (global.diff ? noReference : QString()),
             kGlobalWatch, -1, tr("Stops after any node whose output meets the condition (Debug ▸ Watchpoints)")});
    if (doc) {
        const auto& nodes = doc->graph.nodes;
        const auto& infos = c_->nodeInfos();
        for (size_t n = 0; n < infos.size() && n < nodes.size(); ++n)
            if (infos[n].breakpoint) {
                const QString module = c_->moduleEntryOf(static_cast<qint64>(n));
                if (!module.isEmpty())
                    entries.push_back({tr("● entry of %1    (before %2)").arg(module, q(nodes[n].name)), kBreakpoint,
                                       static_cast<qint64>(n),
                                       tr("Module breakpoint: the run stops before the first node inside the "
                                          "module (F9 on the module toggles)")});
                else
                    entries.push_back({tr("● before %1    %2").arg(q(nodes[n].name), q(nodes[n].shortOpName())),
                                       kBreakpoint, static_cast<qint64>(n),
                                       tr("Breakpoint: the run stops before this node (F9 toggles)")});
            }
        for (const auto& [n, cond] : c_->checks()->watches())
            if (n >= 0 && n < static_cast<int64_t>(nodes.size()))
                entries.push_back({tr("◆ after %1: %2").arg(q(nodes[n].name), q(exec::watchConditionText(cond))) +
                                       (cond.diff ? noReference : QString()),
                                   kWatch, n,
                                   tr("Watchpoint: the run stops after this node when its output meets the "
                                      "condition")});
    }
    QStringList texts;
    for (const auto& e : entries) texts << e.text;
    if (texts == shown_ && list_->count() > 0) return;
    shown_ = texts;
    const int row = list_->currentRow();
    list_->clear();
    for (const auto& e : entries) {
        auto* item = new QListWidgetItem(e.text, list_);
        item->setData(kKindRole, e.kind);
        item->setData(kNodeRole, e.node);
        item->setToolTip(e.tip);
    }
    const bool empty = entries.empty();
    if (empty) {
        auto* hint = new QListWidgetItem(
            tr("(none: F9 sets a breakpoint; right-click a node to watch its output; Debug ▸ Watchpoints for all)"),
            list_);
        hint->setFlags(Qt::NoItemFlags);
    } else if (row >= 0) {
        list_->setCurrentRow(std::min(row, list_->count() - 1));
    }
    remove_->setEnabled(!empty);
    removeAll_->setEnabled(!empty);
}

void BreakpointsPanel::removeSelected() {
    QListWidgetItem* item = list_->currentItem();
    if (!item || !(item->flags() & Qt::ItemIsSelectable)) return;
    const qint64 node = item->data(kNodeRole).toLongLong();
    switch (item->data(kKindRole).toInt()) {
    case kBreakpoint: c_->toggleBreakpoint(node); break;
    case kWatch: c_->checks()->setWatch(node, {}); break;
    case kGlobalWatch: c_->checks()->setGlobalWatch({}); break;
    }
}

void BreakpointsPanel::removeAll() {
    c_->checks()->setGlobalWatch({});
    for (const auto& entry : c_->checks()->watches()) c_->checks()->setWatch(entry.first, {});
    const auto& infos = c_->nodeInfos();
    for (size_t n = 0; n < infos.size(); ++n)
        if (infos[n].breakpoint) c_->toggleBreakpoint(static_cast<qint64>(n));
}

void BreakpointsPanel::keyPressEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Delete || e->key() == Qt::Key_Backspace) {
        removeSelected();
        return;
    }
    QWidget::keyPressEvent(e);
}

namespace {

const bool breakpointsPanelRegistered = registerPanel({
    .id = kBreakpointsPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Breakpoints"),
    .order = 26,
    .needs = PanelNeeds::Controller,
    .make = [](const PanelContext& c) -> QWidget* { return new BreakpointsPanel(c.controller); },
    .where = {Qt::BottomDockWidgetArea, {}, kTensorPanel},
});

}  // namespace

}  // namespace irscope::widgets
