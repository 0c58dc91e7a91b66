#include "widgets/debugger/iteration_selector.h"

#include <algorithm>

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include "widgets/common/panel_registry.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"

namespace irscope::widgets {

IterationSelector::IterationSelector(DebugController* c, QWidget* parent)
    : QWidget(parent), c_(c), where_(new QLabel(this)), spin_(new QSpinBox(this)), count_(new QLabel(this)) {
    setObjectName(QStringLiteral("iterationSelector"));
    spin_->setObjectName(QStringLiteral("iterationSpin"));
    spin_->setToolTip(tr("Show another iteration of this subgraph: its values are kept from the run"));
    auto* lay = new QHBoxLayout(this);
    lay->setContentsMargins(4, 2, 4, 2);
    lay->addWidget(where_);
    lay->addWidget(spin_);
    lay->addWidget(count_);
    lay->addStretch(1);
    connect(spin_, &QSpinBox::valueChanged, this, [this](int v) {
        if (!updating_) choose(v);
    });
    connect(c_, &DebugController::snapshotChanged, this, &IterationSelector::rebuild);
    connect(c_, &DebugController::debuggerReset, this, &IterationSelector::rebuild);
    rebuild();
}

int IterationSelector::iteration() const {
    const auto* f = c_->frame();
    if (!f) return 0;
    return static_cast<int>((f->viewedCall ? f->viewedIteration : f->iteration) + 1);
}
int IterationSelector::iterations() const { return c_->frame() ? static_cast<int>(c_->frame()->iterationsOfIt) : 0; }

void IterationSelector::choose(int iteration) {
    const auto* f = c_->frame();
    if (!f) return;
    const auto& calls = c_->frameCalls();
    const int32_t subgraph = f->viewedCall ? f->viewedSubgraph : f->subgraph;
    for (size_t k = 0; k < calls.size(); ++k)
        if (calls[k].subgraph == subgraph && calls[k].iteration == iteration - 1) {
            c_->viewInnermostCall(static_cast<qint64>(k));
            return;
        }
}

void IterationSelector::rebuild() {
    const auto* f = c_->frame();
    setVisible(f != nullptr);
    if (!f) return;
    // The innermost frame's subgraph, by its path ("while_loop/while_loop_body_graph_0/cond/true_graph_0").
    const int32_t shown = f->viewedCall ? f->viewedSubgraph : f->subgraph;
    const QString sub = q(shown >= 0 && static_cast<size_t>(shown) < f->subgraphPaths.size()
                              ? f->subgraphPaths[static_cast<size_t>(shown)]
                              : f->path);
    updating_ = true;
    where_->setText(f->viewedCall ? tr("%1, viewing iteration").arg(sub) : tr("%1, iteration").arg(sub));
    spin_->setRange(1, static_cast<int>(std::max<int64_t>(1, f->iterationsOfIt)));
    spin_->setValue(iteration());
    // Looking at another call is not moving the run: said beside it.
    count_->setText(f->viewedCall ? tr("of %1 · the run stands in iteration %2 (F10 goes back there)")
                                        .arg(f->iterationsOfIt)
                                        .arg(f->iteration + 1)
                                  : tr("of %1").arg(f->iterationsOfIt));
    updating_ = false;
}

namespace {

const bool iterationSelectorRegistered = registerPanel({
    .id = kIterationSection,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Iteration"),
    .order = 51,
    .needs = PanelNeeds::Controller,
    .make = [](const PanelContext& c) -> QWidget* { return new IterationSelector(c.controller); },
    .sectionOf = kCallStackPanel,
    .sectionEdge = Qt::TopEdge,
});

}  // namespace

}  // namespace irscope::widgets
