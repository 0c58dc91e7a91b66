// irscope validate: every diagnostic of one or more IR files, one line each.
#include <iostream>

#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "core/ir/graph_index.h"
#include "core/ir/validate.h"

namespace irscope::cli {
namespace {

int runValidate(const std::vector<std::string>& args) {
    const auto parsed = parseArgs(args, {{"--quiet", "--no-info"}, {}, {{"-q", "--quiet"}}});
    requirePositional(parsed, 1, SIZE_MAX, "FILE (one or more torch_ir JSON files or .pt2 archives)");
    bool unreadable = false, errors = false;
    for (const auto& path : parsed.positional) {
        auto graph = loadGraphOrReport("validate", path);
        if (!graph) {
            unreadable = true;
            continue;
        }
        const ir::GraphIndex index(*graph);
        const auto diagnostics = ir::validateGraph(*graph, index);
        for (const auto& d : diagnostics) {
            if (d.severity == ir::Severity::Error) errors = true;
            if (d.severity == ir::Severity::Info && parsed.has("--no-info")) continue;
            if (d.severity != ir::Severity::Error && parsed.has("--quiet")) continue;
            std::cout << path << ": " << ir::formatDiagnostic(d) << "\n";
        }
    }
    return unreadable ? kExitUsage : errors ? kExitFailure : kExitOk;
}

const CommandRegistration commandValidateRegistration{
    Command{"validate", "check IR files; one line per error, warning or info",
            "Usage: irscope validate FILE... [--no-info] [-q]\n\n"
            "Checks each torch_ir JSON file and prints one line per finding:\n"
            "  FILE: error: node 'mul': <what is wrong and how to fix it>\n\n"
            "Errors mean the IR cannot be trusted or run as written (duplicate node names,\n"
            "producers that are missing or come later, unmapped placeholders, bad constants,\n"
            "negative or non-integer dims, unproduced outputs...). Warnings flag what looks\n"
            "wrong (metadata that disagrees, unknown ops, lifted constants without values).\n"
            "Info lists unused weights.\n\n"
            "Options:\n"
            "  --no-info       do not print info lines\n"
            "  -q, --quiet     print errors only\n\n"
            "Exit status: 0 when no file has errors, 1 when one has, 2 when a file cannot\n"
            "be read or parsed.\n",
            runValidate}};

}  // namespace
}  // namespace irscope::cli
