#pragma once
// GraphView: the graph drawing as a custom-painted scroll area (no
// QGraphicsScene: at 100k nodes a spatial grid + raster overview is an order
// of magnitude faster than 300k QGraphicsItems). It observes a GraphSession:
// clicks select through it, and it redraws on its signals. Per-item looks
// (selection, neighbours, highlights, decorations) come from the session.
#include <functional>
#include <vector>

#include <QAbstractScrollArea>
#include <QPointF>

#include "widgets/graph_view/graph_renderer.h"
#include "widgets/graph_view/graph_theme.h"
#include "widgets/session/item_ref.h"

class QImage;
class QMenu;
class QRubberBand;

namespace irscope::widgets {

class GraphSession;
class Minimap;
class OverlayLegend;

class GraphView : public QAbstractScrollArea {
    Q_OBJECT
public:
    // Adds actions for the item under the mouse to the view's context menu
    // (the debugger adds breakpoint, run-to and watch actions on a node).
    using ContextMenuHook = std::function<void(QMenu& menu, const ItemRef& ref)>;
    void addContextMenuHook(ContextMenuHook hook);

    explicit GraphView(GraphSession* session, QWidget* parent = nullptr);

    GraphSession* session() const { return session_; }
    double zoom() const { return zoom_; }
    double fitZoom() const;
    // A graph is opened (and fitted) no smaller than this: the op names are
    // drawn from kTextFromZoom (0.45) on, comfortably readable from here.
    static constexpr double kReadableZoom = 0.6;
    double minZoom() const;
    static constexpr double kMaxZoom = 8;

    // Scene (layout) <-> viewport coordinates.
    QPointF mapToScene(const QPointF& viewportPos) const;
    QPointF mapFromScene(const QPointF& scenePos) const;
    QRectF visibleSceneRect() const;
    // Viewport position of the centre of the item that draws `ref`; nullopt-like QPointF(-1,-1) if none.
    QPointF viewportPosOf(const ItemRef& ref) const;

    // Draws exactly what the viewport shows into `image` (its size is the viewport's).
    void renderFrame(QImage& image) const;

    bool minimapVisible() const;
    const GraphTheme& theme() const { return theme_; }

public slots:
    void setZoom(double zoom);
    void zoomIn();
    void zoomOut();
    // View > Fit to Window: the whole graph in the window, at whatever zoom
    // that takes.
    void fitToWindow();
    // Ctrl+0 and the first view: the whole graph when it fits at a readable
    // zoom, else its width from the top, scrolled.
    void showReadableFromTheTop();
    void actualSize();
    void centerOnScene(const QPointF& scenePos);
    void centerOn(const ItemRef& ref, bool zoomToRead = false);
    // Centres on `ref` only when it is not wholly on screen (a debugger's
    // "show next statement": a visible line is not scrolled). true if it moved.
    bool ensureVisible(const ItemRef& ref);
    void setMinimapVisible(bool visible);

signals:
    void zoomChanged(double zoom);

protected:
    RenderRequest frameRequest(const QSizeF& size, qreal devicePixelRatio) const;
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void scrollContentsBy(int dx, int dy) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void contextMenuEvent(QContextMenuEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    bool viewportEvent(QEvent*) override;
    void changeEvent(QEvent*) override;

private:
    void onGraphLoaded();
    void onLayoutChanged();
    void updateScrollBars();
    void zoomAround(double zoom, const QPointF& viewportAnchor);
    QPointF origin() const;  // scene point drawn at the viewport's top-left
    QPointF originFor(const QSize& viewportSize) const;
    QPointF centreFor(const QSize& viewportSize) const;  // scene point at the centre of such a viewport
    void placeMinimap();                                 // and the legends
    void placeLegends();
    bool coversItems(const QRect& viewportRect) const;
    void updateRunLegend();
    void addModuleActions(QMenu& menu, const ItemRef& ref);
    void markByBand(const QPoint& end);

    GraphSession* session_;
    std::vector<ContextMenuHook> menuHooks_;
    Minimap* minimap_;
    OverlayLegend* legend_;
    OverlayLegend* runLegend_;  // while debugging: what fills, rings and edge colours mean
    // Set by GraphSession::moduleToggling: keep this module's top-left at
    // anchorPos_ across the layout change it causes (x < 0: bring it into view).
    int64_t anchorModule_ = -1;
    QPointF anchorPos_;
    GraphTheme theme_;
    double zoom_ = 1;
    QPoint pressPos_;
    QPoint lastDragPos_;
    bool dragging_ = false;
    bool pressed_ = false;
    QRubberBand* band_ = nullptr;  // Shift+drag: marks the nodes in a rectangle
    bool banding_ = false;
    QSize lastViewport_;  // the viewport's size before a resize
};

}  // namespace irscope::widgets
