#include "widgets/graph_view/overlay_scale.h"

#include <algorithm>
#include <cmath>

namespace irscope::widgets {

namespace {

// t in [0, 1] -> light yellow .. orange .. red.
QColor mixStops(double t) {
    t = std::clamp(t, 0.0, 1.0);
    const QColor c0("#fff5c0"), c1("#ffa040"), c2("#e0302a");
    auto mix = [](const QColor& a, const QColor& b, double u) {
        return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * u, a.greenF() + (b.greenF() - a.greenF()) * u,
                                a.blueF() + (b.blueF() - a.blueF()) * u);
    };
    return t < 0.5 ? mix(c0, c1, t * 2) : mix(c1, c2, (t - 0.5) * 2);
}

bool isLogScale(exec::OverlayKind kind) {
    return kind == exec::OverlayKind::Difference || kind == exec::OverlayKind::MaxAbs;
}

}  // namespace

OverlayScale OverlayScale::fitted(exec::OverlayKind kind, const std::vector<double>& values) {
    double lo = INFINITY, hi = -INFINITY;
    const bool log = isLogScale(kind);
    for (double v : values)
        if (!std::isnan(v) && std::isfinite(v) && (!log || v > 0)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (kind == exec::OverlayKind::Difference) lo = std::max(1e-8, lo);
    return OverlayScale(kind, lo, hi);
}

QColor OverlayScale::color(double v) const {
    if (std::isnan(v)) return {};
    if (kind_ == exec::OverlayKind::NanInf) return v > 0 ? QColor("#ff6b6b") : QColor("#c9f2c9");
    if (kind_ == exec::OverlayKind::Difference && v == 0) return QColor("#c9f2c9");
    double t = 0;
    if (isLogScale(kind_)) {
        // 0 is the lightest; lo is the smallest positive value.
        if (v <= 0) return mixStops(0);
        if (std::isinf(v)) return mixStops(1);
        const double a = std::log10(std::max(v, 1e-30)), b0 = std::log10(std::max(lo_, 1e-30)),
                     b1 = std::log10(std::max(hi_, 1e-30));
        t = b1 > b0 ? (a - b0) / (b1 - b0) : 1;
    } else {
        t = hi_ > lo_ ? (v - lo_) / (hi_ - lo_) : 0;
    }
    return mixStops(t);
}

QString OverlayScale::badge(double v) const {
    if (std::isnan(v)) return {};
    switch (kind_) {
    case exec::OverlayKind::Time:
        return v < 1e-3 ? QString::number(v * 1e6, 'f', 0) + QStringLiteral(" µs")
                        : QString::number(v * 1e3, 'f', 2) + QStringLiteral(" ms");
    case exec::OverlayKind::MaxAbs: return QString::number(v, 'g', 3);
    // Only nodes that differ get a badge (green fill says "matches"): "0" on
    // every node of a busy graph is clutter.
    case exec::OverlayKind::Difference: return v != 0 ? QString::number(v, 'g', 3) : QString();
    case exec::OverlayKind::NanInf: return v > 0 ? QStringLiteral("NaN/Inf") : QString();
    default: return {};
    }
}

}  // namespace irscope::widgets
