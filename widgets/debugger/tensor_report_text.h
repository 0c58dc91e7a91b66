#pragma once
// The words and tables a tensor viewer shows for the core's answers: the
// Summary tab's table, the Histogram tab's caption and the Compare tab's
// verdict. Kept apart from the viewer, which only asks and places them.
#include <optional>

#include <QString>

#include "core/exec/debugger/debugger.h"

namespace irscope::widgets {

// Shape, dtype, size and statistics; NaN and Inf counts in red when not 0.
QString summaryHtml(const exec::TensorSummary& summary);
// "N finite values in 64 bins over [lo, hi]; excluded: ..."; "No value" without a histogram.
QString histogramCaption(const std::optional<exec::Histogram>& histogram);
// Matches / differs, with the worst element (or why it cannot be compared);
// `divergence` (may be empty) appended.
QString compareHtml(const exec::Comparison& comparison, const QString& divergence);

}  // namespace irscope::widgets
