#pragma once
// What the CLI commands share: loading an IR with a one-line error, and writing
// results to stdout or to the file named by -o.
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/ir/graph.h"

namespace irscope::cli {

// Loads an IR; on failure prints "irscope COMMAND: FILE:LINE:COL: PATH: reason" to stderr and returns nullopt.
std::optional<ir::Graph> loadGraphOrReport(const std::string& command, const std::string& path);

// Writes text to `outputPath` (through a temporary file, then rename) or to stdout when empty.
// Returns false (after printing why) when the file cannot be written.
bool writeOutput(const std::string& command, const std::optional<std::string>& outputPath, const std::string& text);

// Moves `value` to the heap for the rest of the process and never destroys it:
// for what a command reads until it exits, when freeing it one string at a time
// would cost more than the command (a 70,000-weight graph and its index). The
// address stays in a list the process holds to the end, so LeakSanitizer counts
// it as in use, not leaked.
template <class T>
requires(!std::is_lvalue_reference_v<T>) const T& keepUntilExit(T&& value) {
    static auto* kept = new std::vector<const T*>;
    kept->push_back(new T(std::forward<T>(value)));
    return *kept->back();
}

}  // namespace irscope::cli
