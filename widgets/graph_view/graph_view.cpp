#include "widgets/graph_view/graph_view.h"

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QImage>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QRubberBand>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include "widgets/graph_view/graph_renderer.h"
#include "widgets/graph_view/minimap.h"
#include "widgets/graph_view/overlay_legend.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

GraphView::GraphView(GraphSession* session, QWidget* parent)
    : QAbstractScrollArea(parent), session_(session), theme_(GraphTheme::fromPalette(palette())) {
    setObjectName(QStringLiteral("graphView"));
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(false);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setFrameShape(QFrame::NoFrame);
    horizontalScrollBar()->setSingleStep(24);
    verticalScrollBar()->setSingleStep(24);
    minimap_ = new Minimap(this);
    minimap_->hide();
    legend_ = new OverlayLegend(this);
    connect(session_->decorations(), &GraphDecorations::overlayLegendChanged, this, [this] {
        legend_->setLegend(session_->decorations()->overlayLegendTitle(), session_->decorations()->overlayLegend());
        placeMinimap();
    });
    runLegend_ = new OverlayLegend(this);
    runLegend_->setObjectName(QStringLiteral("runLegend"));
    connect(session_->decorations(), &GraphDecorations::decorationsChanged, this, &GraphView::updateRunLegend);
    connect(session_, &GraphSession::graphLoaded, this, &GraphView::updateRunLegend);

    connect(session_, &GraphSession::graphLoaded, this, &GraphView::onGraphLoaded);
    connect(session_, &GraphSession::layoutChanged, this, &GraphView::onLayoutChanged);
    // Whoever opens or closes a module, its box stays where it was on screen
    // (or, when it was off screen, comes into view).
    connect(session_, &GraphSession::moduleToggling, this, [this](int64_t module) {
        const auto* lay = session_->layout();
        const auto items = lay ? lay->itemsOf(ItemRef::module(module)) : std::vector<int32_t>{};
        anchorModule_ = module;
        anchorPos_ = QPointF(-1, -1);
        if (items.empty()) return;
        const auto& r = lay->result.items[items.front()].rect;
        const QPointF at = mapFromScene(QPointF(r.x, r.y));
        if (QRectF(viewport()->rect()).contains(at)) anchorPos_ = at;
    });
    auto repaint = [this] {
        viewport()->update();
        minimap_->invalidate();
    };
    connect(session_->selectionModel(), &GraphSelection::selectionChanged, this, repaint);
    connect(session_->selectionModel(), &GraphSelection::highlightChanged, this, repaint);
    connect(session_->selectionModel(), &GraphSelection::runCursorChanged, this, [this] { viewport()->update(); });
    connect(session_->decorations(), &GraphDecorations::decorationsChanged, this, repaint);
    connect(session_->decorations(), &GraphDecorations::diffMarksChanged, this, repaint);
    connect(session_->selectionModel(), &GraphSelection::focusRequested, this,
            [this](const ItemRef& ref) { centerOn(ref, true); });
}

// ------------------------------------------------------------------ geometry

double GraphView::fitZoom() const {
    const auto* lay = session_->layout();
    if (!lay) return 1;
    const auto& b = lay->result.bounds;
    const QSize vp = viewport()->size();
    if (b.width <= 0 || b.height <= 0 || vp.isEmpty()) return 1;
    return std::min(vp.width() / b.width, vp.height() / b.height);
}

double GraphView::minZoom() const { return std::min(fitZoom() * 0.5, 0.05); }

QPointF GraphView::origin() const { return originFor(viewport()->size()); }

QPointF GraphView::centreFor(const QSize& vp) const {
    return originFor(vp) + QPointF(vp.width(), vp.height()) / (2 * zoom_);
}

QPointF GraphView::originFor(const QSize& vp) const {
    const auto* lay = session_->layout();
    if (!lay) return {0, 0};
    const auto& b = lay->result.bounds;
    const double w = b.width * zoom_, h = b.height * zoom_;
    const double x =
        w <= vp.width() ? b.x - (vp.width() - w) / 2 / zoom_ : b.x + horizontalScrollBar()->value() / zoom_;
    const double y =
        h <= vp.height() ? b.y - (vp.height() - h) / 2 / zoom_ : b.y + verticalScrollBar()->value() / zoom_;
    return {x, y};
}

