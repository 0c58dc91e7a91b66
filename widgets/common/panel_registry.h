#pragma once
// The panels that install themselves: each panel's .cpp registers a
// PanelRegistration (its id, title, place, and how to make it), and
// installRegisteredPanels puts every one into the window. A new panel is
// therefore one new file: nothing else names it. (Qt Creator's plugins and
// RenderDoc's window registry work the same way.)
//
// irscope_widgets is linked whole-archive (widgets/CMakeLists.txt), so the
// linker keeps a panel file that no other code names.
#include <optional>
#include <vector>

#include <QHash>
#include <QString>

#include "widgets/main_window/main_window.h"

class QWidget;

namespace irscope::widgets {

class DebugController;

// What a panel may observe. Panels never talk to each other.
struct PanelContext {
    MainWindow* window = nullptr;
    GraphSession* session = nullptr;
    DebugController* controller = nullptr;
};

struct PanelRegistration {
    PanelId id;
    const char* title = "";  // untranslated: QT_TRANSLATE_NOOP("irscope::widgets::Panels", "...")
    int order = 100;         // installed in this order; `where` may name only panels installed before
    QWidget* (*make)(const PanelContext& context) = nullptr;
    PanelPlacement where{};              // its own dock, unless sectionOf is set
    std::optional<PanelId> sectionOf{};  // a section in that panel's dock instead (above or below it)
    Qt::Edge sectionEdge = Qt::BottomEdge;
};

// Returns true, so a panel file can register with a namespace-scope constant.
bool registerPanel(const PanelRegistration& registration);
// By order, then id.
const std::vector<PanelRegistration>& registeredPanels();

// Makes and places every registered panel. Returns the panels by id key.
QHash<QString, QWidget*> installRegisteredPanels(MainWindow& window, const PanelContext& context);

}  // namespace irscope::widgets
