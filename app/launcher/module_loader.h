#pragma once
// The launcher's side of irscope's modules (libirscope_commands.so,
// libirscope_gui.so, libirscope_engine.so, libirscope_charts.so; see app/CMakeLists.txt for why
// they are modules). A
// module, when loaded, registers itself from a static initializer with the
// irscope version it was built as and what it offers; the loader refuses a
// module that registers another version (a stale build or a half-upgraded
// install) with a message naming both versions and the file. Everything
// crosses as C++ (the launcher and the modules share the one libirscope_ir.so,
// so an ir::Graph is the same type on both sides); no extern "C" entry points.
#include <string>

#include "core/ir/graph.h"

namespace irscope::app {

// Loads one of the modules the window loads behind its first frame (the
// engine, the charts): "" once it is in, else why it cannot be.
using LateModuleLoader = std::string (*)();

// What the GUI module offers the launcher.
struct GuiModuleApi {
    // `loadEngine`: what the window calls, on a worker, behind its first
    // frame; `loadCharts`, on the UI thread right after that frame, before
    // its panels. Each nullptr when that module is in already.
    int (*main)(int argc, char** argv, LateModuleLoader loadEngine, LateModuleLoader loadCharts);
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

// How a module's calls into modules not loaded yet are bound: at the first
// call (the GUI module's into the engine), or all at once when it loads.
enum class Binding { Now, Lazy };

// Loads lib<name>.so from beside the executable (../lib in the build tree,
// ../lib/irscope when installed) and checks its registration. nullptr with
// `error` saying what was tried and why it failed. Any thread, one at a time
// or not: the window loads the engine on a worker.
const ModuleRegistration* loadModule(const std::string& name, std::string& error, Binding binding = Binding::Now);

// The GUI module, bound lazily: it starts without libtorch and Qt Charts, and
// its calls into the engine and the charts resolve once the window has loaded
// their modules (loadEngineModule, loadChartsModule, behind the first frame).
// Where the environment binds every call at load (LD_BIND_NOW), both are
// loaded first and `lateModulesLoaded` says so.
const ModuleRegistration* loadGuiModule(std::string& error, bool& lateModulesLoaded);
// Loads the engine module: "" once it is in, else why not.
std::string loadEngineModule();
// Loads the charts module: "" once it is in, else why not.
std::string loadChartsModule();

}  // namespace irscope::app
