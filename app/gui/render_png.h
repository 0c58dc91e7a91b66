#pragma once
// PNG branch of `irscope render`: the graph view's own renderer, headless.
// It lives in the GUI module (Qt); the launcher reaches it through
// GuiModuleApi::renderPng (launcher/module_loader.h).
#include <string>

#include "core/ir/graph.h"

namespace irscope::app {

// Lays the graph out and writes a PNG at `scale` (1 = 100% zoom). Creates a
// QGuiApplication if none exists (offscreen when there is no display).
int renderPng(const ir::Graph& graph, bool includeWeights, double scale, const std::string& outputPath);

}  // namespace irscope::app
