// irscope diff: what changed between two IRs of a model (before and after an
// edit, two PyTorch versions, prefill and decode), matched by structure so
// FX's renumbering is not reported as change. Torch-free, like info.
#include <future>
#include <iostream>

#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "core/diff/graph_diff.h"
#include "core/diff/module_changes.h"
#include "core/export/diff_report.h"
#include "core/modules/module_inference.h"

namespace irscope::cli {
namespace {

std::optional<diff::MatchMode> parseMode(const std::optional<std::string>& text) {
    if (!text || *text == "auto") return diff::MatchMode::Auto;
    if (*text == "names") return diff::MatchMode::Names;
    if (*text == "structure") return diff::MatchMode::Structure;
    return std::nullopt;
}

int runDiff(const std::vector<std::string>& args) {
    const auto parsed = parseArgs(args, {{"--json", "--summary"}, {"--output", "--match"}, {{"-o", "--output"}}});
    requirePositional(parsed, 2, 2, "A.json B.json (two torch_ir JSON files)");
    const auto mode = parseMode(parsed.value("--match"));
    if (!mode) throw UsageError("--match: expected auto, names or structure, got '" + *parsed.value("--match") + "'");
    // The two files load side by side: on big IRs loading is most of the time.
    auto loadB = std::async(std::launch::async, [&] { return loadGraphOrReport("diff", parsed.positional[1]); });
    auto a = loadGraphOrReport("diff", parsed.positional[0]);
    auto b = loadB.get();
    if (!a || !b) return kExitUsage;
    const ir::GraphIndex ia(*a);
    const ir::GraphIndex ib(*b);
    const auto d = diff::diffGraphs(ia, ib, *mode);
    const auto treeA = modules::inferModuleTree(*a, ia);
    const auto treeB = modules::inferModuleTree(*b, ib);
    const auto byModule = diff::changesByModule(d, treeA, treeB);
    const exporter::DiffSides sides{ia, ib, parsed.positional[0], parsed.positional[1]};
    const std::string text = parsed.has("--json")
                                 ? exporter::formatDiffJson(d, byModule, sides)
                                 : exporter::formatDiffText(d, byModule, sides, parsed.has("--summary"));
    if (!writeOutput("diff", parsed.value("--output"), text)) return kExitUsage;
    return d.identical() ? kExitOk : kExitFailure;
}

const CommandRegistration commandDiffRegistration{
    Command{"diff", "what changed between two IRs: nodes, attrs, shapes, weights, by module",
            "Usage: irscope diff A.json B.json [--json | --summary] [--match auto|names|structure] [-o OUT]\n\n"
            "Compares two torch_ir JSON files and reports the nodes added in B, removed\n"
            "from A and changed (op type, attrs, input or output shapes and dtypes, where\n"
            "an input comes from), the weights added, removed or changed (shape, dtype,\n"
            "and value when both files carry constants), changed graph inputs and\n"
            "outputs, and a count per module (\"layers.3.mlp: 2 changed, 1 added\").\n\n"
            "Nodes are matched by what they compute (op and matched inputs, from the\n"
            "graph inputs and weights forward, and from the outputs backward), so the\n"
            "renumbering FX does after an insertion (add_3 becomes add_4) shows as a\n"
            "rename, not a change.\n\n"
            "Options:\n"
            "  --json          one JSON object: identical, nodes {added, removed, changed,\n"
            "                  renamed}, weights, graph_inputs, graph_outputs, modules\n"
            "  --summary       counts per module only, without a line per node\n"
            "  --match MODE    auto (default): structure, names breaking ties and pairing\n"
            "                  what structure leaves; names: same name = same node;\n"
            "                  structure: ignore node names (two different exporters)\n"
            "  -o, --output F  write to F instead of standard output\n\n"
            "Exit status: 0 identical, 1 different, 2 when a file cannot be read or parsed.\n",
            runDiff}};

}  // namespace
}  // namespace irscope::cli