QPointF GraphView::mapToScene(const QPointF& p) const { return origin() + p / zoom_; }
QPointF GraphView::mapFromScene(const QPointF& s) const { return (s - origin()) * zoom_; }

QRectF GraphView::visibleSceneRect() const {
    const QSize vp = viewport()->size();
    return {origin(), QSizeF(vp.width() / zoom_, vp.height() / zoom_)};
}

QPointF GraphView::viewportPosOf(const ItemRef& ref) const {
    const auto* lay = session_->layout();
    if (!lay) return {-1, -1};
    const auto items = lay->itemsOf(ref);
    if (items.empty()) return {-1, -1};
    const auto c = lay->result.items[items.front()].rect.center();
    return mapFromScene(QPointF(c.x, c.y));
}

void GraphView::updateScrollBars() {
    const auto* lay = session_->layout();
    const QSize vp = viewport()->size();
    if (!lay) {
        horizontalScrollBar()->setRange(0, 0);
        verticalScrollBar()->setRange(0, 0);
        return;
    }
    const auto& b = lay->result.bounds;
    const int w = static_cast<int>(std::ceil(b.width * zoom_)), h = static_cast<int>(std::ceil(b.height * zoom_));
    horizontalScrollBar()->setRange(0, std::max(0, w - vp.width()));
    verticalScrollBar()->setRange(0, std::max(0, h - vp.height()));
    horizontalScrollBar()->setPageStep(vp.width());
    verticalScrollBar()->setPageStep(vp.height());
}

void GraphView::zoomAround(double zoom, const QPointF& anchor) {
    zoom = std::clamp(zoom, minZoom(), kMaxZoom);
    const auto* lay = session_->layout();
    if (!lay) {
        zoom_ = zoom;
        return;
    }
    const QPointF scenePt = mapToScene(anchor);
    zoom_ = zoom;
    updateScrollBars();
    const auto& b = lay->result.bounds;
    horizontalScrollBar()->setValue(static_cast<int>(std::lround((scenePt.x() - b.x) * zoom_ - anchor.x())));
    verticalScrollBar()->setValue(static_cast<int>(std::lround((scenePt.y() - b.y) * zoom_ - anchor.y())));
    viewport()->update();
    minimap_->update();
    emit zoomChanged(zoom_);
}

void GraphView::setZoom(double zoom) {
    zoomAround(zoom, QPointF(viewport()->width() / 2.0, viewport()->height() / 2.0));
}
void GraphView::zoomIn() { setZoom(zoom_ * 1.25); }
void GraphView::zoomOut() { setZoom(zoom_ / 1.25); }
void GraphView::actualSize() { setZoom(1); }

// The whole drawing in the window, whatever the zoom it takes (the first
// view of a large graph instead starts readable from the top).
void GraphView::fitToWindow() {
    zoom_ = std::clamp(std::min(fitZoom(), 1.0), 1e-6, kMaxZoom);
    updateScrollBars();
    horizontalScrollBar()->setValue(0);
    verticalScrollBar()->setValue(0);
    viewport()->update();
    minimap_->update();
    emit zoomChanged(zoom_);
}

