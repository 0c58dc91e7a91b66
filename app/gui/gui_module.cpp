// The GUI module (libirscope_gui.so): the window and the headless PNG
// renderer, handed to the launcher when the module loads (the version
// handshake in launcher/module_loader.h).
#include <cstdio>
#include <exception>

#include "gui/gui_main.h"
#include "gui/render_png.h"
#include "launcher/module_loader.h"

namespace {

int renderPngReportingErrors(const irscope::ir::Graph& graph, bool includeWeights, double scale,
                             const std::string& outputPath) {
    try {
        return irscope::app::renderPng(graph, includeWeights, scale, outputPath);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "irscope render: %s\n", e.what());
        return 2;
    }
}

const irscope::app::GuiModuleApi kApi{&irscope::app::runGui, &renderPngReportingErrors};

const bool guiModuleRegistered = [] {
    irscope::app::registerModule({"irscope_gui", IRSCOPE_VERSION, &kApi});
    return true;
}();

}  // namespace
