#pragma once
// Colours of the drawing. Node fills follow the SVG export (op family, p_/b_/c_
// kinds) in both themes; the canvas, edges and text follow the system's
// light or dark palette.
#include <array>

#include <QColor>
#include <QPalette>

#include "core/layout/layout_result.h"

namespace irscope::widgets {

struct ItemColors {
    QColor fill, stroke;
};

struct GraphTheme {
    bool dark = false;
    QColor background, grid;
    QColor edge, edgeDashed, edgeLabel, edgeOverview;
    QColor text, textDim;  // on node fills (always light fills)
    QColor selection, producer, consumer, highlight, current;

    static GraphTheme light();
    static GraphTheme darkTheme();
    // Dark when the palette's window colour is dark (Qt 6.4 has no colour-scheme API).
    static GraphTheme fromPalette(const QPalette& palette);

    const ItemColors& colors(const layout::PlacedItem& item) const;

private:
    void buildTable();
    std::array<ItemColors, 13> kindColors_;   // by ItemKind (Op unused)
    std::array<ItemColors, 8> familyColors_;  // by OpFamily
};

}  // namespace irscope::widgets