// The whole graph when it fits at a readable zoom. Else its width, never
// below readable, from the top (the graph's inputs): a tall graph is read
// top-down and scrolled, not shrunk to a few percent. What is wider than the
// window at a readable zoom starts at the left edge of what the first screen
// shows, so that no box there is cut by the window's edge. The width fitted
// leaves the overview map's corner free.
void GraphView::showReadableFromTheTop() {
    const double fit = fitZoom();
    const auto* lay = session_->layout();
    if (fit >= kReadableZoom || !lay) {
        zoom_ = std::clamp(std::min(fit, 1.0), 1e-6, kMaxZoom);
        updateScrollBars();
    } else {
        const auto& b = lay->result.bounds;
        // The overview map holds the bottom-right corner: the graph's width
        // fits beside it, so that it covers none of the graph's right edge.
        const double beside = minimapVisible() ? minimap_->width() + 24.0 : 0.0;
        const double width = std::max(viewport()->width() * 0.5, viewport()->width() - beside);
        const double widthFit = b.width > 0 ? width / b.width : 1.0;
        zoom_ = std::clamp(widthFit, kReadableZoom, 1.0);
        updateScrollBars();
        verticalScrollBar()->setValue(0);
        if (widthFit < kReadableZoom) {
            // The leftmost item of the first screenful, a margin from the edge.
            const double bandBottom = b.y + viewport()->height() / zoom_;
            double left = b.right();
            for (const auto& it : lay->result.items)
                if (it.kind != layout::ItemKind::Frame && it.rect.y < bandBottom) left = std::min(left, it.rect.x);
            const double margin = 12 / zoom_;
            horizontalScrollBar()->setValue(static_cast<int>(std::max(0.0, (left - margin - b.x) * zoom_)));
        }
    }
    viewport()->update();
    minimap_->update();
    emit zoomChanged(zoom_);
}

void GraphView::centerOnScene(const QPointF& s) {
    const auto* lay = session_->layout();
    if (!lay) return;
    const auto& b = lay->result.bounds;
    horizontalScrollBar()->setValue(static_cast<int>(std::lround((s.x() - b.x) * zoom_ - viewport()->width() / 2.0)));
    verticalScrollBar()->setValue(static_cast<int>(std::lround((s.y() - b.y) * zoom_ - viewport()->height() / 2.0)));
    viewport()->update();
    minimap_->update();
}

void GraphView::centerOn(const ItemRef& ref, bool zoomToRead) {
    const auto* lay = session_->layout();
    if (!lay) return;
    const auto items = lay->itemsOf(ref);
    if (items.empty()) return;
    const auto c = lay->result.items[items.front()].rect.center();
    if (zoomToRead && zoom_ < kTextFromZoom + 0.15) {
        zoom_ = 1;
        updateScrollBars();
        emit zoomChanged(zoom_);
    }
    centerOnScene(QPointF(c.x, c.y));
}

bool GraphView::ensureVisible(const ItemRef& ref) {
    const auto* lay = session_->layout();
    if (!lay) return false;
    const auto items = lay->itemsOf(ref);
    if (items.empty()) return false;
    const auto& r = lay->result.items[items.front()].rect;
    // A few pixels of margin: a box touching the viewport's edge reads as cut.
    const double margin = 8 / std::max(zoom_, 1e-9);
    const QRectF box(r.x - margin, r.y - margin, r.width + 2 * margin, r.height + 2 * margin);
    if (visibleSceneRect().contains(box)) return false;
    centerOn(ref);
    return true;
}

void GraphView::onGraphLoaded() {
    showReadableFromTheTop();
    minimap_->invalidate();
    placeMinimap();
}

void GraphView::onLayoutChanged() {
    const QPointF centre = mapToScene(QPointF(viewport()->width() / 2.0, viewport()->height() / 2.0));
    updateScrollBars();
    minimap_->invalidate();
    placeMinimap();
    const auto anchorItems =
        anchorModule_ >= 0 ? session_->layout()->itemsOf(ItemRef::module(anchorModule_)) : std::vector<int32_t>{};
    const int64_t anchored = anchorModule_;
    anchorModule_ = -1;
    if (!anchorItems.empty() && anchorPos_.x() < 0) {
        // Toggled while off screen (from the Modules dock): brought into view.
        centerOnScene(centre);
        ensureVisible(ItemRef::module(anchored));
    } else if (!anchorItems.empty()) {
        // The module toggled by the user stays under the mouse: same top-left on screen.
        const auto& r = session_->layout()->result.items[anchorItems.front()].rect;
        const auto& b = session_->layout()->result.bounds;
        horizontalScrollBar()->setValue(static_cast<int>(std::lround((r.x - b.x) * zoom_ - anchorPos_.x())));
        verticalScrollBar()->setValue(static_cast<int>(std::lround((r.y - b.y) * zoom_ - anchorPos_.y())));
    } else if (!session_->selectionModel()->selection().isNone() &&
               !session_->layout()->itemsOf(session_->selectionModel()->selection()).empty())
        centerOn(session_->selectionModel()->selection());
    else
        centerOnScene(centre);
    viewport()->update();
}

