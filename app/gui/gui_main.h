#pragma once
#include "launcher/module_loader.h"

namespace irscope::app {
// Parses the GUI's command line, opens the main window, runs the event loop.
// `loadEngine` (nullptr when the engine is in already) runs behind the first frame.
int runGui(int argc, char** argv, EngineLoader loadEngine);
}  // namespace irscope::app
