#pragma once
// Finds and loads irscope's modules (libirscope_commands.so, libirscope_gui.so)
// from beside the executable: ../lib in the build tree, ../lib/irscope when installed.
#include <string>

namespace irscope::app {

// Returns the dlopen handle, or nullptr with `error` saying what was tried and why it failed.
void* loadModule(const std::string& name, std::string& error);
void* moduleSymbol(void* handle, const char* symbol);

}  // namespace irscope::app
