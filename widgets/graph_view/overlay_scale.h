#pragma once
// OverlayScale: how the graph view shows a debugger overlay value (time, max
// |x|, NaN/Inf, difference to the reference): a fill colour from light yellow
// through orange to red, and a short badge text. Kept with the view's other
// colours rather than in the session, which only carries the values.
//
// Magnitudes (max |x|, difference) use a log scale so that values spread over
// orders of magnitude stay apart; time uses a linear one; NaN/Inf and a zero
// difference are a flag (red / green).
#include <vector>

#include <QColor>
#include <QString>

#include "core/exec/debugger.h"

namespace irscope::widgets {

class OverlayScale {
public:
    // A scale spanning [lo, hi] (for a log scale lo is the smallest positive value).
    OverlayScale(exec::OverlayKind kind, double lo, double hi) : kind_(kind), lo_(lo), hi_(hi) {}
    // The scale over per-node values (NaN: no value).
    static OverlayScale fitted(exec::OverlayKind kind, const std::vector<double>& values);

    exec::OverlayKind kind() const { return kind_; }
    // Invalid for NaN (keep the family fill).
    QColor color(double value) const;
    // "1.2 ms", "3.4e-05", "NaN/Inf"; empty where a badge would be clutter.
    QString badge(double value) const;

private:
    exec::OverlayKind kind_;
    double lo_, hi_;
};

}  // namespace irscope::widgets
