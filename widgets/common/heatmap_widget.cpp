#include "widgets/common/heatmap_widget.h"

#include <algorithm>
#include <cmath>

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace irscope::widgets {

namespace {

QString num(double v) { return QString::number(v, 'g', 6); }

// Viridis-like sequential map; blue-white-red diverging map.
QRgb colorAt(double t, bool diverging) {
    t = std::clamp(t, 0.0, 1.0);
    static const QColor seq[] = {QColor("#440154"), QColor("#3b528b"), QColor("#21918c"), QColor("#5ec962"),
                                 QColor("#fde725")};
    static const QColor div[] = {QColor("#2166ac"), QColor("#92c5de"), QColor("#f7f7f7"), QColor("#f4a582"),
                                 QColor("#b2182b")};
    const QColor* stops = diverging ? div : seq;
    const double x = t * 4;
    const int i = std::min(3, static_cast<int>(x));
    const double u = x - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return qRgb(static_cast<int>(a.red() + (b.red() - a.red()) * u),
                static_cast<int>(a.green() + (b.green() - a.green()) * u),
                static_cast<int>(a.blue() + (b.blue() - a.blue()) * u));
}

}  // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(160, 120);
}

void HeatmapWidget::setData(const exec::Heatmap& h, bool diverging) {
    h_ = h;
    diverging_ = diverging;
    message_.clear();
    lo_ = h.min;
    hi_ = h.max;
    if (diverging) {
        const double m = std::max(std::abs(lo_), std::abs(hi_));
        lo_ = -m;
        hi_ = m;
    }
    image_ = QImage(static_cast<int>(h.cols), static_cast<int>(h.rows), QImage::Format_RGB32);
    for (int64_t r = 0; r < h.rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(static_cast<int>(r)));
        for (int64_t c = 0; c < h.cols; ++c) {
            const float v = h.values[r * h.cols + c];
            if (std::isnan(v))
                line[c] = qRgb(255, 0, 255);
            else if (std::isinf(v))
                line[c] = v > 0 ? qRgb(255, 255, 255) : qRgb(0, 0, 0);
            else
                line[c] = colorAt(hi_ > lo_ ? (v - lo_) / (hi_ - lo_) : 0.5, diverging_);
        }
    }
    update();
}

void HeatmapWidget::clear(const QString& message) {
    h_ = {};
    image_ = {};
    message_ = message;
    update();
}

QFont HeatmapWidget::scaleFont() const {
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.85);
    return f;
}

// The colour bar's strip, gap and widest label ("-1.23457e-05" is ~70 px):
// the labels were cut at a fixed 57 px.
double HeatmapWidget::scaleWidth() const {
    const QFontMetricsF fm(scaleFont());
    double labels = 0;
    for (double v : {hi_, (hi_ + lo_) / 2, lo_}) labels = std::max(labels, fm.horizontalAdvance(num(v)));
    return 14 + 3 + labels + 6;
}

QRectF HeatmapWidget::imageRect() const {
    if (image_.isNull()) return {};
    const QRectF area(8, 8, std::max(10.0, width() - 16 - scaleWidth()), height() - 16);
    const double sx = area.width() / image_.width(), sy = area.height() / image_.height();
    const double s = std::min(sx, sy);
    return QRectF(area.x(), area.y(), image_.width() * s, image_.height() * s);
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (image_.isNull()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, message_.isEmpty() ? tr("No value") : message_);
        return;
    }
    const QRectF r = imageRect();
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(r, image_);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(r);
    paintColourScale(p, r);
}

// The scale right of the image, with its top, middle and bottom values, and
// (when subsampled) which elements the image shows under it.
void HeatmapWidget::paintColourScale(QPainter& p, const QRectF& image) {
    const QRectF bar(width() - scaleWidth(), 8, 14, std::max(40.0, height() - 16.0));
    for (int y = 0; y < static_cast<int>(bar.height()); ++y) {
        const double t = 1.0 - y / bar.height();
        p.setPen(QColor(colorAt(t, diverging_)));
        p.drawLine(QPointF(bar.left(), bar.top() + y), QPointF(bar.right(), bar.top() + y));
    }
    p.setPen(palette().color(QPalette::WindowText));
    p.drawRect(bar);
    p.setFont(scaleFont());
    p.drawText(QPointF(bar.right() + 3, bar.top() + 10), num(hi_));
    p.drawText(QPointF(bar.right() + 3, bar.center().y() + 4), num((hi_ + lo_) / 2));
    p.drawText(QPointF(bar.right() + 3, bar.bottom()), num(lo_));
    if (h_.stride > 1)
        p.drawText(QPointF(image.left(), image.bottom() + 12 > height() ? height() - 2 : image.bottom() + 12),
                   tr("every %1th element (slice %2×%3)").arg(h_.stride).arg(h_.sliceRows).arg(h_.sliceCols));
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* e) {
    const QRectF r = imageRect();
    if (image_.isNull() || !r.contains(e->position())) return;
    const int c = static_cast<int>((e->position().x() - r.x()) / r.width() * h_.cols);
    const int row = static_cast<int>((e->position().y() - r.y()) / r.height() * h_.rows);
    if (c < 0 || row < 0 || c >= h_.cols || row >= h_.rows) return;
    QToolTip::showText(
        e->globalPosition().toPoint(),
        tr("[%1, %2] = %3").arg(row * h_.stride).arg(c * h_.stride).arg(num(h_.values[row * h_.cols + c])), this);
}

}  // namespace irscope::widgets
