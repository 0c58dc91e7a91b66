#pragma once
// Installs the comparison of two IRs into a MainWindow through its
// public API: File ▸ Compare With… and the Compare menu (close, next /
// previous change F8 / Shift+F8, side by side or stacked, dim unchanged, sync
// viewports, B's values as the reference), side B's pane in the view
// splitter, and the Changes dock.
#include "widgets/common/panel_id.h"

class QAction;
class QDockWidget;

namespace irscope::widgets {

class ChangesPanel;
class ComparePane;
class CompareSession;
class DebugController;
class MainWindow;

inline constexpr PanelId kChangesPanel{"changesDock"};

struct CompareUi {
    CompareSession* session = nullptr;
    ComparePane* pane = nullptr;
    ChangesPanel* changes = nullptr;
    QDockWidget* changesDock = nullptr;
    QAction *compareAction = nullptr, *closeAction = nullptr, *nextAction = nullptr, *previousAction = nullptr,
            *stackedAction = nullptr, *dimAction = nullptr, *syncAction = nullptr, *valuesAction = nullptr;
};

// `controller` (may be null) receives B's values as the reference of A's run.
// In a window whose panels come after its first frame, `changes` stays null
// until attachComparePanels, called once the window made them.
CompareUi installCompare(MainWindow& window, DebugController* controller);
void attachComparePanels(MainWindow& window, CompareUi& ui);

}  // namespace irscope::widgets
