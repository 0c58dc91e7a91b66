#pragma once
// Minimap: the whole graph in a corner of the view, with the visible part
// framed; click or drag to move there. Redrawn from a cached image.
#include <QImage>
#include <QWidget>

namespace irscope::widgets {

class GraphView;

class Minimap : public QWidget {
    Q_OBJECT
public:
    explicit Minimap(GraphView* view);
    void invalidate();
    // Size that keeps the graph's aspect ratio within maxSize.
    QSize preferredSizeFor(QSize maxSize) const;

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;

private:
    QRectF sceneToMap(const QRectF& scene) const;
    QPointF mapToScene(const QPointF& p) const;
    // Scene to map, across and down: the same unless the graph is so tall
    // (or wide) that its other side would be under a few pixels, which is
    // then stretched to stay visible and clickable.
    QPointF scales() const;

    GraphView* view_;
    QImage cache_;
    bool dirty_ = true;
};

}  // namespace irscope::widgets