// ------------------------------------------------------------------ painting

// What the renderer needs for a frame of `size` (device-independent pixels)
// at the current zoom and scroll position; the same for screen and image.
RenderRequest GraphView::frameRequest(const QSizeF& size, qreal devicePixelRatio) const {
    RenderRequest rq;
    rq.layout = session_->layout();
    rq.target = QRectF(QPointF(0, 0), size);
    rq.sceneRect = QRectF(origin(), size / zoom_);
    rq.devicePixelRatio = devicePixelRatio;
    rq.theme = theme_;
    rq.itemFlags = &session_->selectionModel()->itemFlags();
    rq.edgeFlags = &session_->selectionModel()->edgeFlags();
    if (!session_->decorations()->diffMarks().empty()) rq.diff = &session_->decorations()->diffMarks();
    if (session_->decorations()->hasDecorations()) {
        rq.decoration = [s = session_](int64_t n) { return s->decorations()->nodeDecoration(n); };
        rq.weightDecoration = [s = session_](const std::string& ph) {
            return s->decorations()->weightDecoration(QString::fromStdString(ph));
        };
        rq.moduleDecoration = [s = session_](int64_t m) { return s->decorations()->moduleDecoration(m); };
        rq.frameOverlay = [s = session_](int64_t m) { return s->decorations()->moduleOverlayColour(m); };
    }
    rq.frames = &session_->selectionModel()->subgraphFrames();
    rq.callCounts = &session_->selectionModel()->subgraphCallCounts();
    rq.subgraphBreakpoint = [s = session_](const std::string& subgraph, int64_t inner) {
        return s->selectionModel()->hasSubgraphBreakpoint(subgraph, inner);
    };
    return rq;
}

void GraphView::renderFrame(QImage& image) const {
    QPainter p(&image);
    renderGraph(p, frameRequest(QSizeF(image.size()) / image.devicePixelRatio(), image.devicePixelRatio()));
}

void GraphView::paintEvent(QPaintEvent*) {
    QPainter p(viewport());
    const RenderRequest rq = frameRequest(QSizeF(viewport()->size()), viewport()->devicePixelRatioF());
    renderGraph(p, rq);
    if (!rq.layout) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(viewport()->rect(), Qt::AlignCenter,
                   session_->isLoading()
                       ? tr("Loading…")
                       : tr("Open a torch_ir JSON file or a .pt2 archive (Ctrl+O), or drop one here"));
    }
}

// The point at the centre stays at the centre: a dock growing under the view
// must not push the selected node out of sight.
void GraphView::resizeEvent(QResizeEvent* e) {
    // The scroll bars still hold the old position: the old viewport's centre in the scene.
    const bool keep = session_->layout() && !lastViewport_.isEmpty();
    const QPointF centre = keep ? centreFor(lastViewport_) : QPointF();
    // A view at the graph's top (its inputs) or left edge stays there: a
    // scroll bar appearing must not shift the first view off the inputs.
    const bool atTop = verticalScrollBar()->value() == verticalScrollBar()->minimum();
    const bool atLeft = horizontalScrollBar()->value() == horizontalScrollBar()->minimum();
    QAbstractScrollArea::resizeEvent(e);
    updateScrollBars();
    if (keep) centerOnScene(centre);
    if (keep && atTop) verticalScrollBar()->setValue(verticalScrollBar()->minimum());
    if (keep && atLeft) horizontalScrollBar()->setValue(horizontalScrollBar()->minimum());
    lastViewport_ = viewport()->size();
    placeMinimap();
}

void GraphView::scrollContentsBy(int, int) {
    viewport()->update();
    minimap_->update();
    placeLegends();  // what lies under the keys changed
}

bool GraphView::minimapVisible() const { return !minimap_->isHidden(); }

