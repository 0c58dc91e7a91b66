// irscope: one binary. `irscope COMMAND ...` runs a headless subcommand;
// anything else (no arguments, or an IR file and GUI options) opens the window.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "gui_main.h"

namespace {

void printTopLevelHelp() {
    std::cout << "irscope " IRSCOPE_VERSION " - inspect, run and debug torch_ir graphs\n\n"
                 "Usage:\n"
                 "  irscope [IR.json] [GUI options]    open the desktop app\n"
                 "  irscope COMMAND [options]          run a command headless\n\n"
                 "Commands:\n";
    auto commands = irscope::cli::commandRegistry();
    std::sort(commands.begin(), commands.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    for (const auto& command : commands) {
        std::string name = command.name;
        name.resize(std::max<size_t>(name.size() + 2, 12), ' ');
        std::cout << "  " << name << command.summary << "\n";
    }
    std::cout << "\nRun 'irscope COMMAND --help' for a command's options, "
                 "'irscope --help-gui' for the window's.\n";
}

}  // namespace

int main(int argc, char** argv) {
    using namespace irscope::cli;
    if (argc >= 2) {
        std::string first = argv[1];
        if (first == "--version" || first == "-V") {
            std::cout << "irscope " IRSCOPE_VERSION "\n";
            return kExitOk;
        }
        if (first == "--help" || first == "-h" || first == "help") {
            printTopLevelHelp();
            return kExitOk;
        }
        if (const Command* command = findCommand(first)) {
            std::vector<std::string> args(argv + 2, argv + argc);
            for (const auto& arg : args) {
                if (arg == "--") break;
                if (arg == "--help" || arg == "-h") {
                    std::cout << command->usage;
                    return kExitOk;
                }
            }
            try {
                return command->run(args);
            } catch (const UsageError& e) {
                std::cerr << "irscope " << command->name << ": " << e.what()
                          << " (see 'irscope " << command->name << " --help')\n";
                return kExitUsage;
            } catch (const std::exception& e) {
                std::cerr << "irscope " << command->name << ": " << e.what() << "\n";
                return kExitUsage;
            }
        }
    }
    return irscope::app::runGui(argc, argv);
}
