#pragma once
// One registry of CLI subcommands. Each subcommand lives in its own
// app/cli/command_<name>.cpp and registers itself with a static
// CommandRegistration, so adding a command touches no shared file.
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

namespace irscope::cli {

// Exit codes shared by every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // ran, and the answer is "no" (errors found, mismatch)
inline constexpr int kExitUsage = 2;    // bad arguments, unreadable or unparsable input

struct Command {
    std::string name;
    std::string summary;  // one line for `irscope --help`
    std::string usage;    // full text for `irscope NAME --help`
    // args excludes the program and command names.
    std::function<int(const std::vector<std::string>& args)> run;
};

std::vector<Command>& commandRegistry();
const Command* findCommand(const std::string& name);

struct CommandRegistration {
    explicit CommandRegistration(Command command);
};

// Thrown by ArgParser on a usage error; main prints "irscope NAME: <what>" and exits 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace irscope::cli
