#pragma once
// What the CLI commands share: loading an IR with a one-line error, and writing
// results to stdout or to the file named by -o.
#include <optional>
#include <string>

#include "core/ir/graph.h"

namespace irscope::cli {

// Loads an IR; on failure prints "irscope COMMAND: FILE:LINE:COL: PATH: reason" to stderr and returns nullopt.
std::optional<ir::Graph> loadGraphOrReport(const std::string& command, const std::string& path);

// Writes text to `outputPath` (through a temporary file, then rename) or to stdout when empty.
// Returns false (after printing why) when the file cannot be written.
bool writeOutput(const std::string& command, const std::optional<std::string>& outputPath, const std::string& text);

}  // namespace irscope::cli
