#pragma once
#include "launcher/module_loader.h"

namespace irscope::app {
// Parses the GUI's command line, opens the main window, runs the event loop.
// `loadEngine` runs on a worker behind the first frame, `loadCharts` right after
// it (each nullptr when that module is in already).
int runGui(int argc, char** argv, LateModuleLoader loadEngine, LateModuleLoader loadCharts);
}  // namespace irscope::app