void GraphView::setMinimapVisible(bool visible) {
    minimap_->setVisible(visible);
    placeMinimap();
}

void GraphView::placeMinimap() {
    const QRect vp = viewport()->geometry();
    // At most a fifth of the width and a third of the height: in a narrow view
    // (one side of a comparison) a full-size minimap would hide the graph.
    const QSize bound(std::clamp(vp.width() / 5, 60, 180), std::clamp(vp.height() / 3, 60, 240));
    const QSize size = minimap_->preferredSizeFor(bound);
    minimap_->setGeometry(vp.right() - size.width() - 12, vp.bottom() - size.height() - 12, size.width(),
                          size.height());
    minimap_->raise();
    minimap_->invalidate();
    placeLegends();
}

// Whether any drawn item (not a module's frame, which is background) lies
// under `viewportRect`.
bool GraphView::coversItems(const QRect& viewportRect) const {
    const auto* lay = session_->layout();
    if (!lay) return false;
    const QPointF a = mapToScene(viewportRect.topLeft()), b = mapToScene(viewportRect.bottomRight());
    for (int32_t i : lay->grid.itemsIn(layout::Rect{a.x(), a.y(), b.x() - a.x(), b.y() - a.y()})) {
        const auto& it = lay->result.items[static_cast<size_t>(i)];
        if (layout::isFrameKind(it.kind)) continue;
        const QRectF r(mapFromScene(QPointF(it.rect.x, it.rect.y)),
                       mapFromScene(QPointF(it.rect.right(), it.rect.bottom())));
        if (r.intersects(viewportRect)) return true;
    }
    return false;
}

// The keys never cover a node: each goes to the first corner (bottom-left,
// top-left, top-right; the minimap holds bottom-right) where it covers no
// item, the minimap or the other key; where every corner is taken it stays
// bottom-left, faded, so the nodes under it show through.
void GraphView::placeLegends() {
    const QRect vp = viewport()->geometry();
    std::vector<QRect> taken;
    if (!minimap_->isHidden()) taken.push_back(minimap_->geometry());
    for (OverlayLegend* legend : {legend_, runLegend_}) {
        if (legend->isHidden()) continue;
        const QSize size = legend->sizeHint();
        const int margin = 12;
        const QRect corners[] = {
            QRect(QPoint(vp.left() + margin, vp.bottom() - size.height() - margin), size),
            QRect(QPoint(vp.left() + margin, vp.top() + margin), size),
            QRect(QPoint(vp.right() - size.width() - margin, vp.top() + margin), size),
        };
        const auto free = [&](const QRect& r) {
            if (!vp.contains(r)) return false;
            for (const QRect& t : taken)
                if (t.intersects(r)) return false;
            return !coversItems(r.translated(-vp.topLeft()));
        };
        QRect place;
        for (const QRect& r : corners)
            if (free(r)) {
                place = r;
                break;
            }
        const bool faded = place.isNull();
        if (faded) {  // stacked at the default corner, over the other key if it is there
            place = corners[0];
            for (const QRect& t : taken)
                if (t.intersects(place)) place.moveBottom(t.top() - 8);
        }
        legend->setGeometry(place);
        legend->setFaded(faded);
        legend->raise();
        taken.push_back(place);
    }
}

// The key to run state and the selection's neighbourhood (each channel means
// one thing: fill = run state, rings = selection / next to run / failed, edge
// colour = neighbourhood), shown once a run has begun: before it every node is
// pending, and the key would only cover nodes.
void GraphView::updateRunLegend() {
    bool running = false;
    if (const auto* doc = session_->document())
        for (size_t n = 0; n < doc->graph.nodes.size() && !running; ++n)
            if (const NodeDecoration* d = session_->decorations()->nodeDecoration(static_cast<int64_t>(n)))
                running = d->state == RunMark::Done || d->state == RunMark::Failed;  // a run has begun
    if (!running) {
        runLegend_->setLegend({}, {});
    } else {
        layout::PlacedItem linear;  // a family colour that shows on any background
        linear.family = layout::OpFamily::ConvLinear;
        const QColor solid = theme_.colors(linear).fill;
        QColor faded = solid;
        faded.setAlpha(70);
        runLegend_->setLegend(tr("Run and selection"), {{solid, tr("ran (solid)")},
                                                        {faded, tr("not run yet (faded, dashed)")},
                                                        {theme_.current, tr("next to run (ring)")},
                                                        {QColor("#d0302a"), tr("failed (ring)")},
                                                        {theme_.selection, tr("selected (ring)")},
                                                        {theme_.producer, tr("edge into the selection")},
                                                        {theme_.consumer, tr("edge out of the selection")}});
    }
    placeMinimap();
}

