#include "launcher/module_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

namespace irscope::app {

namespace {
std::map<std::string, ModuleRegistration>& registrations() {
    static std::map<std::string, ModuleRegistration> r;
    return r;
}
// Held while a module loads: its registration runs inside dlopen, on the
// loading thread.
std::recursive_mutex& loading() {
    static std::recursive_mutex m;
    return m;
}
}  // namespace

void registerModule(const ModuleRegistration& registration) {
    std::lock_guard lock(loading());
    registrations()[registration.name] = registration;
}

const ModuleRegistration* loadModule(const std::string& name, std::string& error, Binding binding) {
    namespace fs = std::filesystem;
    std::lock_guard lock(loading());
    error.clear();
    if (auto it = registrations().find(name); it != registrations().end()) return &it->second;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    const std::string file = "lib" + name + ".so";
    const fs::path candidates[] = {exe.parent_path() / file, exe.parent_path().parent_path() / "lib" / file,
                                   exe.parent_path().parent_path() / "lib" / "irscope" / file};
    for (const auto& candidate : candidates) {
        if (!fs::exists(candidate, ec)) continue;
        // RTLD_GLOBAL: Qt and libtorch expect their symbols to be visible process-wide.
        if (!dlopen(candidate.c_str(), (binding == Binding::Lazy ? RTLD_LAZY : RTLD_NOW) | RTLD_GLOBAL)) {
            error = candidate.string() + ": " + dlerror();
            return nullptr;
        }
        auto it = registrations().find(name);
        if (it == registrations().end()) {
            error = candidate.string() + " is not an irscope " IRSCOPE_VERSION " module (it did not register itself)";
            return nullptr;
        }
        if (std::string(it->second.version) != IRSCOPE_VERSION) {
            error = candidate.string() + " is irscope " + it->second.version +
                    ", this irscope is " IRSCOPE_VERSION ": rebuild or reinstall irscope";
            registrations().erase(it);
            return nullptr;
        }
        return &it->second;
    }
    error = "cannot find " + file + " beside " + exe.string() + " (looked in ../lib and ../lib/irscope)";
    return nullptr;
}

std::string loadEngineModule() {
    std::string error;
    loadModule("irscope_engine", error);
    return error;
}

std::string loadChartsModule() {
    std::string error;
    loadModule("irscope_charts", error);
    return error;
}

const ModuleRegistration* loadGuiModule(std::string& error, bool& lateModulesLoaded) {
    const char* bindNow = std::getenv("LD_BIND_NOW");
    lateModulesLoaded = bindNow && *bindNow;
    if (lateModulesLoaded && (!(error = loadEngineModule()).empty() || !(error = loadChartsModule()).empty()))
        return nullptr;
    return loadModule("irscope_gui", error, Binding::Lazy);
}

}  // namespace irscope::app
