#pragma once
// Installs the debugger into a MainWindow through its public API only: the
// Weights / Constants / Inputs / Tensor / Differences / Breakpoints docks,
// the node's context menu (breakpoint, run to, watch), the Debug menu and toolbar
// (Continue F5, Step F10, Run to selected Ctrl+F10, Toggle breakpoint F9,
// Reset Shift+F5, Stop), overlay and retention choices, the progress bar,
// elapsed time and bytes held in the status bar, the execution section under
// the properties, the pre-flight list in the diagnostics dock, dropping tensor
// files on the window, the graph's decorations, and the view following the
// run cursor (the next node to run).
class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QProgressBar;
class QToolButton;

namespace irscope::widgets {

class BreakpointsPanel;
class ConstantsPanel;
class DebugController;
class DifferencesPanel;
class ExecInfoPanel;
class InputsPanel;
class MainWindow;
class MissingValuesPanel;
class NodeDecorator;
class TensorViewerArea;
class WeightsPanel;

struct DebuggerUi {
    DebugController* controller = nullptr;
    NodeDecorator* decorator = nullptr;
    WeightsPanel* weights = nullptr;
    ConstantsPanel* constants = nullptr;
    InputsPanel* inputs = nullptr;
    DifferencesPanel* differences = nullptr;
    BreakpointsPanel* breakpoints = nullptr;
    TensorViewerArea* tensors = nullptr;
    ExecInfoPanel* execInfo = nullptr;
    MissingValuesPanel* missing = nullptr;
    QDockWidget *weightsDock = nullptr, *constantsDock = nullptr, *inputsDock = nullptr, *tensorDock = nullptr,
                *differencesDock = nullptr, *breakpointsDock = nullptr;
    QAction *continueAction = nullptr, *stepAction = nullptr, *stepIntoAction = nullptr, *stepOutAction = nullptr,
            *runToAction = nullptr, *breakpointAction = nullptr, *resetAction = nullptr, *stopAction = nullptr,
            *divergenceAction = nullptr;
    QComboBox* overlay = nullptr;
    QProgressBar* progress = nullptr;
    QToolButton* cancelLoad = nullptr;  // shown while a value file loads
    QLabel* status = nullptr;
    QLabel* bytes = nullptr;
};

// Set on the window when a dock was asked for by name (--show-dock): the
// debugger then raises none of its own accord.
inline constexpr const char* kDockChosenProperty = "irscopeDockChosen";

// The controller is parented to the window. In a window whose panels come
// after its first frame (PanelsAt::AfterFirstFrame), the panels' handles in
// the result stay null until attachDebuggerPanels, called once the window
// made them (makeDeferredPanels); the docks' handles are set at once.
DebuggerUi installDebugger(MainWindow& window);
void attachDebuggerPanels(MainWindow& window, DebuggerUi& ui);

}  // namespace irscope::widgets