void GraphView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange ||
        e->type() == QEvent::StyleChange) {
        theme_ = GraphTheme::fromPalette(palette());
        minimap_->invalidate();
        viewport()->update();
    }
    QAbstractScrollArea::changeEvent(e);
}

// ------------------------------------------------------------------ input

void GraphView::wheelEvent(QWheelEvent* e) {
    if (e->modifiers() & Qt::ControlModifier) {
        const double steps = e->angleDelta().y() / 120.0;
        zoomAround(zoom_ * std::pow(1.2, steps), e->position());
        e->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(e);
}

void GraphView::mousePressEvent(QMouseEvent* e) {
    pressPos_ = lastDragPos_ = e->position().toPoint();
    if (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier)) {
        banding_ = true;  // Shift+click marks a node, Shift+drag the nodes in a rectangle
        if (!band_) band_ = new QRubberBand(QRubberBand::Rectangle, viewport());
        band_->setGeometry(QRect(pressPos_, QSize()));
        band_->show();
        e->accept();
        return;
    }
    pressed_ = true;
    dragging_ = e->button() == Qt::MiddleButton;
    if (dragging_) viewport()->setCursor(Qt::ClosedHandCursor);
    e->accept();
}

void GraphView::mouseMoveEvent(QMouseEvent* e) {
    if (banding_) {
        band_->setGeometry(QRect(pressPos_, e->position().toPoint()).normalized());
        return;
    }
    if (!pressed_) return;
    const QPoint pos = e->position().toPoint();
    if (!dragging_ && (pos - pressPos_).manhattanLength() >= QApplication::startDragDistance()) {
        dragging_ = true;
        viewport()->setCursor(Qt::ClosedHandCursor);
    }
    if (dragging_) {
        const QPoint d = pos - lastDragPos_;
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - d.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - d.y());
        lastDragPos_ = pos;
    }
}

void GraphView::markByBand(const QPoint& end) {
    banding_ = false;
    band_->hide();
    const auto* lay = session_->layout();
    if (!lay) return;
    if ((end - pressPos_).manhattanLength() < QApplication::startDragDistance()) {
        const QPointF s = mapToScene(QPointF(end));
        const int32_t item = lay->grid.itemAt({s.x(), s.y()}, 2 / zoom_);
        const ItemRef ref = item >= 0 ? lay->refOf(item) : ItemRef{};
        if (ref.isNode()) session_->selectionModel()->toggleMarked(ref.index);
        return;
    }
    const QPointF a = mapToScene(QPointF(pressPos_)), b = mapToScene(QPointF(end));
    const layout::Rect r{std::min(a.x(), b.x()), std::min(a.y(), b.y()), std::abs(a.x() - b.x()),
                         std::abs(a.y() - b.y())};
    std::vector<int64_t> nodes = session_->selectionModel()->markedNodes();
    for (int32_t item : lay->grid.itemsIn(r)) {
        const ItemRef ref = lay->refOf(item);
        if (ref.isNode()) nodes.push_back(ref.index);
    }
    session_->selectionModel()->setMarked(std::move(nodes));
}

