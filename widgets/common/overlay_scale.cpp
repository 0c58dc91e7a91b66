#include "widgets/common/overlay_scale.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <QObject>

namespace irscope::widgets {

namespace {

const QColor kGood("#c9f2c9");  // an exact match, no NaN/Inf

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

// Errors against the reference, where 0 means "matches exactly" (green).
bool isError(exec::OverlayKind kind) {
    using K = exec::OverlayKind;
    return kind == K::Difference || kind == K::ErrorMaxRel || kind == K::ErrorMeanAbs || kind == K::ErrorMse;
}

// Scaled by log10 of the value (cosine: of 1 - cosine).
bool isLogScale(exec::OverlayKind kind) {
    return isError(kind) || kind == exec::OverlayKind::MaxAbs || kind == exec::OverlayKind::ErrorCosine;
}

// The value the colour grows with: how bad it is.
double badness(exec::OverlayKind kind, double v) {
    if (kind == exec::OverlayKind::ErrorCosine) return 1 - v;
    if (kind == exec::OverlayKind::ErrorSqnr) return -v;
    return v;
}

// SQNR on an absolute scale, never relative to the run's own range: 135 dB
// is float rounding whatever else the run holds, 25 dB is a lossy int8
// tensor whatever else it holds. Bands of dB, best first, with their colours.
struct SqnrBand {
    double from;  // dB, inclusive
    const char* colour;
    const char* label;
};
constexpr SqnrBand kSqnrBands[] = {
    {60, "#c9f2c9", "≥ 60 dB"},  {40, "#fff5c0", "40–60 dB"},       {30, "#ffd080", "30–40 dB"},
    {20, "#ffa040", "20–30 dB"}, {-INFINITY, "#e0302a", "< 20 dB"},
};

QColor sqnrColour(double db) {
    for (const auto& b : kSqnrBands)
        if (db >= b.from) return QColor(QString::fromUtf8(b.colour));
    return QColor(QString::fromUtf8(kSqnrBands[std::size(kSqnrBands) - 1].colour));
}

QString fmt(double v) {
    if (std::isinf(v)) return v > 0 ? QStringLiteral("+inf") : QStringLiteral("-inf");
    return QString::number(v, 'g', 3);
}

}  // namespace

QString overlayName(exec::OverlayKind kind) {
    switch (kind) {
    case exec::OverlayKind::None: return QObject::tr("none");
    case exec::OverlayKind::Time: return QObject::tr("time");
    case exec::OverlayKind::MaxAbs: return QObject::tr("max |x|");
    case exec::OverlayKind::NanInf: return QObject::tr("NaN/Inf");
    case exec::OverlayKind::Imported: return QObject::tr("imported node data");
    default: break;
    }
    // The error metrics: their titles (error_metric_table.h).
    if (const exec::ErrorMetricInfo* metric = exec::errorMetricOfOverlay(kind)) return QObject::tr(metric->title);
    return {};
}

OverlayScale OverlayScale::fitted(exec::OverlayKind kind, const std::vector<double>& values,
                                  std::vector<exporter::NodeDataThreshold> thresholds, QString importedTitle) {
    double lo = INFINITY, hi = -INFINITY;
    const bool log = isLogScale(kind);
    for (double v : values) {
        if (std::isnan(v)) continue;
        const double b = badness(kind, v);
        if (std::isfinite(b) && (!log || b > 0)) {
            lo = std::min(lo, b);
            hi = std::max(hi, b);
        }
    }
    if (isError(kind)) lo = std::max(1e-12, lo);
    OverlayScale s(kind, lo, hi);
    if (kind == exec::OverlayKind::Imported) {
        s.thresholds_ = std::move(thresholds);
        s.importedTitle_ = std::move(importedTitle);
    }
    return s;
}

double OverlayScale::position(double v) const {
    const double b = badness(kind_, v);
    if (isLogScale(kind_)) {
        // 0 is the lightest; lo is the smallest positive value.
        if (b <= 0) return 0;
        if (std::isinf(b)) return 1;
        const double a = std::log10(std::max(b, 1e-30)), b0 = std::log10(std::max(lo_, 1e-30)),
                     b1 = std::log10(std::max(hi_, 1e-30));
        return b1 > b0 ? (a - b0) / (b1 - b0) : 1;
    }
    if (std::isinf(b)) return b > 0 ? 1 : 0;
    // One value only: an error that is not exact is the worst there is.
    const bool error = kind_ == exec::OverlayKind::ErrorSqnr || kind_ == exec::OverlayKind::ErrorCosine;
    return hi_ > lo_ ? (b - lo_) / (hi_ - lo_) : error ? 1 : 0;
}

QColor OverlayScale::color(double v) const {
    if (std::isnan(v)) return {};
    if (kind_ == exec::OverlayKind::NanInf) return v > 0 ? QColor("#ff6b6b") : kGood;
    if (isError(kind_) && v == 0) return kGood;
    if (kind_ == exec::OverlayKind::ErrorCosine && v == 1) return kGood;
    if (kind_ == exec::OverlayKind::ErrorSqnr) return std::isinf(v) && v > 0 ? kGood : sqnrColour(v);
    if (kind_ == exec::OverlayKind::Imported && !thresholds_.empty()) {
        const std::string c = exporter::nodeDataColour(thresholds_, v);
        const QColor colour(QString::fromStdString(c));
        return colour.isValid() ? colour : mixStops(1);
    }
    return mixStops(position(v));
}

QString OverlayScale::badge(double v) const {
    if (std::isnan(v)) return {};
    switch (kind_) {
    case exec::OverlayKind::Time:
        return v < 1e-3 ? QString::number(v * 1e6, 'f', 0) + QStringLiteral(" µs")
                        : QString::number(v * 1e3, 'f', 2) + QStringLiteral(" ms");
    case exec::OverlayKind::MaxAbs:
    case exec::OverlayKind::Imported: return fmt(v);
    case exec::OverlayKind::NanInf: return v > 0 ? QStringLiteral("NaN/Inf") : QString();
    // Only nodes that differ get a badge (green fill says "matches"): "0" on
    // every node of a busy graph is clutter.
    case exec::OverlayKind::Difference:
    case exec::OverlayKind::ErrorMaxRel:
    case exec::OverlayKind::ErrorMeanAbs:
    case exec::OverlayKind::ErrorMse: return v != 0 ? fmt(v) : QString();
    case exec::OverlayKind::ErrorCosine: return v != 1 ? QString::number(v, 'f', 4) : QString();
    case exec::OverlayKind::ErrorSqnr: return std::isinf(v) && v > 0 ? QString() : fmt(v) + QStringLiteral(" dB");
    default: return {};
    }
}

QString OverlayScale::title() const {
    QString t = overlayName(kind_);
    if (kind_ == exec::OverlayKind::Imported && !importedTitle_.isEmpty()) return importedTitle_;
    if (kind_ == exec::OverlayKind::Imported && !thresholds_.empty()) return t + QObject::tr(" (file's thresholds)");
    if (isLogScale(kind_) && kind_ != exec::OverlayKind::ErrorCosine) t += QObject::tr(" (log scale)");
    if (kind_ == exec::OverlayKind::ErrorSqnr) t += QObject::tr(", absolute bands");
    if (kind_ == exec::OverlayKind::Time) t += QObject::tr(" per node");
    return t;
}

std::vector<std::pair<QColor, QString>> OverlayScale::legend() const {
    std::vector<std::pair<QColor, QString>> out;
    if (kind_ == exec::OverlayKind::None) return out;
    if (kind_ == exec::OverlayKind::NanInf)
        return {{kGood, QObject::tr("finite")}, {QColor("#ff6b6b"), QStringLiteral("NaN/Inf")}};
    if (kind_ == exec::OverlayKind::Imported && !thresholds_.empty()) {
        for (const auto& t : thresholds_)
            out.emplace_back(QColor(QString::fromStdString(t.bgColor)),
                             t.label.empty() ? QStringLiteral("≤ ") + fmt(t.value) : QString::fromStdString(t.label));
        return out;
    }
    if (isError(kind_)) out.emplace_back(kGood, QObject::tr("exact"));
    if (kind_ == exec::OverlayKind::ErrorCosine) out.emplace_back(kGood, QStringLiteral("1"));
    if (kind_ == exec::OverlayKind::ErrorSqnr) {
        out.emplace_back(kGood, QStringLiteral("+inf (exact)"));
        for (const auto& b : kSqnrBands)
            out.emplace_back(QColor(QString::fromUtf8(b.colour)), QString::fromUtf8(b.label));
        return out;
    }
    if (!(lo_ <= hi_)) return out;  // no finite value yet
    // Five swatches from lo to hi in the scale's own spacing, labelled with the value they stand for.
    for (int i = 0; i < 5; ++i) {
        const double u = i / 4.0;
        double b = isLogScale(kind_) && lo_ > 0
                       ? std::pow(10.0, std::log10(lo_) + u * (std::log10(hi_) - std::log10(lo_)))
                       : lo_ + u * (hi_ - lo_);
        const double v = kind_ == exec::OverlayKind::ErrorCosine ? 1 - b
                         : kind_ == exec::OverlayKind::ErrorSqnr ? -b
                                                                 : b;
        QString label = kind_ == exec::OverlayKind::Time          ? badge(v)
                        : kind_ == exec::OverlayKind::ErrorCosine ? QString::number(v, 'f', 6)
                                                                  : fmt(v);
        if (hi_ == lo_) {
            out.emplace_back(mixStops(position(v)), label);
            break;
        }
        out.emplace_back(mixStops(u), label);
    }
    return out;
}

}  // namespace irscope::widgets
