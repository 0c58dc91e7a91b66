// The commands module (libirscope_commands.so): the subcommands that need
// libtorch, app/commands/command_*.cpp, each registering itself with the
// launcher's command registry. This file is its version handshake.
#include "launcher/module_loader.h"

namespace {
const bool commandsModuleRegistered = [] {
    irscope::app::registerModule({"irscope_commands", IRSCOPE_VERSION, nullptr});
    return true;
}();
}  // namespace
