#pragma once
// The one way a panel reaches the window. Each panel's .cpp registers a
// PanelRegistration (its id, title, place, what it needs and how to make it);
// MainWindow::installPanels makes and places every registration whose needs
// the context it is given meets: the window installs the panels that need
// only the session when it is built, the debugger those that need its
// controller, the comparison those that need its session. So a new panel is
// one new file, and the window's code names no panel (tests and scripts find
// one by id: MainWindow::panelAs). RenderDoc's qrenderdoc builds its docks in
// one if-chain in its main window; Qt Creator's plugins register theirs, as
// here.
//
// A panel observes the shared session (and the controller, the comparison)
// it is given and never talks to another panel; one that implements
// PanelEvents (panel_events.h) is told the session's named events.
//
// irscope_widgets is linked whole-archive (widgets/CMakeLists.txt), so the
// linker keeps a panel file that no other code names.
#include <optional>
#include <vector>

#include <Qt>

#include "widgets/common/panel_id.h"

class QDockWidget;
class QWidget;

namespace irscope::widgets {

class CompareSession;
class DebugController;
class GraphSession;
class MainWindow;

// Where a panel's dock goes.
struct PanelPlacement {
    Qt::DockWidgetArea area = Qt::RightDockWidgetArea;
    std::optional<PanelId> besideOf;    // split that panel's place: this one goes on its right (or below)
    std::optional<PanelId> tabbedWith;  // a tab in that panel's tab group
};

// What a panel may observe; null where the part is not installed (yet).
struct PanelContext {
    MainWindow* window = nullptr;
    GraphSession* session = nullptr;
    DebugController* controller = nullptr;
    CompareSession* compare = nullptr;
};

// What a panel needs in its context before it can be made.
enum class PanelNeeds { Session, Controller, Compare };

struct PanelRegistration {
    PanelId id;
    const char* title = "";  // untranslated: QT_TRANSLATE_NOOP("irscope::widgets::Panels", "...")
    int order = 100;         // installed in this order; `where` may name only panels installed before
    PanelNeeds needs = PanelNeeds::Session;
    QWidget* (*make)(const PanelContext& context) = nullptr;
    PanelPlacement where{};              // its own dock, unless sectionOf is set
    std::optional<PanelId> sectionOf{};  // a section in that panel's dock instead (above or below it)
    Qt::Edge sectionEdge = Qt::BottomEdge;
    // Once placed: what the panel adds to the window beyond its dock (menu
    // actions, the dock's title). `dock` is null for a section.
    void (*installed)(QWidget* panel, QDockWidget* dock, const PanelContext& context) = nullptr;
};

// Returns true, so a panel file can register with a namespace-scope constant.
bool registerPanel(const PanelRegistration& registration);
// By order, then id.
const std::vector<PanelRegistration>& registeredPanels();
// Whether `context` holds what `needs` asks for.
bool contextMeets(const PanelContext& context, PanelNeeds needs);

}  // namespace irscope::widgets
