#pragma once
// The debugger's part of the status bar (debugger_status_bar.cpp), installed
// by installDebugger.
namespace irscope::widgets {

class MainWindow;
struct DebuggerUi;

// The status text, the progress bar with its Cancel, bytes held.
void installStatusBar(MainWindow& window, DebuggerUi& ui);
// A click on a value in the pre-flight list raises the dock that supplies it
// (once the list is made: attachDebuggerPanels).
void connectMissingValues(MainWindow& window, DebuggerUi& ui);
// The controller's state shown: actions, status, progress, stops, errors.
void connectRunState(MainWindow& window, const DebuggerUi& ui);

}  // namespace irscope::widgets
