#pragma once
// The scripted GUI: `irscope IR --weights W [--constants C] [--inputs I]
// [--expected E] [--reference-intermediates R] [--run | --run-to NODE]
// [--overlay KIND] [--show-dock NAME] [--viewer-tab TAB]` sets up the same
// session as `irscope run`, in the window (then --select / --screenshot).
#include <functional>

class QCommandLineParser;
class QString;

namespace irscope::widgets {

struct DebuggerUi;

void addDebuggerOptions(QCommandLineParser& parser);
// Why the options cannot be followed (a --show-dock, --overlay or
// --viewer-tab that names nothing, with the names it takes); "" when they can.
QString debuggerOptionError(const QCommandLineParser& parser);
// Call once the graph is loaded: loads the files, runs, waits, re-selects
// `select` (when given) and then calls `done` (e.g. take the screenshot).
void runDebuggerScript(const QCommandLineParser& parser, DebuggerUi& ui, const QString& select,
                       std::function<void()> done);

}  // namespace irscope::widgets