void GraphView::mouseReleaseEvent(QMouseEvent* e) {
    if (banding_) {
        markByBand(e->position().toPoint());
        e->accept();
        return;
    }
    if (pressed_ && !dragging_ && e->button() == Qt::LeftButton) {
        const auto* lay = session_->layout();
        if (lay) {
            const QPointF s = mapToScene(e->position());
            const int32_t item = lay->grid.itemAt({s.x(), s.y()}, 2 / zoom_);
            // The box's "+" and the frame title's "▾" open and close with one click.
            if (item >= 0) {
                const auto& it = lay->result.items[item];
                const auto& r = it.rect;
                const bool plus = it.kind == layout::ItemKind::Module && s.x() >= r.right() - 17 && s.y() <= r.y + 17;
                const bool chevron = it.kind == layout::ItemKind::Frame && s.x() <= r.x + 20 && s.y() <= r.y + 20;
                if (it.kind == layout::ItemKind::Region && s.x() <= r.x + 20 && s.y() <= r.y + 20) {
                    session_->selectionModel()->select(lay->refOf(item));
                    session_->setRegionOpen(it.irIndex, false);
                    pressed_ = dragging_ = false;
                    return;
                }
                if (plus || chevron) {
                    session_->selectionModel()->select(lay->refOf(item));
                    session_->setModuleExpanded(it.irIndex, plus);
                    pressed_ = dragging_ = false;
                    return;
                }
            }
            session_->selectionModel()->select(item >= 0 ? lay->refOf(item) : ItemRef{});
        }
    }
    pressed_ = dragging_ = false;
    viewport()->unsetCursor();
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* e) {
    const auto* lay = session_->layout();
    if (!lay || e->button() != Qt::LeftButton) return QAbstractScrollArea::mouseDoubleClickEvent(e);
    const QPointF s = mapToScene(e->position());
    const int32_t item = lay->grid.itemAt({s.x(), s.y()}, 2 / zoom_);
    if (item < 0) return;
    const auto& it = lay->result.items[item];
    // A box opens; a frame closes from its title bar (inside it, clicks belong to its children).
    if (it.kind == layout::ItemKind::Op && it.region < 0 && session_->hasRegion(it.irIndex))
        session_->setRegionOpen(it.irIndex, true);
    else if (it.kind == layout::ItemKind::Region && s.y() <= it.rect.y + 22)
        session_->setRegionOpen(it.irIndex, false);
    else if (it.kind == layout::ItemKind::Module)
        session_->setModuleExpanded(it.irIndex, true);
    else if (it.kind == layout::ItemKind::Frame && s.y() <= it.rect.y + 22)
        session_->setModuleExpanded(it.irIndex, false);
    e->accept();
}

void GraphView::addContextMenuHook(ContextMenuHook hook) { menuHooks_.push_back(std::move(hook)); }

// The item under the mouse gets the hooks' actions (the debugger's), then the
// module actions when the graph is grouped by module.
void GraphView::contextMenuEvent(QContextMenuEvent* e) {
    const auto* lay = session_->layout();
    if (!lay) return;
    const QPointF s = mapToScene(e->pos());
    const int32_t item = lay->grid.itemAt({s.x(), s.y()}, 2 / zoom_);
    const ItemRef ref = item >= 0 ? lay->refOf(item) : ItemRef{};
    QMenu menu(this);
    if (ref.isNode()) session_->selectionModel()->select(ref);
    for (const auto& hook : menuHooks_) hook(menu, ref);
    const auto* tree = session_->moduleTree();
    if (tree && lay->byModule) {
        if (!menu.isEmpty()) menu.addSeparator();
        addModuleActions(menu, ref);
    }
    if (!menu.isEmpty()) menu.exec(e->globalPos());
}

