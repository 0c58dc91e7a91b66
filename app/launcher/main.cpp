// irscope: one binary. `irscope COMMAND ...` runs a headless subcommand;
// anything else (no arguments, or an IR file and GUI options) opens the window.
//
// The launcher links only the torch-free core. Commands that need libtorch
// live in the irscope_commands module and the window in irscope_gui; both are
// loaded only when used (see app/CMakeLists.txt for why).
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "launcher/fork_server.h"
#include "launcher/module_loader.h"

namespace {

using namespace irscope::cli;

// Names of the commands in the irscope_commands module (from app/CMakeLists.txt).
std::vector<std::string> moduleCommandNames() {
    std::vector<std::string> names;
    std::stringstream list(IRSCOPE_MODULE_COMMANDS);
    for (std::string name; std::getline(list, name, ',');) names.push_back(name);
    return names;
}

bool loadCommandsModule(bool quiet) {
    static bool loaded = false;
    if (loaded) return true;
    std::string error;
    loaded = irscope::app::loadModule("irscope_commands", error) != nullptr;
    if (!loaded && !quiet) std::cerr << "irscope: cannot load the commands module: " << error << "\n";
    return loaded;
}

void printTopLevelHelp() {
    loadCommandsModule(true);
    std::cout << "irscope " IRSCOPE_VERSION
                 " - see, run and debug torch_ir graphs\n\n"
                 "Usage:\n"
                 "  irscope [IR.json|model.pt2] [GUI options]\n"
                 "                                     open the desktop app (irscope --help-gui)\n"
                 "  irscope COMMAND [options]          run a command headless\n\n"
                 "Commands:\n";
    auto commands = commandRegistry();
    std::sort(commands.begin(), commands.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    size_t column = 12;  // the summaries in one column, past the longest name
    for (const auto& command : commands) column = std::max(column, command.name.size() + 2);
    for (const auto& command : commands) {
        std::string name = command.name;
        name.resize(column, ' ');
        std::cout << "  " << name << command.summary << "\n";
    }
    std::cout << "\nRun 'irscope COMMAND --help' for a command's options.\n"
                 "Exit status: 0 success, 1 the answer is no (errors found, outputs differ), 2 usage or input error.\n";
}

int runCommand(const Command& command, int argc, char** argv) {
    std::vector<std::string> args(argv + 2, argv + argc);
    for (const auto& arg : args) {
        if (arg == "--") break;
        if (arg == "--help" || arg == "-h") {
            std::cout << command.usage;
            return kExitOk;
        }
    }
    try {
        return command.run(args);
    } catch (const UsageError& e) {
        std::cerr << "irscope " << command.name << ": " << e.what() << " (see 'irscope " << command.name
                  << " --help')\n";
        return kExitUsage;
    } catch (const std::exception& e) {
        std::cerr << "irscope " << command.name << ": " << e.what() << "\n";
        return kExitUsage;
    }
}

int runGui(int argc, char** argv) {
    std::string error;
    bool lateModulesLoaded = false;
    const auto* module = irscope::app::loadGuiModule(error, lateModulesLoaded);
    if (!module || !module->gui) {
        std::cerr << "irscope: cannot start the window: " << (error.empty() ? "not a GUI module" : error) << "\n";
        // A pip-installed irscope uses the system's Qt 6 (README: Install with pip).
        if (error.find("libQt6") != std::string::npos)
            std::cerr << "irscope: Qt 6 is not installed. On Debian or Ubuntu: sudo apt-get install libqt6widgets6 "
                         "libqt6charts6 libqt6svgwidgets6 qt6-qpa-plugins\n";
        return kExitUsage;
    }
    if (lateModulesLoaded) return module->gui->main(argc, argv, nullptr, nullptr);
    return module->gui->main(argc, argv, &irscope::app::loadEngineModule, &irscope::app::loadChartsModule);
}

// Everything main does, as a function: the fork server runs it in each child.
int launch(int argc, char** argv) {
    if (argc >= 2) {
        const std::string first = argv[1];
        if (first == "--version" || first == "-V") {
            std::cout << "irscope " IRSCOPE_VERSION " (built with libtorch " IRSCOPE_TORCH_VERSION ")\n";
            return kExitOk;
        }
        if (first == "--help" || first == "-h" || first == "help") {
            printTopLevelHelp();
            return kExitOk;
        }
        if (first == "--help-gui") {  // the window's own parser prints its options
            // Help is text: it must work over ssh and in CI, with no display to open.
            if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
            static char help[] = "--help";
            argv[1] = help;
            return runGui(argc, argv);
        }
        if (const Command* command = findCommand(first)) return runCommand(*command, argc, argv);
        const auto deferred = moduleCommandNames();
        if (std::find(deferred.begin(), deferred.end(), first) != deferred.end()) {
            if (!loadCommandsModule(false)) return kExitUsage;
            if (const Command* command = findCommand(first)) return runCommand(*command, argc, argv);
            std::cerr << "irscope: command '" << first << "' is not available in this build\n";
            return kExitUsage;
        }
        std::error_code ec;
        if (first[0] != '-' && !std::filesystem::exists(first, ec) && first.find('.') == std::string::npos) {
            std::cerr << "irscope: unknown command '" << first << "' (see 'irscope --help')\n";
            return kExitUsage;
        }
    }
    return runGui(argc, argv);
}

// `irscope --fork-server FD` (launcher/fork_server.h): for test suites and
// scripts that run many commands. Not in --help: a client has to speak its
// protocol over an inherited socket, which no one types.
int forkServer(const char* fdText) {
    char* end = nullptr;
    const long fd = std::strtol(fdText, &end, 10);
    if (!end || *end || fd < 3) {
        std::cerr << "irscope: --fork-server takes the number of an inherited socket, not '" << fdText << "'\n";
        return kExitUsage;
    }
    if (!loadCommandsModule(false)) return kExitUsage;
    const auto deferred = moduleCommandNames();
    return irscope::app::serveForks(static_cast<int>(fd), [&deferred](int argc, char** argv) {
        // Only the commands module's commands gain from the warm process; any
        // other request (a light command, the window) starts the binary
        // afresh, so it maps exactly what it would have (a light command
        // never loads libtorch).
        if (argc < 2 || std::find(deferred.begin(), deferred.end(), std::string(argv[1])) == deferred.end()) {
            ::execv("/proc/self/exe", argv);
            std::cerr << "irscope: cannot start /proc/self/exe: " << std::strerror(errno) << "\n";
            return kExitUsage;
        }
        return launch(argc, argv);
    });
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--fork-server") return forkServer(argv[2]);
    return launch(argc, argv);
}
