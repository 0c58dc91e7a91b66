#include "widgets/graph_view/minimap.h"

#include <algorithm>

#include <QMouseEvent>
#include <QPainter>

#include "widgets/graph_view/graph_renderer.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

Minimap::Minimap(GraphView* view) : QWidget(view), view_(view) {
    setObjectName(QStringLiteral("minimap"));
    setCursor(Qt::PointingHandCursor);
    // See-through: at small window sizes it covers a good part of the view,
    // and an opaque box hid the nodes under it. Solid while the pointer is on it.
    setAttribute(Qt::WA_Hover);
}

bool Minimap::event(QEvent* e) {
    if (e->type() == QEvent::HoverEnter || e->type() == QEvent::HoverLeave) update();
    return QWidget::event(e);
}

void Minimap::invalidate() {
    dirty_ = true;
    update();
}

QSize Minimap::preferredSizeFor(QSize maxSize) const {
    const auto* lay = view_->session()->layout();
    if (!lay || lay->result.bounds.width <= 0 || lay->result.bounds.height <= 0) return {120, 80};
    const auto& b = lay->result.bounds;
    const double s = std::min(maxSize.width() / b.width, maxSize.height() / b.height);
    return {std::max(40, static_cast<int>(b.width * s)) + 2, std::max(40, static_cast<int>(b.height * s)) + 2};
}

QPointF Minimap::scales() const {
    const auto* lay = view_->session()->layout();
    if (!lay) return {1, 1};
    const auto& b = lay->result.bounds;
    const double w = width() - 2, h = height() - 2;
    const double k = std::min(w / b.width, h / b.height);
    constexpr double kMinSide = 24;  // px: a 2,200-layer column stays a column, not a hairline
    return {std::max(k, std::min(w, kMinSide) / b.width), std::max(k, std::min(h, kMinSide) / b.height)};
}

QRectF Minimap::sceneToMap(const QRectF& s) const {
    const auto& b = view_->session()->layout()->result.bounds;
    const QPointF k = scales();
    return {1 + (s.x() - b.x) * k.x(), 1 + (s.y() - b.y) * k.y(), s.width() * k.x(), s.height() * k.y()};
}

QPointF Minimap::mapToScene(const QPointF& p) const {
    const auto& b = view_->session()->layout()->result.bounds;
    const QPointF k = scales();
    return {b.x + (p.x() - 1) / k.x(), b.y + (p.y() - 1) / k.y()};
}

void Minimap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const auto& theme = view_->theme();
    const auto* lay = view_->session()->layout();
    if (!lay) {
        p.fillRect(rect(), theme.background);
        return;
    }
    const qreal dpr = devicePixelRatioF();
    if (dirty_ || cache_.size() != size() * dpr) {
        cache_ = QImage(size() * dpr, QImage::Format_ARGB32_Premultiplied);
        cache_.setDevicePixelRatio(dpr);
        QPainter cp(&cache_);
        RenderRequest rq;
        rq.layout = lay;
        const auto& b = lay->result.bounds;
        const QPointF k = scales();
        rq.target = QRectF(1, 1, b.width * k.x(), b.height * k.y());
        rq.stretch = true;
        rq.sceneRect = QRectF(b.x, b.y, b.width, b.height);
        rq.devicePixelRatio = dpr;
        rq.theme = theme;
        rq.itemFlags = &view_->session()->selectionModel()->itemFlags();
        rq.detail = DetailLevel::Overview;
        cp.fillRect(QRectF(0, 0, width(), height()), theme.background);
        renderGraph(cp, rq);
        dirty_ = false;
    }
    p.setOpacity(underMouse() ? 1.0 : 0.62);
    p.drawImage(QPointF(0, 0), cache_);
    p.setOpacity(1.0);
    QRectF vis = sceneToMap(view_->visibleSceneRect()).intersected(QRectF(rect()).adjusted(0, 0, -1, -1));
    if (vis.width() < 3) vis.adjust(-1.5, 0, 1.5, 0);
    if (vis.height() < 3) vis.adjust(0, -1.5, 0, 1.5);
    QColor fill = theme.selection;
    fill.setAlpha(40);
    p.fillRect(vis, fill);
    p.setPen(QPen(theme.selection, 1.5));
    p.drawRect(vis);
    p.setPen(QPen(theme.edgeOverview, 1));
    p.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
}

void Minimap::mousePressEvent(QMouseEvent* e) {
    if (view_->session()->layout()) view_->centerOnScene(mapToScene(e->position()));
}

void Minimap::mouseMoveEvent(QMouseEvent* e) {
    if ((e->buttons() & Qt::LeftButton) && view_->session()->layout()) view_->centerOnScene(mapToScene(e->position()));
}

}  // namespace irscope::widgets
