#pragma once

namespace irscope::app {
// Parses the GUI's command line, opens the main window, runs the event loop.
int runGui(int argc, char** argv);
}  // namespace irscope::app
