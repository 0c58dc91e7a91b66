// irscope modules: the nn.Module tree irscope infers for an IR (torch_ir
// records none), as the collapsed drawing and the Modules dock show it.
#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "core/export/modules_report.h"
#include "core/ir/graph_index.h"
#include "core/modules/module_inference.h"

namespace irscope::cli {
namespace {

int runModules(const std::vector<std::string>& args) {
    const auto parsed = parseArgs(args, {{"--json"}, {"--output", "--depth"}, {{"-o", "--output"}}});
    requirePositional(parsed, 1, 1, "IR (a torch_ir JSON file or a .pt2 archive)");
    int depth = -1;
    if (auto d = parsed.value("--depth"); d && *d != "all") {
        const auto n = parsed.intValue("--depth");
        if (!n || *n < 0 || *n > 1000) throw UsageError("--depth must be a number >= 0 or 'all'");
        depth = static_cast<int>(*n);
    }
    auto loaded = loadGraphOrReport("modules", parsed.positional[0]);
    if (!loaded) return kExitUsage;
    // The process ends right after printing: freeing a 70,000-weight graph and
    // its index one string at a time would cost a quarter of the run, so they
    // are left to the exit.
    const auto& graph = keepUntilExit(std::move(*loaded));
    const auto& index = keepUntilExit(ir::GraphIndex(graph));
    const auto& tree = keepUntilExit(modules::inferModuleTree(graph, index));
    const std::string text = parsed.has("--json") ? exporter::formatModulesJson(tree, graph, depth)
                                                  : exporter::formatModulesText(tree, graph, depth);
    return writeOutput("modules", parsed.value("--output"), text) ? kExitOk : kExitUsage;
}

const CommandRegistration commandModulesRegistration{
    Command{"modules", "the module tree inferred from weight names and data flow (text or JSON)",
            "Usage: irscope modules IR [--json] [--depth N|all] [-o OUT]\n\n"
            "torch_ir files record no nn.Module hierarchy. irscope infers it: a weight's\n"
            "module is its name minus the last part (layers.3.self_attn.q_proj.weight ->\n"
            "layers.3.self_attn.q_proj), an op reading a weight joins that module, and\n"
            "the other ops join the module of their neighbours (attention's matmuls in\n"
            "self_attn, a layer's residual adds in that layer). Every op is in exactly\n"
            "one module. Prints one line per module: path, kind, and the ops, weights\n"
            "and parameters in it and below.\n\n"
            "Options:\n"
            "  --json          one JSON object per module: path, kind, ops (in it and below),\n"
            "                  nodes (names directly in it), weights, parameters, children;\n"
            "                  the root has path \"\"\n"
            "  --depth N       list modules down to depth N (1: the model's direct children);\n"
            "                  counts still cover everything below; 'all' (default) lists all\n"
            "  -o, --output F  write to F instead of standard output\n\n"
            "Exit status: 0 on success, 2 when IR cannot be read or parsed.\n",
            runModules}};

}  // namespace
}  // namespace irscope::cli
