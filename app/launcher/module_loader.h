#pragma once
// The launcher's side of irscope's two modules (libirscope_commands.so,
// libirscope_gui.so; see app/CMakeLists.txt for why they are modules). A
// module, when loaded, registers itself from a static initializer with the
// irscope version it was built as and what it offers; the loader refuses a
// module that registers another version (a stale build or a half-upgraded
// install) with a message naming both versions and the file. Everything
// crosses as C++ (the launcher and the modules share the one libirscope_ir.so,
// so an ir::Graph is the same type on both sides); no extern "C" entry points.
#include <string>

#include "core/ir/graph.h"

namespace irscope::app {

// What the GUI module offers the launcher.
struct GuiModuleApi {
    int (*main)(int argc, char** argv);
    // `irscope render ... -o X.png`: the graph view's renderer, headless. Returns an exit code.
    int (*renderPng)(const ir::Graph& graph, bool includeWeights, double scale, const std::string& outputPath);
};

struct ModuleRegistration {
    const char* name;                   // "irscope_gui"
    const char* version;                // IRSCOPE_VERSION the module was built as
    const GuiModuleApi* gui = nullptr;  // the GUI module's entry points (commands register themselves)
};

// Called by a module's static initializer (resolved against the executable).
void registerModule(const ModuleRegistration& registration);

// Loads lib<name>.so from beside the executable (../lib in the build tree,
// ../lib/irscope when installed) and checks its registration. nullptr with
// `error` saying what was tried and why it failed.
const ModuleRegistration* loadModule(const std::string& name, std::string& error);

}  // namespace irscope::app
