#pragma once
// PNG branch of `irscope render`: the graph view's own renderer, headless.
// The renderer lives in the GUI module (irscope_gui, Qt); the CLI executable
// reaches it through renderPngViaGuiModule().
#include <iostream>
#include <string>

#include "core/ir/graph.h"
#include "plugin_loader.h"

// In the GUI module. Returns an exit code; prints why to stderr on failure.
extern "C" int irscope_gui_render_png(const irscope::ir::Graph* graph, int includeWeights, double scale,
                                      const char* outputPath);

namespace irscope::app {

// Lays the graph out and writes a PNG at `scale` (1 = 100% zoom). Creates a
// QGuiApplication if none exists (offscreen when there is no display).
int renderPng(const ir::Graph& graph, bool includeWeights, double scale, const std::string& outputPath);

// For the launcher: loads irscope_gui and calls irscope_gui_render_png.
inline int renderPngViaGuiModule(const ir::Graph& graph, bool includeWeights, double scale,
                                 const std::string& outputPath) {
    std::string error;
    void* module = loadModule("irscope_gui", error);
    using Fn = int (*)(const ir::Graph*, int, double, const char*);
    auto fn = reinterpret_cast<Fn>(moduleSymbol(module, "irscope_gui_render_png"));
    if (!fn) {
        std::cerr << "irscope render: PNG needs the GUI module: "
                  << (error.empty() ? "irscope_gui_render_png not found" : error) << "\n";
        return 2;
    }
    return fn(&graph, includeWeights ? 1 : 0, scale, outputPath.c_str());
}

}  // namespace irscope::app
