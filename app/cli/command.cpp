#include "cli/command.h"

#include <algorithm>

namespace irscope::cli {

std::vector<Command>& commandRegistry() {
    static std::vector<Command> registry;
    return registry;
}

const Command* findCommand(const std::string& name) {
    auto& registry = commandRegistry();
    auto it = std::find_if(registry.begin(), registry.end(), [&](const Command& c) { return c.name == name; });
    return it == registry.end() ? nullptr : &*it;
}

CommandRegistration::CommandRegistration(Command command) { commandRegistry().push_back(std::move(command)); }

}  // namespace irscope::cli
