#pragma once
// HeatmapWidget: a 2-D grid of values (exec::Heatmap, maybe subsampled from a
// larger slice) drawn through a colour map, with a colour scale and the value
// under the mouse as a tool tip. Sequential (viridis-like) for values,
// diverging (blue-white-red, symmetric around 0) for differences. NaN is
// magenta, +Inf white, -Inf black, so they stand out of either map.
#include <QImage>
#include <QWidget>

#include "core/exec/debugger/debugger.h"

namespace irscope::widgets {

class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget* parent = nullptr);
    void setData(const exec::Heatmap& h, bool diverging);
    // No data; `message` says why (drawn in its place).
    void clear(const QString& message);
    const exec::Heatmap& data() const { return h_; }

protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;

private:
    QRectF imageRect() const;
    QFont scaleFont() const;
    double scaleWidth() const;
    void paintColourScale(QPainter& p, const QRectF& image);

    exec::Heatmap h_;
    QImage image_;
    bool diverging_ = false;
    double lo_ = 0, hi_ = 1;
    QString message_;
};

}  // namespace irscope::widgets
