#include "widgets/debugger/tensor_viewer_area.h"

#include <QSplitter>
#include <QVBoxLayout>

#include "widgets/common/panel_registry.h"
#include "widgets/debugger/tensor_viewer.h"
#include "widgets/debugger/weights_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/tensor_queries.h"

namespace irscope::widgets {

TensorViewerArea::TensorViewerArea(DebugController* c, QWidget* parent) : QWidget(parent), c_(c) {
    setObjectName(QStringLiteral("tensorViewerArea"));
    split_ = new QSplitter(Qt::Horizontal, this);
    split_->setObjectName(QStringLiteral("tensorViewerSplit"));  // its sizes are kept between launches
    follower_ = new TensorViewer(c, true, split_);
    split_->addWidget(follower_);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(split_);
    connect(follower_, &TensorViewer::pinRequested, this, [this](TensorViewer* v) { pin(v); });
}

std::vector<TensorViewer*> TensorViewerArea::viewers() const {
    std::vector<TensorViewer*> v;
    for (int i = 0; i < split_->count(); ++i)
        if (auto* t = qobject_cast<TensorViewer*>(split_->widget(i))) v.push_back(t);
    return v;
}

TensorViewer* TensorViewerArea::pin(TensorViewer* viewer) {
    if (!viewer || viewer->tensor().isEmpty()) return nullptr;
    auto* p = new TensorViewer(c_, false, split_);
    p->setTensor(viewer->tensor());
    p->showTab(viewer->currentTab());
    split_->addWidget(p);
    c_->tensors()->setPinned(viewer->tensor(), true);
    connect(p, &TensorViewer::closeRequested, this, [this](TensorViewer* v) {
        c_->tensors()->setPinned(v->tensor(), false);
        v->deleteLater();
    });
    return p;
}

namespace {

const bool tensorViewerAreaRegistered = registerPanel({
    .id = kTensorPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Tensor"),
    .order = 20,
    .needs = PanelNeeds::Controller,
    .make = [](const PanelContext& c) -> QWidget* { return new TensorViewerArea(c.controller); },
    .where = {Qt::BottomDockWidgetArea, kWeightsPanel, {}},
});

}  // namespace

}  // namespace irscope::widgets
