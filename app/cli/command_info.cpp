// irscope info: the summary `pytorch-ir info` prints, same facts and layout.
#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "core/export/info_summary.h"

namespace irscope::cli {
namespace {

int runInfo(const std::vector<std::string>& args) {
    const auto parsed = parseArgs(args, {{"--json"}, {"--output"}, {{"-o", "--output"}}});
    requirePositional(parsed, 1, 1, "FILE (a torch_ir JSON file or a .pt2 archive)");
    auto graph = loadGraphOrReport("info", parsed.positional[0]);
    if (!graph) return kExitUsage;
    const auto summary = exporter::summarize(*graph);
    const std::string text =
        parsed.has("--json") ? exporter::formatInfoJson(summary) : exporter::formatInfoText(summary);
    return writeOutput("info", parsed.value("--output"), text) ? kExitOk : kExitUsage;
}

const CommandRegistration commandInfoRegistration{
    Command{"info", "summary of an IR: counts, shapes, op distribution (as `pytorch-ir info`)",
            "Usage: irscope info FILE [--json] [-o OUT]\n\n"
            "Prints the model name, node/input/output/weight counts, total parameters,\n"
            "input and output shapes and the op distribution of a torch_ir JSON file,\n"
            "in the layout of `pytorch-ir info`.\n\n"
            "Options:\n"
            "  --json          the same facts as one JSON object (keys model_name, num_nodes,\n"
            "                  num_inputs, num_outputs, num_weights, total_parameters,\n"
            "                  input_shapes, output_shapes, op_distribution)\n"
            "  -o, --output F  write to F instead of standard output\n\n"
            "Exit status: 0 on success, 2 when FILE cannot be read or parsed.\n",
            runInfo}};

}  // namespace
}  // namespace irscope::cli
