#pragma once
// The whole drawing as an image, through the same renderer as the view
// (used by File > Export as PNG and `irscope render -o X.png`).
#include <QImage>
#include <QString>

#include "widgets/graph_view/graph_theme.h"
#include "widgets/session/loaded_document.h"

namespace irscope::widgets {

// Largest side and pixel count an export may have; a bigger request is scaled down.
inline constexpr int kMaxExportSide = 32000;
inline constexpr qint64 kMaxExportPixels = 250'000'000;

// Scale that keeps `requested` within the limits above for this layout.
double clampExportScale(const DocumentLayout& layout, double requested);
// Renders the whole layout at `scale` (1 = 100% zoom) in full detail. Needs a QGuiApplication.
QImage renderLayoutImage(const DocumentLayout& layout, double scale, const GraphTheme& theme = GraphTheme::light());

}  // namespace irscope::widgets
