#pragma once
// OverlayScale: how the graph view shows a debugger overlay value (time, max
// |x|, NaN/Inf, an error metric against the reference, imported node data):
// a fill colour from light yellow through orange to red, a short badge
// text, and the legend that explains both. Kept with the view's other
// colours rather than in the session, which only carries the values.
//
// Magnitudes (max |x|, the errors) use a log scale so that values spread
// over orders of magnitude stay apart; time uses a linear one; cosine is
// scaled by how far it is from 1; SQNR on absolute dB bands (60, 40, 30, 20:
// the same colour means the same dB in every run);
// NaN/Inf and an exact match are flags (red / green). Imported node data
// takes its file's threshold colours when it has them.
#include <utility>
#include <vector>

#include <QColor>
#include <QString>

#include "core/exec/debugger/debugger.h"

namespace irscope::widgets {

class OverlayScale {
public:
    // A scale spanning [lo, hi] (for a log scale lo is the smallest positive value).
    OverlayScale(exec::OverlayKind kind, double lo, double hi) : kind_(kind), lo_(lo), hi_(hi) {}
    // The scale over per-node values (NaN: no value); `thresholds` colour
    // imported node data when given.
    static OverlayScale fitted(exec::OverlayKind kind, const std::vector<double>& values,
                               std::vector<exporter::NodeDataThreshold> thresholds = {}, QString importedTitle = {});

    exec::OverlayKind kind() const { return kind_; }
    // Invalid for NaN (keep the family fill).
    QColor color(double value) const;
    // "1.2 ms", "3.4e-05", "NaN/Inf"; empty where a badge would be clutter.
    QString badge(double value) const;
    // What the overlay shows, for the legend: "max abs error (log)".
    QString title() const;
    // Swatches from best to worst with their values, for the legend.
    std::vector<std::pair<QColor, QString>> legend() const;

private:
    double position(double value) const;  // 0 (lightest) .. 1 (red)

    exec::OverlayKind kind_;
    double lo_, hi_;
    std::vector<exporter::NodeDataThreshold> thresholds_;
    QString importedTitle_;  // what imported numbers are, when their source said
};

// The overlay's name in menus and the legend: "SQNR (dB)".
QString overlayName(exec::OverlayKind kind);

}  // namespace irscope::widgets
