#include "widgets/graph_view/image_export.h"

#include <algorithm>
#include <cmath>

#include <QPainter>

#include "widgets/graph_view/graph_renderer.h"

namespace irscope::widgets {

namespace {
// Edge labels may reach past the rightmost box (as in the SVG export).
double drawingWidth(const DocumentLayout& layout) {
    double right = layout.result.bounds.right();
    for (const auto& e : layout.result.edges)
        if (!e.label.empty()) right = std::max(right, e.labelPos.x + 6.0 * static_cast<double>(e.label.size()) + 4);
    return right - layout.result.bounds.x;
}
}  // namespace

double clampExportScale(const DocumentLayout& layout, double s) {
    const double w = drawingWidth(layout), h = layout.result.bounds.height;
    if (w <= 0 || h <= 0) return s;
    s = std::min(s, kMaxExportSide / std::max(w, h));
    const double pixels = w * h * s * s;
    if (pixels > static_cast<double>(kMaxExportPixels)) s *= std::sqrt(static_cast<double>(kMaxExportPixels) / pixels);
    return s;
}

QImage renderLayoutImage(const DocumentLayout& layout, double scale, const GraphTheme& theme) {
    const auto& b = layout.result.bounds;
    const double w = drawingWidth(layout);
    const QSize size(std::max(1, static_cast<int>(std::ceil(w * scale))),
                     std::max(1, static_cast<int>(std::ceil(b.height * scale))));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(theme.background);
    QPainter p(&image);
    RenderRequest rq;
    rq.layout = &layout;
    rq.sceneRect = QRectF(b.x, b.y, w, b.height);
    rq.target = QRectF(0, 0, w * scale, b.height * scale);
    rq.theme = theme;
    rq.detail = DetailLevel::Auto;
    // A picture is meant to be read: draw everything unless it is tiny.
    if (scale >= 0.25) rq.detail = DetailLevel::Full;
    renderGraph(p, rq);
    return image;
}

}  // namespace irscope::widgets
