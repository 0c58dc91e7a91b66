#include "widgets/graph_view/graph_renderer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

#include <QFont>
#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include "widgets/session/graph_session.h"

namespace irscope::widgets {

using layout::ItemKind;
using layout::PlacedItem;
using layout::Point;
using layout::Rect;

DetailLevel detailFor(double zoom) {
    if (zoom < kOverviewBelowZoom) return DetailLevel::Overview;
    if (zoom < kTextFromZoom) return DetailLevel::Shapes;
    return DetailLevel::Full;
}

namespace {

struct Frame {
    const RenderRequest& rq;
    const layout::LayoutResult& r;
    double zoom;
    bool everything;  // the scene rect covers the whole drawing: skip the grid
    Rect scene;
    double zoomY = zoom;  // down; differs from zoom only in a stretched overview

    uint8_t itemFlag(size_t i) const { return rq.itemFlags && i < rq.itemFlags->size() ? (*rq.itemFlags)[i] : 0; }
    uint8_t edgeFlag(size_t i) const { return rq.edgeFlags && i < rq.edgeFlags->size() ? (*rq.edgeFlags)[i] : 0; }
    const NodeDecoration* decoration(const PlacedItem& it) const {
        if (it.region >= 0) return nullptr;  // inside a subgraph: the run marks its op (the region)
        if (it.kind == ItemKind::Region) return rq.decoration ? rq.decoration(it.irIndex) : nullptr;
        if (it.kind == ItemKind::Parameter || it.kind == ItemKind::Buffer || it.kind == ItemKind::Constant ||
            it.kind == ItemKind::OtherWeight)
            return rq.weightDecoration ? rq.weightDecoration(it.name) : nullptr;
        if (it.kind == ItemKind::Module || it.kind == ItemKind::Frame)
            return rq.moduleDecoration ? rq.moduleDecoration(it.irIndex) : nullptr;
        if (!rq.decoration || it.kind != ItemKind::Op) return nullptr;
        return rq.decoration(it.irIndex);
    }
    // The comparison's mark of an op (None for other items or without a comparison).
    DiffMark diffMark(const PlacedItem& it) const {
        if (!rq.diff || it.region >= 0) return DiffMark::None;
        switch (it.kind) {
        case ItemKind::Op: return rq.diff->node(it.irIndex);
        case ItemKind::GraphInput: return rq.diff->graphInput(it.irIndex);
        case ItemKind::Parameter:
        case ItemKind::Buffer:
        case ItemKind::Constant:
        case ItemKind::OtherWeight: return rq.diff->weight(it.irIndex);
        default: return DiffMark::None;
        }
    }
    // The frame standing in subgraph `path`, or whose op has it as another
    // subgraph (`index`: which); null when the debugger is not in that op.
    const exec::SubgraphFrame* frameIn(const std::string& path) const {
        if (!rq.frames) return nullptr;
        for (const auto& f : *rq.frames)
            if (f.path == path) return &f;
        return nullptr;
    }
    const exec::SubgraphFrame* frameOfOpOf(const std::string& path, size_t& index) const {
        if (!rq.frames) return nullptr;
        for (const auto& f : *rq.frames)
            for (size_t k = 0; k < f.subgraphPaths.size(); ++k)
                if (f.subgraphPaths[k] == path) {
                    index = k;
                    return &f;
                }
        return nullptr;
    }
    // A subgraph op against the debugger's frames: -1 not in a frame's call,
    // 0 ran, 1 the next node, 2 not reached yet.
    int framePosition(const PlacedItem& it) const {
        if (it.region < 0 || (it.kind != ItemKind::Op && it.kind != ItemKind::Region) || it.position.empty()) return -1;
        size_t index = 0;
        const exec::SubgraphFrame* fr = frameOfOpOf(it.position, index);
        if (!fr) return -1;
        if (fr->viewedCall && static_cast<int32_t>(index) == fr->viewedSubgraph) return 0;  // a call looked at
        // Another subgraph of the op the debugger stands in, not called yet: not reached.
        if (fr->path != it.position) return index < fr->callsBefore.size() && fr->callsBefore[index] == 0 ? 2 : -1;
        const bool innermost = fr == &rq.frames->back();
        if (it.irIndex < fr->cursor) return 0;
        return it.irIndex == fr->cursor && innermost ? 1 : 2;
    }
    bool subgraphBreakpoint(const PlacedItem& it) const {
        return it.region >= 0 && it.kind == ItemKind::Op && rq.subgraphBreakpoint && !it.position.empty() &&
               rq.subgraphBreakpoint(it.position, it.irIndex);
    }
    int32_t moduleChanges(const PlacedItem& it) const {
        return rq.diff && it.kind == ItemKind::Module ? rq.diff->changesIn(it.irIndex) : 0;
    }
    DiffMark moduleMark(const PlacedItem& it) const {
        return rq.diff ? rq.diff->moduleMark(it.irIndex) : DiffMark::Changed;
    }
    std::vector<int32_t> items() const {
        if (everything) {
            std::vector<int32_t> all(r.items.size());
            for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int32_t>(i);
            return all;
        }
        return rq.layout->grid.itemsIn(scene);
    }
    std::vector<int32_t> edges() const {
        if (everything) {
            std::vector<int32_t> all(r.edges.size());
            for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int32_t>(i);
            return all;
        }
        return rq.layout->grid.edgesIn(scene);
    }
};

// ---------------------------------------------------------------- overview

class Raster {
public:
    Raster(QImage& img) : img_(img), w_(img.width()), h_(img.height()) {}
    void plot(int x, int y, QRgb c) {
        if (static_cast<unsigned>(x) < static_cast<unsigned>(w_) &&
            static_cast<unsigned>(y) < static_cast<unsigned>(h_))
            reinterpret_cast<QRgb*>(img_.scanLine(y))[x] = c;
    }
    void fill(int x0, int y0, int x1, int y1, QRgb c) {  // inclusive
        x0 = std::max(x0, 0);
        y0 = std::max(y0, 0);
        x1 = std::min(x1, w_ - 1);
        y1 = std::min(y1, h_ - 1);
        for (int y = y0; y <= y1; ++y) {
            auto* line = reinterpret_cast<QRgb*>(img_.scanLine(y));
            std::fill(line + x0, line + x1 + 1, c);
        }
    }
    void line(double fx0, double fy0, double fx1, double fy1, QRgb c) {
        // Reject segments entirely outside.
        if ((fx0 < 0 && fx1 < 0) || (fy0 < 0 && fy1 < 0) || (fx0 >= w_ && fx1 >= w_) || (fy0 >= h_ && fy1 >= h_))
            return;
        // Clip very long coordinates so the loop stays bounded.
        auto clampf = [](double v, double lo, double hi) { return std::clamp(v, lo, hi); };
        const double big = 4.0 * (w_ + h_);
        int x0 = static_cast<int>(clampf(fx0, -big, big)), y0 = static_cast<int>(clampf(fy0, -big, big));
        const int x1 = static_cast<int>(clampf(fx1, -big, big)), y1 = static_cast<int>(clampf(fy1, -big, big));
        const int dx = std::abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
        const int dy = -std::abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
        int err = dx + dy;
        for (;;) {
            plot(x0, y0, c);
            if (x0 == x1 && y0 == y1) break;
            const int e2 = 2 * err;
            if (e2 >= dy) {
                err += dy;
                x0 += sx;
            }
            if (e2 <= dx) {
                err += dx;
                y0 += sy;
            }
        }
    }

private:
    QImage& img_;
    int w_, h_;
};

void renderOverview(QPainter& p, const Frame& f) {
    const auto& rq = f.rq;
    const qreal dpr = std::max<qreal>(rq.devicePixelRatio, 1);
    const QSize size(std::max(1, static_cast<int>(std::ceil(rq.target.width() * dpr))),
                     std::max(1, static_cast<int>(std::ceil(rq.target.height() * dpr))));
    thread_local QImage buffer;
    if (buffer.size() != size) buffer = QImage(size, QImage::Format_ARGB32_Premultiplied);
    buffer.fill(rq.fillBackground ? rq.theme.background : QColor(Qt::transparent));
    Raster ras(buffer);
    const double k = f.zoom * dpr, ky = f.zoomY * dpr;
    const double ox = f.scene.x, oy = f.scene.y;
    auto px = [&](double x) { return (x - ox) * k; };
    auto py = [&](double y) { return (y - oy) * ky; };

    const auto items = f.items();
    for (int32_t i : items) {  // frames of open modules under everything
        const PlacedItem& it = f.r.items[i];
        if (!layout::isFrameKind(it.kind)) continue;
        const auto& c = rq.theme.colors(it);
        const int x0 = static_cast<int>(px(it.rect.x)), y0 = static_cast<int>(py(it.rect.y));
        const int x1 = std::max(x0, static_cast<int>(px(it.rect.right())) - 1);
        const int y1 = std::max(y0, static_cast<int>(py(it.rect.bottom())) - 1);
        ras.fill(x0, y0, x1, y1, c.stroke.rgba());
        if (x1 - x0 >= 3 && y1 - y0 >= 3) ras.fill(x0 + 1, y0 + 1, x1 - 1, y1 - 1, c.fill.rgba());
    }
    const QRgb edgeColor = rq.theme.edgeOverview.rgba();
    for (int32_t e : f.edges()) {
        const auto& pts = f.r.edges[e].points;
        for (size_t i = 1; i < pts.size(); ++i)
            ras.line(px(pts[i - 1].x), py(pts[i - 1].y), px(pts[i].x), py(pts[i].y), edgeColor);
    }
    for (int32_t i : items) {
        const PlacedItem& it = f.r.items[i];
        if (layout::isFrameKind(it.kind)) continue;
        const auto& c = rq.theme.colors(it);
        const int x0 = static_cast<int>(px(it.rect.x)), y0 = static_cast<int>(py(it.rect.y));
        const int x1 = std::max(x0, static_cast<int>(px(it.rect.right())) - 1);
        const int y1 = std::max(y0, static_cast<int>(py(it.rect.bottom())) - 1);
        const NodeDecoration* d = f.decoration(it);
        if (x1 - x0 >= 3 && y1 - y0 >= 3) {
            ras.fill(x0, y0, x1, y1, c.stroke.rgba());
            ras.fill(x0 + 1, y0 + 1, x1 - 1, y1 - 1, (d && d->overlay.isValid() ? d->overlay : c.fill).rgba());
        } else {
            ras.fill(x0, y0, x1, y1, (d && d->overlay.isValid() ? d->overlay : c.stroke).rgba());
        }
    }
    // Marks that must stay visible however far out: missing values (a red
    // block at the top-right corner, like the "!" badge of the detailed
    // levels), highlights, then selection.
    const int r1 = static_cast<int>(std::ceil(2 * dpr)), r2 = static_cast<int>(std::ceil(4 * dpr));
    const QRgb missingColor = QColor("#e02020").rgba();
    for (int32_t i : items) {
        const PlacedItem& it = f.r.items[i];
        const NodeDecoration* d = f.decoration(it);
        if (!d || !d->missingValue) continue;
        const int cx = static_cast<int>(px(it.rect.right())), cy = static_cast<int>(py(it.rect.y));
        ras.fill(cx - r1, cy - r1, cx + r1, cy + r1, missingColor);
    }
    for (int32_t i : items) {  // a comparison's changes, as blocks that stay visible far out
        const PlacedItem& it = f.r.items[i];
        const DiffMark m = f.diffMark(it);
        const QColor c = DiffMarks::isChange(m)    ? DiffMarks::color(m)
                         : f.moduleChanges(it) > 0 ? DiffMarks::color(f.moduleMark(it))
                                                   : QColor();
        if (!c.isValid()) continue;
        const int cx = static_cast<int>(px(it.rect.center().x)), cy = static_cast<int>(py(it.rect.center().y));
        ras.fill(cx - r2, cy - r2, cx + r2, cy + r2, c.rgba());
    }
    for (int pass = 0; pass < 2 && rq.itemFlags; ++pass) {
        for (int32_t i : items) {
            const uint8_t fl = f.itemFlag(static_cast<size_t>(i));
            if (!fl) continue;
            const PlacedItem& it = f.r.items[i];
            const int cx = static_cast<int>(px(it.rect.center().x)), cy = static_cast<int>(py(it.rect.center().y));
            if (pass == 0 && (fl & kFlagHighlighted))
                ras.fill(cx - r1, cy - r1, cx + r1, cy + r1, rq.theme.highlight.rgba());
            if (pass == 1 && (fl & kFlagSelected)) {
                ras.fill(cx - r2, cy - r2, cx + r2, cy + r2, rq.theme.selection.rgba());
                ras.fill(cx - r2 + 2, cy - r2 + 2, cx + r2 - 2, cy + r2 - 2, rq.theme.background.rgba());
            }
        }
    }
    buffer.setDevicePixelRatio(dpr);
    p.drawImage(rq.target.topLeft(), buffer);
}

// ---------------------------------------------------------------- shapes

QPolygonF parallelogram(const Rect& r) {
    const double s = std::min(10.0, r.width / 4);
    return QPolygonF(
        {QPointF(r.x + s, r.y), QPointF(r.right(), r.y), QPointF(r.right() - s, r.bottom()), QPointF(r.x, r.bottom())});
}
QPolygonF trapezoid(const Rect& r) {
    const double s = std::min(10.0, r.width / 4);
    return QPolygonF(
        {QPointF(r.x, r.y), QPointF(r.right(), r.y), QPointF(r.right() - s, r.bottom()), QPointF(r.x + s, r.bottom())});
}

void drawShape(QPainter& p, const PlacedItem& it, const Rect& r, bool rounded) {
    const QRectF q(r.x, r.y, r.width, r.height);
    switch (it.kind) {
    case ItemKind::Op:
    case ItemKind::Ghost:
    case ItemKind::Module:
        if (rounded)
            p.drawRoundedRect(q, 6, 6);
        else
            p.drawRect(q);
        break;
    case ItemKind::Frame:
    case ItemKind::Region:
    case ItemKind::Subgraph:
        if (rounded)
            p.drawRoundedRect(q, 8, 8);
        else
            p.drawRect(q);
        break;
    case ItemKind::Port:
        if (rounded)
            p.drawRoundedRect(q, std::min(10.0, r.height / 2), std::min(10.0, r.height / 2));
        else
            p.drawRect(q);
        break;
    case ItemKind::Output: p.drawPolygon(trapezoid(r)); break;
    default: p.drawPolygon(parallelogram(r)); break;
    }
}

Rect grow(const Rect& r, double d) { return {r.x - d, r.y - d, r.width + 2 * d, r.height + 2 * d}; }

const QFont& labelFont(int which) {
    static std::array<QFont, 4> table = [] {
        QFont bold(QStringLiteral("DejaVu Sans Mono"));
        bold.setStyleHint(QFont::Monospace);
        bold.setPixelSize(12);
        bold.setBold(true);
        QFont normal = bold;
        normal.setBold(false);
        normal.setPixelSize(11);
        QFont edge = normal;
        edge.setPixelSize(10);
        QFont italic = normal;
        italic.setPixelSize(12);
        italic.setItalic(true);
        return std::array<QFont, 4>{bold, normal, edge, italic};
    }();
    return table[which];
}

void drawArrow(QPainter& p, Point from, Point tip) {
    const double dx = tip.x - from.x, dy = tip.y - from.y, len = std::hypot(dx, dy);
    if (len <= 0) return;
    const double ux = dx / len, uy = dy / len, l = 8, w = 3.5;
    const QPointF pts[3] = {QPointF(tip.x, tip.y), QPointF(tip.x - ux * l - uy * w, tip.y - uy * l + ux * w),
                            QPointF(tip.x - ux * l + uy * w, tip.y - uy * l - ux * w)};
    p.drawPolygon(pts, 3);
}

// How a subgraph frame reads after a run: which branch a cond took, how
// often a loop body ran. Empty title suffix and no dimming before a run.
struct SubgraphRun {
    QString suffix;
    bool skipped = false;  // a branch the run did not take
    bool taken = false;
};

SubgraphRun subgraphRun(const Frame& f, const PlacedItem& it) {
    SubgraphRun out;
    const std::string& path = it.position;
    // The debugger stands in this op: which call of this subgraph, or what
    // this subgraph did so far beside the one it stands in.
    size_t index = 0;
    if (const exec::SubgraphFrame* fr = f.frameOfOpOf(path, index)) {
        if (fr->viewedCall && fr->viewedSubgraph == static_cast<int32_t>(index)) {
            out.taken = true;
            out.suffix = QStringLiteral("  viewing iteration %1 (the run is not here)").arg(fr->viewedIteration + 1);
            return out;
        }
        if (fr->path == path) {
            out.taken = true;
            out.suffix = QStringLiteral("  \u25B6 iteration %1 of %2").arg(fr->iteration + 1).arg(fr->iterationsOfIt);
            return out;
        }
        const int64_t soFar = index < fr->callsBefore.size() ? fr->callsBefore[index] : 0;
        out.skipped = soFar == 0;
        out.suffix = soFar == 0 ? (fr->repeats ? QStringLiteral("  (not run yet)") : QStringLiteral("  (not taken)"))
                                : QStringLiteral("  \u2714 ran %1 time%2 so far").arg(soFar).arg(soFar == 1 ? "" : "s");
        return out;
    }
    if (it.subgraph < 0) {
        // Nested: what its calls did, counted over the calls of the
        // subgraphs around it that ran where the debugger stands.
        if (!f.rq.callCounts || path.empty()) return out;
        const auto count = [&](const std::string& p) {
            const auto c = f.rq.callCounts->find(p);
            return c == f.rq.callCounts->end() ? int64_t{0} : c->second;
        };
        const size_t slash = path.rfind('/');
        if (slash == std::string::npos) return out;
        const std::string op = path.substr(0, slash + 1);
        bool siblingRan = false;
        for (auto c = f.rq.callCounts->lower_bound(op); c != f.rq.callCounts->end() && c->first.rfind(op, 0) == 0; ++c)
            siblingRan |= c->first != path && c->first.find('/', op.size()) == std::string::npos && c->second > 0;
        const int64_t runs = count(path);
        if (runs > 0) {
            out.taken = !siblingRan;  // a branch the other was never taken beside
            out.suffix = QStringLiteral("  \u2714 ran %1 time%2").arg(runs).arg(runs == 1 ? "" : "s");
        } else if (siblingRan) {
            out.skipped = true;
            out.suffix = QStringLiteral("  (not taken)");
        }
        return out;
    }
    const NodeDecoration* d = f.rq.decoration ? f.rq.decoration(it.irIndex) : nullptr;
    if (!d) return out;
    if (d->takenSubgraph >= 0) {
        out.taken = d->takenSubgraph == it.subgraph;
        out.skipped = !out.taken;
        out.suffix = out.taken ? QStringLiteral("  \u2714 taken") : QStringLiteral("  (not taken)");
    } else if (d->iterations >= 0) {
        const int64_t runs = it.subgraph >= 0 && it.subgraph < static_cast<int32_t>(d->subgraphRuns.size())
                                 ? d->subgraphRuns[static_cast<size_t>(it.subgraph)]
                                 : d->iterations;
        out.suffix = QStringLiteral("  \u2714 ran %1 time%2").arg(runs).arg(runs == 1 ? "" : "s");
    }
    return out;
}

// Frames of open modules and higher-order ops: under everything, title in the header.
void drawFrames(QPainter& p, const Frame& f, const std::vector<int32_t>& items, bool full) {
    const auto& theme = f.rq.theme;
    for (int32_t i : items) {
        const PlacedItem& it = f.r.items[i];
        if (!layout::isFrameKind(it.kind)) continue;
        const auto& c = theme.colors(it);
        const SubgraphRun run = it.kind == ItemKind::Subgraph ? subgraphRun(f, it) : SubgraphRun{};
        // An open module under an overlay is outlined in its ops' aggregate
        // colour (a backend report's group, a module's worst SQNR), as its
        // box would be filled closed.
        const QColor tint = it.kind == ItemKind::Frame && f.rq.frameOverlay ? f.rq.frameOverlay(it.irIndex) : QColor();
        QPen pen(run.taken        ? QColor("#2e9d4f")
                 : tint.isValid() ? tint
                                  : c.stroke,
                 full ? (run.taken || tint.isValid() ? 2.4 : 1.2) : 0);
        if (it.kind == ItemKind::Region && full) pen.setWidthF(1.8);
        if (run.skipped && full) pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.setBrush(c.fill);
        drawShape(p, it, it.rect, full);
        if (full && !it.lines.empty()) {
            QFont fnt = labelFont(0);
            fnt.setPixelSize(11);
            p.setFont(fnt);
            QColor text = theme.dark ? QColor("#aab6c6") : QColor("#3d4f66");
            if (run.skipped) text.setAlpha(140);
            p.setPen(text);
            // Modules and regions close from the chevron; a subgraph is part of its region.
            const QString lead = it.kind == ItemKind::Subgraph ? QString() : QChar(0x25BE) + QStringLiteral(" ");
            p.drawText(QRectF(it.rect.x + 8, it.rect.y + 3, std::max(0.0, it.rect.width - 16), 16),
                       Qt::AlignLeft | Qt::AlignVCenter, lead + QString::fromStdString(it.lines.front()) + run.suffix);
        }
    }
}

// A subgraph the run did not take is veiled, its items included.
void veilSkippedSubgraphs(QPainter& p, const Frame& f, const std::vector<int32_t>& items) {
    for (int32_t i : items) {
        const PlacedItem& it = f.r.items[i];
        if (it.kind != ItemKind::Subgraph || !subgraphRun(f, it).skipped) continue;
        QColor veil = f.rq.theme.background;
        veil.setAlpha(150);
        p.setPen(Qt::NoPen);
        p.setBrush(veil);
        p.drawRoundedRect(QRectF(it.rect.x + 1, it.rect.y + 20, it.rect.width - 2, it.rect.height - 21), 8, 8);
    }
}

// Edges without a flag, batched (cosmetic lines when zoomed out); returns the flagged ones.
std::vector<int32_t> drawPlainEdges(QPainter& p, const Frame& f, const std::vector<int32_t>& edges, bool full) {
    const auto& theme = f.rq.theme;
    std::vector<int32_t> flagged;
    if (!full) {
        QVector<QLineF> solid, dashed;
        for (int32_t e : edges) {
            if (f.edgeFlag(e)) {
                flagged.push_back(e);
                continue;
            }
            const auto& edge = f.r.edges[e];
            auto& out = edge.style == layout::EdgeStyle::Dashed ? dashed : solid;
            for (size_t i = 1; i < edge.points.size(); ++i)
                out.push_back(QLineF(edge.points[i - 1].x, edge.points[i - 1].y, edge.points[i].x, edge.points[i].y));
        }
        QPen pen(theme.edge, 0);  // cosmetic 1 px
        p.setPen(pen);
        p.drawLines(solid);
        pen.setColor(theme.edgeDashed);
        p.setPen(pen);
        p.drawLines(dashed);
    } else {
        QPen solidPen(theme.edge, 1.2), dashedPen(theme.edgeDashed, 1.2);
        dashedPen.setDashPattern({5 / 1.2, 4 / 1.2});
        QVector<QPointF> poly;
        for (int32_t e : edges) {
            if (f.edgeFlag(e)) {
                flagged.push_back(e);
                continue;
            }
            const auto& edge = f.r.edges[e];
            if (edge.points.size() < 2) continue;
            const bool dashed = edge.style == layout::EdgeStyle::Dashed;
            p.setPen(dashed ? dashedPen : solidPen);
            poly.resize(static_cast<qsizetype>(edge.points.size()));
            for (size_t i = 0; i < edge.points.size(); ++i) poly[i] = QPointF(edge.points[i].x, edge.points[i].y);
            p.drawPolyline(poly.data(), static_cast<int>(poly.size()));
            p.setPen(Qt::NoPen);
            p.setBrush(dashed ? theme.edgeDashed : theme.edge);
            if (f.r.items[static_cast<size_t>(edge.target)].kind != ItemKind::Port)  // a junction: the line goes on
                drawArrow(p, edge.points[edge.points.size() - 2], edge.points.back());
            p.setBrush(Qt::NoBrush);
        }
    }
    return flagged;
}

// Edges into and out of the selection, on top of the others.
void drawFlaggedEdges(QPainter& p, const Frame& f, const std::vector<int32_t>& flagged, bool full) {
    const auto& theme = f.rq.theme;
    for (int32_t e : flagged) {
        const auto& edge = f.r.edges[e];
        if (edge.points.size() < 2) continue;
        const QColor c = (f.edgeFlag(e) & kEdgeIntoSelection) ? theme.producer : theme.consumer;
        QPen pen(c, full ? 2.4 : 0);
        if (!full) pen.setWidthF(2 / f.zoom);
        if (edge.style == layout::EdgeStyle::Dashed && full) pen.setDashPattern({5 / 2.4, 4 / 2.4});
        p.setPen(pen);
        QVector<QPointF> poly;
        for (const auto& pt : edge.points) poly.push_back(QPointF(pt.x, pt.y));
        p.drawPolyline(poly.data(), static_cast<int>(poly.size()));
        if (full && f.r.items[static_cast<size_t>(edge.target)].kind != ItemKind::Port) {
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            drawArrow(p, edge.points[edge.points.size() - 2], edge.points.back());
            p.setBrush(Qt::NoBrush);
        }
    }
}

// Tensor shapes along the edges.
void drawEdgeLabels(QPainter& p, const Frame& f, const std::vector<int32_t>& edges) {
    p.setFont(labelFont(2));
    p.setPen(f.rq.theme.edgeLabel);
    // One output feeding several nodes is one tensor with one shape: its
    // edges leave the box together, and a label on each overprinted the others.
    std::unordered_map<int32_t, const std::string*> drawn;  // source -> the label drawn first
    drawn.reserve(edges.size());
    for (int32_t e : edges) {
        const auto& edge = f.r.edges[e];
        if (edge.label.empty()) continue;
        const auto [it, first] = drawn.emplace(edge.source, &edge.label);
        if (!first && *it->second == edge.label) continue;
        p.drawText(QPointF(edge.labelPos.x, edge.labelPos.y + 10 * 0.35), QString::fromStdString(edge.label));
    }
}

// Highlight halos, then the boxes (filled with the overlay colour when there is one).
void drawItems(QPainter& p, const Frame& f, const std::vector<int32_t>& items, bool full) {
    const auto& theme = f.rq.theme;
    // Highlight halos first (under the boxes).
    for (int32_t i : items) {
        const uint8_t fl = f.itemFlag(i);
        if (!(fl & kFlagHighlighted)) continue;
        const PlacedItem& it = f.r.items[i];
        p.setPen(Qt::NoPen);
        p.setBrush(theme.highlight);
        drawShape(p, it, grow(it.rect, 5), full);
    }
    const double borderW = full ? 1.2 : 0;
    for (int32_t i : items) {
        const PlacedItem& it = f.r.items[i];
        if (layout::isFrameKind(it.kind)) continue;
        const auto& c = theme.colors(it);
        const NodeDecoration* d = f.decoration(it);
        QPen pen(c.stroke, it.kind == ItemKind::Module && full ? 2.4 : borderW);
        if (it.kind == ItemKind::Ghost && full) pen.setDashPattern({3 / 1.2, 3 / 1.2});
        // Run state is the fill: solid once the node ran, faded (and its
        // border dashed) while it is still to run. Rings are for the selection,
        // the cursor and failures; the selection's neighbours show on edges.
        QColor fill = d && d->overlay.isValid() ? d->overlay : c.fill;
        if ((d && d->state == RunMark::Pending) || f.framePosition(it) == 2) {
            fill.setAlpha(70);
            if (full) pen.setStyle(Qt::DashLine);
        }
        p.setPen(pen);
        p.setBrush(fill);
        drawShape(p, it, it.rect, full);
    }
}

// A filled disc with a short white sign (the missing-value "!", a diff's "+").
void cornerDisc(QPainter& p, const QPointF& c, double radius, const QColor& color, const QString& sign, int px) {
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawEllipse(c, radius, radius);
    if (sign.isEmpty()) return;
    QFont fnt = p.font();
    fnt.setBold(true);
    fnt.setPixelSize(px);
    p.setFont(fnt);
    p.setPen(Qt::white);
    p.drawText(QRectF(c.x() - radius, c.y() - radius - 0.5, 2 * radius, 2 * radius), Qt::AlignCenter, sign);
}

// Selection, neighbours, the run cursor and decorations on top of the boxes.
void drawMarks(QPainter& p, const Frame& f, const std::vector<int32_t>& items, bool full) {
    const auto& theme = f.rq.theme;
    for (int32_t i : items) {
        const uint8_t fl = f.itemFlag(i);
        const PlacedItem& it = f.r.items[i];
        const NodeDecoration* d = f.decoration(it);
        const bool next = f.framePosition(it) == 1, inner = f.subgraphBreakpoint(it);
        if (!fl && !d && !next && !inner) continue;
        p.setBrush(Qt::NoBrush);
        auto ring = [&](const QColor& color, double width, double out) {
            QPen pen(color, full ? width : 0);
            if (!full) pen.setWidthF(width / std::max(f.zoom, 0.01) * 0.6);
            p.setPen(pen);
            drawShape(p, it, grow(it.rect, out), full);
        };
        if (d && d->state == RunMark::Failed) ring(QColor("#d0302a"), 3, 1.5);
        if ((fl & kFlagRunCursor) || (d && d->state == RunMark::Current) || next) ring(theme.current, 2.5, 4);
        if (fl & kFlagSelected) ring(theme.selection, 3.2, 2);
        if (fl & kFlagMarked) {  // dashed: apart from selection, neighbourhood and run state
            QPen pen(QColor("#7b1fa2"), full ? 2.5 : 0, Qt::DashLine);
            if (!full) pen.setWidthF(2.5 / std::max(f.zoom, 0.01) * 0.6);
            p.setPen(pen);
            drawShape(p, it, grow(it.rect, 5), full);
        }
        if ((d && d->breakpoint) || inner) {
            p.setPen(Qt::NoPen);
            p.setBrush(QColor("#d0302a"));
            p.drawEllipse(QPointF(it.rect.x, it.rect.y), 5, 5);
        }
        if (d && d->missingValue) {  // a value is missing: red ring and a "!" badge at the top-right
            if (it.kind != ItemKind::Op && it.kind != ItemKind::Module && it.kind != ItemKind::Frame)
                ring(QColor("#e02020"), 2.5, 3);  // the placeholder itself
            cornerDisc(p, QPointF(it.rect.right(), it.rect.y), 7, QColor("#e02020"),
                       full ? QStringLiteral("!") : QString(), 11);
        }
    }
}

// A comparison's marks: a thick ring in the change's colour with its sign in
// a corner disc (+ added, − removed, Δ changed) on ops, graph inputs and
// weights, and on a collapsed module
// holding changes a dashed ring (green when all are additions, red when all removals, else amber) and "N changes" above
// it.
void drawDiffMarks(QPainter& p, const Frame& f, const std::vector<int32_t>& items, bool full) {
    for (int32_t i : items) {
        const PlacedItem& it = f.r.items[i];
        const DiffMark m = f.diffMark(it);
        const int32_t inside = f.moduleChanges(it);
        if (!DiffMarks::isChange(m) && inside == 0) continue;
        const QColor c = DiffMarks::isChange(m) ? DiffMarks::color(m) : DiffMarks::color(f.moduleMark(it));
        QPen pen(c, full ? 4 : 0, inside > 0 ? Qt::DashLine : Qt::SolidLine);
        if (!full) pen.setWidthF(4 / std::max(f.zoom, 0.01) * 0.6);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        drawShape(p, it, grow(it.rect, 3.5), full);
        const QPointF corner(it.rect.x, it.rect.y);
        if (inside > 0) {
            if (!full) continue;
            QFont fnt = p.font();
            fnt.setBold(true);
            fnt.setPixelSize(11);
            p.setFont(fnt);
            p.setPen(c.darker(120));
            p.drawText(
                QRectF(it.rect.x, it.rect.y - 18, it.rect.width, 14), Qt::AlignLeft | Qt::AlignVCenter,
                inside == 1 ? QStringLiteral("contains 1 change") : QStringLiteral("contains %1 changes").arg(inside));
            continue;
        }
        const QString sign = m == DiffMark::Added     ? QStringLiteral("+")
                             : m == DiffMark::Removed ? QString(QChar(0x2212))
                                                      : QString(QChar(0x0394));  // Δ
        cornerDisc(p, corner, 8, c, full ? sign : QString(), 13);
    }
}

// "Dim unchanged": a veil of the background over every op and collapsed
// module the comparison found unchanged, text included, so the changes stand out.
void dimUnchanged(QPainter& p, const Frame& f, const std::vector<int32_t>& items) {
    QColor veil = f.rq.theme.background;
    veil.setAlpha(175);
    p.setPen(Qt::NoPen);
    p.setBrush(veil);
    for (int32_t i : items) {
        const PlacedItem& it = f.r.items[i];
        const bool unchangedOp = it.kind == ItemKind::Op && !DiffMarks::isChange(f.diffMark(it));
        const bool quietModule = it.kind == ItemKind::Module && f.moduleChanges(it) == 0;
        if (!unchangedOp && !quietModule) continue;
        const Rect r = grow(it.rect, 1);
        p.drawRect(QRectF(r.x, r.y, r.width, r.height));
    }
}

// Labels (bold op name, dimmer lines below), the module "+" and the badges; full detail only.
void drawLabels(QPainter& p, const Frame& f, const std::vector<int32_t>& items) {
    const auto& theme = f.rq.theme;
    for (int32_t i : items) {
        const PlacedItem& it = f.r.items[i];
        if (it.lines.empty() || layout::isFrameKind(it.kind)) continue;
        if (it.kind == ItemKind::Module) {  // a "+": double-click opens it
            const QRectF plus(it.rect.right() - 15, it.rect.y + 4, 11, 11);
            p.setPen(QPen(theme.colors(it).stroke, 1.2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(plus);
            p.drawLine(QPointF(plus.left() + 2.5, plus.center().y()), QPointF(plus.right() - 2.5, plus.center().y()));
            p.drawLine(QPointF(plus.center().x(), plus.top() + 2.5), QPointF(plus.center().x(), plus.bottom() - 2.5));
        }
        const double lineH = kLabelLineHeight;
        const double total = lineH * static_cast<double>(it.lines.size());
        const double top = it.rect.center().y - total / 2;
        const bool ghost = it.kind == ItemKind::Ghost;
        // On an overlay fill, pick the text colour by the fill's lightness so a
        // dark red "differs" node stays readable.
        const NodeDecoration* deco = f.decoration(it);
        const auto luma = [](const QColor& c) { return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue(); };
        const bool darkFill = deco && deco->overlay.isValid() && luma(deco->overlay) < 140;
        for (size_t l = 0; l < it.lines.size(); ++l) {
            const bool first = l == 0;
            const bool boldFirst = it.kind == ItemKind::Op || it.kind == ItemKind::Module;
            p.setFont(labelFont(ghost ? 3 : (first && boldFirst) ? 0 : 1));
            if (first && !ghost && !boldFirst) {
                QFont fnt = labelFont(1);
                fnt.setPixelSize(12);
                p.setFont(fnt);
            }
            p.setPen(darkFill ? QColor(Qt::white) : first ? theme.text : theme.textDim);
            QString text = QString::fromStdString(it.lines[l]);
            if (ghost) text.prepend(QChar(0x21b3)).insert(1, QLatin1Char(' '));
            const QRectF lr(it.rect.x - 20, top + lineH * static_cast<double>(l), it.rect.width + 40, lineH);
            p.drawText(lr, Qt::AlignCenter, text);
        }
        if (const NodeDecoration* d = f.decoration(it); d && !d->badge.isEmpty()) {
            // Beside the box, at its middle: edges enter at the top and leave
            // at the bottom, so the value reads clear of them; on a plate of
            // the background where an edge passes anyway.
            p.setFont(labelFont(2));
            const QFontMetricsF fm(p.font());
            const QRectF br(it.rect.right() + 4, it.rect.y + it.rect.height / 2 - 7, fm.horizontalAdvance(d->badge) + 4,
                            14);
            QColor plate = theme.background;
            plate.setAlpha(210);
            p.fillRect(br, plate);
            p.setPen(theme.edgeLabel);
            p.drawText(br.adjusted(2, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, d->badge);
        }
    }
}

void renderDetailed(QPainter& p, const Frame& f, bool full) {
    const auto& rq = f.rq;
    p.save();
    p.setClipRect(rq.target);
    if (rq.fillBackground) p.fillRect(rq.target, rq.theme.background);
    p.translate(rq.target.topLeft());
    p.scale(f.zoom, f.zoom);
    p.translate(-f.scene.x, -f.scene.y);
    p.setRenderHint(QPainter::Antialiasing, full);
    p.setRenderHint(QPainter::TextAntialiasing, true);

    const auto items = f.items();
    drawFrames(p, f, items, full);
    const auto edges = f.edges();
    drawFlaggedEdges(p, f, drawPlainEdges(p, f, edges, full), full);
    if (full && f.zoom >= kEdgeLabelsFromZoom) drawEdgeLabels(p, f, edges);
    drawItems(p, f, items, full);
    drawMarks(p, f, items, full);
    if (rq.diff) drawDiffMarks(p, f, items, full);
    if (full) drawLabels(p, f, items);
    veilSkippedSubgraphs(p, f, items);
    if (rq.diff && rq.diff->dimUnchanged) dimUnchanged(p, f, items);
    p.restore();
}

}  // namespace

void renderGraph(QPainter& painter, const RenderRequest& rq) {
    if (!rq.layout || rq.sceneRect.isEmpty() || rq.target.isEmpty()) {
        if (rq.fillBackground) painter.fillRect(rq.target, rq.theme.background);
        return;
    }
    const auto& r = rq.layout->result;
    const double zoom = rq.target.width() / rq.sceneRect.width();
    DetailLevel level = rq.detail == DetailLevel::Auto ? detailFor(zoom) : rq.detail;
    const bool stretch = rq.stretch && level == DetailLevel::Overview;
    const double zoomY = stretch ? rq.target.height() / rq.sceneRect.height() : zoom;
    const Rect scene{rq.sceneRect.x(), rq.sceneRect.y(), rq.sceneRect.width(), rq.target.height() / zoomY};
    const Rect& b = r.bounds;
    const bool everything =
        scene.x <= b.x && scene.y <= b.y && scene.right() >= b.right() && scene.bottom() >= b.bottom();
    Frame f{rq, r, zoom, everything, scene, zoomY};
    if (level == DetailLevel::Overview)
        renderOverview(painter, f);
    else
        renderDetailed(painter, f, level == DetailLevel::Full);
}

}  // namespace irscope::widgets