void GraphView::addModuleActions(QMenu& menu, const ItemRef& ref) {
    const auto* tree = session_->moduleTree();
    const int64_t module = session_->moduleOf(ref);
    if (ref.isNode() && session_->hasRegion(ref.index)) {
        const bool open = session_->isRegionOpen(ref.index);
        const QString name = QString::fromStdString(session_->document()->graph.nodes[ref.index].name);
        menu.addAction(open ? tr("Hide subgraphs of %1").arg(name) : tr("Show subgraphs of %1").arg(name), this,
                       [this, node = ref.index, open] { session_->setRegionOpen(node, !open); });
    }
    if (ref.isModule() && module > 0) {
        const bool open = session_->isModuleExpanded(module);
        menu.addAction(open ? tr("Collapse %1").arg(QString::fromStdString(tree->module(module).path))
                            : tr("Expand %1").arg(QString::fromStdString(tree->module(module).path)),
                       this, [this, module, open] { session_->setModuleExpanded(module, !open); });
    } else if (ref.isNode() && module > 0) {
        menu.addAction(tr("Collapse %1").arg(QString::fromStdString(tree->module(module).path)), this, [this, module] {
            session_->selectionModel()->select(ItemRef::module(module));
            session_->setModuleExpanded(module, false);
        });
    }
    if (!menu.isEmpty() && !menu.actions().back()->isSeparator()) menu.addSeparator();
    for (int depth = 1; depth <= 3; ++depth)
        menu.addAction(tr("Expand to depth %1").arg(depth), this,
                       [this, depth] { session_->expandModulesToDepth(depth); });
    menu.addAction(tr("Expand all"), this, [this] { session_->expandAllModules(); });
    menu.addAction(tr("Collapse to first view"), this, [this] { session_->expandModulesToDepth(-1); });
}

void GraphView::keyPressEvent(QKeyEvent* e) {
    const ItemRef sel = session_->selectionModel()->selection();
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Right:  // open the selected module or higher-order op (tree-view keys)
        if (sel.isNode() && session_->hasRegion(sel.index) && !session_->isRegionOpen(sel.index)) {
            session_->setRegionOpen(sel.index, true);
            return;
        }
        if (sel.isModule() && !session_->isModuleExpanded(sel.index)) {
            session_->setModuleExpanded(sel.index, true);
            return;
        }
        break;
    case Qt::Key_Minus:
    case Qt::Key_Left: {  // close the selected module ('-' also the module around the selected op)
        if (sel.isNode() && session_->hasRegion(sel.index) && session_->isRegionOpen(sel.index)) {
            session_->setRegionOpen(sel.index, false);
            return;
        }
        if (e->key() == Qt::Key_Left && !sel.isModule()) break;
        const int64_t m = sel.isModule() && session_->isModuleExpanded(sel.index) ? sel.index : session_->moduleOf(sel);
        if (m > 0 && session_->isModuleExpanded(m)) {
            session_->selectionModel()->select(ItemRef::module(m));
            session_->setModuleExpanded(m, false);
            return;
        }
        if (sel.isModule() && m > 0) {  // already closed: go up to the parent
            const auto parent = session_->moduleTree()->module(m).parent;
            if (parent > 0) {
                session_->selectionModel()->select(ItemRef::module(parent));
                session_->setModuleExpanded(parent, false);
                return;
            }
        }
        break;
    }
    default: break;
    }
    switch (e->key()) {
    case Qt::Key_Up:
        if (!session_->selectionModel()->selection().isNone()) {
            session_->selectionModel()->walkToProducer();
            return;
        }
        break;
    case Qt::Key_Down:
        if (!session_->selectionModel()->selection().isNone()) {
            session_->selectionModel()->walkToConsumer();
            return;
        }
        break;
    case Qt::Key_Escape: session_->selectionModel()->clearSelection(); return;
    default: break;
    }
    QAbstractScrollArea::keyPressEvent(e);
}

bool GraphView::viewportEvent(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const auto* lay = session_->layout();
        const auto* doc = session_->document();
        if (lay && doc) {
            const QPointF s = mapToScene(he->pos());
            const int32_t item = lay->grid.itemAt({s.x(), s.y()}, 2 / zoom_);
            if (item >= 0) {
                const ItemRef ref = lay->refOf(item);
                QString text = session_->displayName(ref);
                if (ref.isNode() && ref.index < static_cast<int64_t>(doc->graph.nodes.size()))
                    text += QStringLiteral("\n") + QString::fromStdString(doc->graph.nodes[ref.index].opType);
                QToolTip::showText(he->globalPos(), text, viewport());
                return true;
            }
        }
        QToolTip::hideText();
        return true;
    }
    return QAbstractScrollArea::viewportEvent(e);
}

}  // namespace irscope::widgets
