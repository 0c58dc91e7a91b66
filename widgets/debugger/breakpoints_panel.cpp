#include "widgets/debugger/breakpoints_panel.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "widgets/common/qt_text.h"
#include "widgets/debugger/tensor_viewer_area.h"
#include "widgets/main_window/panel_registry.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"

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
        if (node >= 0) c_->session()->select(ItemRef::node(node), true);
    });
    connect(c_, &DebugController::nodeStatesChanged, this, &BreakpointsPanel::rebuild);
    connect(c_, &DebugController::watchesChanged, this, &BreakpointsPanel::rebuild);
    connect(c_, &DebugController::debuggerReset, this, &BreakpointsPanel::rebuild);
    rebuild();
}

QStringList BreakpointsPanel::entries() const {
    QStringList out;
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->flags() & Qt::ItemIsSelectable) out << list_->item(i)->text();
    return out;
}

void BreakpointsPanel::rebuild() {
    list_->clear();
    const LoadedDocument* doc = c_->session()->document();
    auto add = [this](const QString& text, EntryKind kind, qint64 node, const QString& tip) {
        auto* item = new QListWidgetItem(text, list_);
        item->setData(kKindRole, kind);
        item->setData(kNodeRole, node);
        item->setToolTip(tip);
    };
    const exec::WatchCondition global = c_->globalWatch();
    if (global.any())
        add(tr("◆ every node: %1").arg(q(exec::watchConditionText(global))), kGlobalWatch, -1,
            tr("Stops after any node whose output meets the condition (Debug ▸ Watchpoints)"));
    if (doc && c_->debugger()) {
        const auto& nodes = doc->graph.nodes;
        for (int64_t n : c_->debugger()->breakpoints())
            if (n >= 0 && n < static_cast<int64_t>(nodes.size()))
                add(tr("● before %1    %2").arg(q(nodes[n].name), q(nodes[n].shortOpName())), kBreakpoint, n,
                    tr("Breakpoint: the run stops before this node (F9 toggles)"));
        for (const auto& [n, cond] : c_->watches())
            if (n >= 0 && n < static_cast<int64_t>(nodes.size()))
                add(tr("◆ after %1: %2").arg(q(nodes[n].name), q(exec::watchConditionText(cond))), kWatch, n,
                    tr("Watchpoint: the run stops after this node when its output meets the condition"));
    }
    const bool empty = list_->count() == 0;
    if (empty) {
        auto* hint = new QListWidgetItem(
            tr("(none: F9 sets a breakpoint; right-click a node to watch its output; Debug ▸ Watchpoints for all)"),
            list_);
        hint->setFlags(Qt::NoItemFlags);
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
    case kWatch: c_->setWatch(node, {}); break;
    case kGlobalWatch: c_->setGlobalWatch({}); break;
    }
}

void BreakpointsPanel::removeAll() {
    c_->setGlobalWatch({});
    for (const auto& entry : c_->watches()) c_->setWatch(entry.first, {});
    if (c_->debugger())
        for (int64_t n : c_->debugger()->breakpoints()) c_->toggleBreakpoint(n);
}

void BreakpointsPanel::keyPressEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Delete || e->key() == Qt::Key_Backspace) {
        removeSelected();
        return;
    }
    QWidget::keyPressEvent(e);
}

namespace {

const bool registered = registerPanel({
    .id = kBreakpointsPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Breakpoints"),
    .order = 26,
    .make = [](const PanelContext& c) -> QWidget* { return new BreakpointsPanel(c.controller); },
    .where = {Qt::BottomDockWidgetArea, {}, kTensorPanel},
});

}  // namespace

}  // namespace irscope::widgets
