// irscope mermaid: the Mermaid flowchart `pytorch-ir visualize` prints, byte for byte.
#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "core/export/mermaid.h"

namespace irscope::cli {
namespace {

int runMermaid(const std::vector<std::string>& args) {
    const auto parsed = parseArgs(args, {{"--no-weights"}, {"--max-nodes", "--output"}, {{"-o", "--output"}}});
    requirePositional(parsed, 1, 1, "FILE (a torch_ir JSON file or a .pt2 archive)");
    exporter::MermaidOptions options;
    if (auto maxNodes = parsed.intValue("--max-nodes")) {
        if (*maxNodes < 0) throw UsageError("--max-nodes must be 0 or more");
        options.maxNodes = static_cast<int>(std::min<long long>(*maxNodes, 1LL << 30));
    }
    options.includeWeights = !parsed.has("--no-weights");
    auto graph = loadGraphOrReport("mermaid", parsed.positional[0]);
    if (!graph) return kExitUsage;
    return writeOutput("mermaid", parsed.value("--output"), exporter::graphToMermaid(*graph, options) + "\n")
               ? kExitOk
               : kExitUsage;
}

const CommandRegistration commandMermaidRegistration{
    Command{"mermaid", "Mermaid flowchart of an IR (byte-identical to `pytorch-ir visualize`)",
            "Usage: irscope mermaid FILE [--max-nodes N] [--no-weights] [-o OUT]\n\n"
            "Prints the graph as a Mermaid flowchart, byte for byte what\n"
            "`pytorch-ir visualize` prints, so the two can be diffed.\n\n"
            "Options:\n"
            "  --max-nodes N   draw only the first N nodes (default 30)\n"
            "  --no-weights    leave out weights, buffers and constants\n"
            "  -o, --output F  write to F instead of standard output\n\n"
            "Exit status: 0 on success, 2 when FILE cannot be read or parsed.\n",
            runMermaid}};

}  // namespace
}  // namespace irscope::cli
