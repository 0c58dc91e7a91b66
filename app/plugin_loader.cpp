#include "plugin_loader.h"

#include <dlfcn.h>

#include <filesystem>

namespace irscope::app {

void* loadModule(const std::string& name, std::string& error) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    const std::string file = "lib" + name + ".so";
    const fs::path candidates[] = {exe.parent_path() / file, exe.parent_path().parent_path() / "lib" / file,
                                   exe.parent_path().parent_path() / "lib" / "irscope" / file};
    error.clear();
    for (const auto& candidate : candidates) {
        if (!fs::exists(candidate, ec)) continue;
        // RTLD_GLOBAL: Qt and libtorch expect their symbols to be visible process-wide.
        if (void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL)) return handle;
        error = candidate.string() + ": " + dlerror();
        return nullptr;
    }
    error = "cannot find " + file + " beside " + exe.string() + " (looked in ../lib and ../lib/irscope)";
    return nullptr;
}

void* moduleSymbol(void* handle, const char* symbol) { return handle ? dlsym(handle, symbol) : nullptr; }

}  // namespace irscope::app
