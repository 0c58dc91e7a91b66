#include "widgets/graph_view/graph_theme.h"

#include "core/export/svg_export.h"

namespace irscope::widgets {

using layout::ItemKind;
using layout::OpFamily;

void GraphTheme::buildTable() {
    layout::PlacedItem probe;
    for (int k = 0; k < static_cast<int>(kindColors_.size()); ++k) {
        probe.kind = static_cast<ItemKind>(k);
        probe.family = OpFamily::Other;
        const auto c = exporter::itemColors(probe);
        kindColors_[k] = {QColor(c.fill), QColor(c.stroke)};
    }
    probe.kind = ItemKind::Op;
    for (int f = 0; f < 8; ++f) {
        probe.family = static_cast<OpFamily>(f);
        const auto c = exporter::itemColors(probe);
        familyColors_[f] = {QColor(c.fill), QColor(c.stroke)};
    }
    if (dark) {
        // Ghosts and "other" ops are white in the light theme; soften them on a dark canvas.
        kindColors_[static_cast<int>(ItemKind::Ghost)] = {QColor("#3a3f46"), QColor("#8a9099")};
        kindColors_[static_cast<int>(ItemKind::Frame)] = {QColor("#262b32"), QColor("#5d6a7c")};
        kindColors_[static_cast<int>(ItemKind::Port)] = {QColor("#3a3f46"), QColor("#8a9099")};
        familyColors_[static_cast<int>(OpFamily::Other)].fill = QColor("#e6e6e6");
    }
}

GraphTheme GraphTheme::light() {
    GraphTheme t;
    t.dark = false;
    t.background = QColor("#ffffff");
    t.grid = QColor("#f2f2f2");
    t.edge = QColor("#555555");
    t.edgeDashed = QColor("#8c8c8c");
    t.edgeLabel = QColor("#666666");
    t.edgeOverview = QColor("#b4b4b4");
    t.text = QColor("#1a1a1a");
    t.textDim = QColor("#555555");
    t.selection = QColor("#ff7a00");
    t.producer = QColor("#1f77d0");
    // Not green: green is nowhere a neighbourhood colour, so a node that reads
    // the selection is never taken for one that ran.
    t.consumer = QColor("#c2185b");
    t.highlight = QColor("#ffd000");
    // The next node to run (RenderDoc's current event): violet, so that it is
    // never mistaken for a failed node (red) or a done one (green).
    t.current = QColor("#7b3fe4");
    t.buildTable();
    return t;
}

GraphTheme GraphTheme::darkTheme() {
    GraphTheme t = light();
    t.dark = true;
    t.background = QColor("#1f2125");
    t.grid = QColor("#26292e");
    t.edge = QColor("#b8bcc4");
    t.edgeDashed = QColor("#868b94");
    t.edgeLabel = QColor("#a8adb6");
    t.edgeOverview = QColor("#5d626b");
    t.selection = QColor("#ff9a33");
    t.producer = QColor("#5aa9ff");
    t.consumer = QColor("#f06292");
    t.highlight = QColor("#ffd84a");
    t.current = QColor("#b48cff");
    t.buildTable();
    return t;
}

GraphTheme GraphTheme::fromPalette(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 110 ? darkTheme() : light();
}

const ItemColors& GraphTheme::colors(const layout::PlacedItem& item) const {
    if (item.kind == ItemKind::Op) return familyColors_[static_cast<int>(item.family) & 7];
    const auto k = static_cast<size_t>(item.kind);
    return kindColors_[k < kindColors_.size() ? k : 0];
}

}  // namespace irscope::widgets
