// irscope extract: cut a failing region out of a graph as a runnable IR, with
// the values that enter it and the values it should produce, so that a bug
// report or a compiler gets a repro that runs on its own.
// Torch headers first: Qt's `slots` macro (pulled in elsewhere) breaks ATen's.
#include <ATen/ATen.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "commands/cast_weights_option.h"
#include "core/exec/engine/session.h"
#include "core/exec/repro/cut_values.h"
#include "core/exec/repro/program_cut.h"
#include "core/exec/values/random_inputs.h"
#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/tensor_file.h"
#include "core/ir/archive_path.h"
#include "core/ir/json_io.h"
#include "core/ir/node_selection.h"
#include "core/ir/subgraph.h"
#include "core/modules/module_inference.h"

namespace irscope::cli {
namespace {

namespace fs = std::filesystem;

struct ExtractError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

io::TensorMap readExtractValues(const std::string& option, const std::string& path) {
    try {
        io::ReadOptions options;
        if (option == "--inputs") io::selectInputsOf(path, options);  // a .pt2: its example inputs
        return io::readTensorFile(path, options);
    } catch (const std::exception& e) {
        throw ExtractError(option + ": " + e.what());
    }
}

// The nodes the options point at.
std::vector<int64_t> selection(const ParsedArgs& p, const ir::Graph& g, const ir::GraphIndex& index) {
    const int ways = p.has("--nodes") + (p.has("--from") || p.has("--to")) + p.has("--around") + p.has("--module");
    if (ways != 1)
        throw UsageError("say which nodes, one way: --nodes A,B | --from X --to Y | --around NODE | --module PATH");
    if (p.has("--radius") && !p.has("--around")) throw UsageError("--radius goes with --around");
    if (auto names = p.value("--nodes")) return ir::selectNodesByName(index, ir::splitNames(*names));
    if (p.has("--from") != p.has("--to")) throw UsageError("--from and --to go together");
    if (p.has("--from")) return ir::selectNodesBetween(index, *p.value("--from"), *p.value("--to"));
    if (auto center = p.value("--around"))
        return ir::selectNodesAround(index, *center, static_cast<int>(p.intValue("--radius").value_or(2)));
    const std::string path = *p.value("--module");
    const modules::ModuleTree tree = modules::inferModuleTree(g, index);
    const modules::ModuleId m = tree.find(path);
    if (m == modules::kNoModule)
        throw std::invalid_argument("--module: no module '" + path + "' (`irscope modules IR` lists them)");
    std::vector<int64_t> out;
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (tree.isAncestorOrSelf(m, tree.moduleOfNode(static_cast<int64_t>(i))))
            out.push_back(static_cast<int64_t>(i));
    if (out.empty()) throw std::invalid_argument("--module: '" + path + "' holds no op");
    return out;
}

// The values at the cut from a dump (graph inputs may come from --inputs).
void valuesFromDump(const ParsedArgs& p, const ir::Subgraph& cut, io::TensorMap& inputs, io::TensorMap& expected) {
    const io::TensorMap dump = readExtractValues("--values", *p.value("--values"));
    io::TensorMap given;
    if (auto in = p.value("--inputs")) given = readExtractValues("--inputs", *in);
    auto take = [&](const std::string& name, io::TensorMap& into, const char* role) {
        const at::Tensor* t = dump.find(name);
        if (!t) t = given.find(name);
        if (!t)
            throw ExtractError("--values: " + *p.value("--values") + " has no tensor '" + name + "' (" + role +
                               "); a dump of `irscope run --dump` has every node output and graph input of the "
                               "run: was it made from this IR? Or give the graph inputs with --inputs, or "
                               "--weights and --inputs to compute the values instead");
        into.insert(name, t->contiguous());
    };
    for (const auto& n : cut.inputs) take(n, inputs, "a value entering the selection");
    for (const auto& n : cut.outputs) take(n, expected, "a value the selection produces");
}

// The values at the cut from a run of the whole graph up to its last kept
// node, keeping only the boundary tensors.
void valuesFromRun(const ParsedArgs& p, const ir::Graph& g, const ir::Subgraph& cut, int64_t lastNode,
                   io::TensorMap& inputs, io::TensorMap& expected) {
    exec::Session session(g, exec::RetentionPolicy::FreeAfterLastUse);
    session.setWeights(castWeightsIfAsked(g, readExtractValues("--weights", *p.value("--weights")),
                                          p.has(kCastWeightsFlag), "extract", p.has("--quiet")));
    if (auto c = p.value("--constants")) session.setConstants(readExtractValues("--constants", *c));
    if (auto seed = p.intValue("--random-inputs"))
        session.setInputs(exec::makeRandomInputs(g, *seed));
    else if (auto in = p.value("--inputs"))
        session.setInputs(readExtractValues("--inputs", *in));
    else
        throw UsageError("the run that computes the values needs --inputs FILE or --random-inputs SEED");
    // Only what the run up to the selection needs: a value missing for a later node does not matter here.
    std::vector<exec::MissingValue> missing;
    for (const auto& m : session.preflight())
        if (std::any_of(m.nodes.begin(), m.nodes.end(), [&](const std::string& n) {
                const auto i =
                    std::find_if(g.nodes.begin(), g.nodes.end(), [&](const auto& node) { return node.name == n; });
                return i - g.nodes.begin() <= lastNode;
            }))
            missing.push_back(m);
    if (!missing.empty()) {
        std::string what = "the run up to the selection lacks " + std::to_string(missing.size()) + " value(s):";
        for (const auto& m : missing) what += "\n  " + exec::formatMissingValue(m);
        if (const std::string hint = castWeightsHint(missing); !hint.empty()) what += "\n(" + hint + ")";
        throw ExtractError(what);
    }
    exec::pinCut(session, cut);
    const exec::RunResult r = session.runTo(lastNode);
    if (r.reason == exec::StopReason::MissingValue && r.missing)
        throw ExtractError("the run up to the selection lacks a value: " + exec::formatMissingValue(*r.missing));
    if (r.reason == exec::StopReason::Failed && r.error)
        throw ExtractError("the run failed before the selection's end: node '" + r.error->nodeName +
                           "': " + r.error->message);
    exec::cutValues(session, cut, inputs, expected);
}

void refuseToOverwrite(const std::string& path, bool force) {
    if (!force && fs::exists(path)) throw ExtractError(path + " exists; pass --force to replace it");
}

int runExtract(const std::vector<std::string>& args) {
    const auto p =
        parseArgs(args, {{"--force", "--quiet", kCastWeightsFlag},
                         {"--output", "--nodes", "--from", "--to", "--around", "--radius", "--module", "--values",
                          "--weights", "--constants", "--inputs", "--random-inputs", "--inputs-out", "--expected-out"},
                         {{"-o", "--output"}, {"-q", "--quiet"}}});
    requirePositional(p, 1, 1, "IR (a torch_ir JSON file or a .pt2 archive)");
    const auto out = p.value("--output");
    if (!out) throw UsageError("-o SUB.json is required");
    if (p.has("--values") && p.has("--weights"))
        throw UsageError("--values (a dump) and --weights (run to compute them) exclude each other");
    if (p.has("--inputs") && p.has("--random-inputs"))
        throw UsageError("--inputs and --random-inputs exclude each other");
    const bool values = p.has("--values") || p.has("--weights");
    if ((p.has("--inputs-out") || p.has("--expected-out")) && !values)
        throw UsageError("--inputs-out and --expected-out need values: --values DUMP or --weights W --inputs I");

    const auto graph = loadGraphOrReport("extract", p.positional[0]);
    if (!graph) return kExitUsage;
    try {
        const ir::GraphIndex index(*graph);
        std::vector<int64_t> nodes = selection(p, *graph, index);
        const std::string archive = ir::isArchivePath(p.positional[0]) ? p.positional[0] : std::string();
        if (archive.empty() && out->ends_with(".pt2"))
            throw UsageError("-o " + *out + ": only a cut of a .pt2 is written as a program; write -o SUB.json");
        const exec::CutPlan plan = exec::planCut(index, std::move(nodes), archive, *out);
        const bool asProgram = plan.program;
        const std::string& outPath = plan.path;
        const ir::Subgraph cut = ir::extractSubgraph(index, plan.nodes, asProgram);
        const ir::CutFiles beside = ir::cutFilesBeside(outPath);
        const std::string inPath = p.value("--inputs-out").value_or(beside.inputs);
        const std::string expPath = p.value("--expected-out").value_or(beside.expected);
        const bool force = p.has("--force");
        refuseToOverwrite(outPath, force);
        if (values) {
            refuseToOverwrite(inPath, force);
            refuseToOverwrite(expPath, force);
        }
        io::TensorMap inputs, expected;
        if (p.has("--values"))
            valuesFromDump(p, cut, inputs, expected);
        else if (p.has("--weights"))
            valuesFromRun(p, *graph, cut, plan.nodes.back(), inputs, expected);
        expected = exec::writeCut(plan, archive, cut, inputs, expected);
        if (values) {
            io::writeTensorFile(inputs, inPath);
            io::writeTensorFile(expected, expPath);
        }
        if (!p.has("--quiet")) {
            auto list = [](const std::vector<std::string>& v) {
                std::string s;
                for (size_t i = 0; i < v.size() && i < 8; ++i) s += (i ? ", " : "") + v[i];
                return v.size() > 8 ? s + ", … (" + std::to_string(v.size()) + ")" : s;
            };
            std::cout << "extracted " << cut.graph.nodes.size() << " of " << graph->nodes.size() << " nodes, "
                      << cut.graph.weights.size() << " weights -> " << outPath
                      << (asProgram && outPath != *out ? " (a program: a torch_ir JSON holds no subgraph)" : "") << "\n"
                      << "  inputs:  " << list(cut.inputs) << "\n"
                      << "  outputs: " << list(cut.outputs) << "\n";
            if (values) {
                std::cout << "  values:  " << inPath << " (" << inputs.size() << "), expected " << expPath << " ("
                          << expected.size() << ")\n"
                          << "reproduce: irscope run " << outPath;
                if (!asProgram) std::cout << " --weights " << p.value("--weights").value_or("WEIGHTS");
                std::cout << " --inputs " << inPath << " --expected " << expPath;
                if (p.has(kCastWeightsFlag)) std::cout << " --cast-weights";
                if (auto c = p.value("--constants"); c && !asProgram) std::cout << " --constants " << *c;
                std::cout << "\n";
            }
        }
        return kExitOk;
    } catch (const std::invalid_argument& e) {
        std::cerr << "irscope extract: " << e.what() << "\n";
        return kExitUsage;
    } catch (const UsageError&) {
        throw;
    } catch (const std::exception& e) {
        std::cerr << "irscope extract: " << e.what() << "\n";
        return kExitUsage;
    }
}

const CommandRegistration commandExtractRegistration{
    Command{"extract", "cut nodes out of an IR as a runnable IR, with the values at the cut",
            "Usage: irscope extract IR (--nodes A,B,... | --from X --to Y | --around NODE [--radius K]\n"
            "                          | --module PATH) -o SUB.json\n"
            "                          [--values DUMP | --weights W [--cast-weights] (--inputs I | --random-inputs S)\n"
            "                           [--constants C]]\n"
            "                          [--inputs-out IN.pt] [--expected-out OUT.pt] [--force] [-q]\n\n"
            "Writes SUB.json, a torch_ir IR of the selected nodes: values entering the\n"
            "selection become graph inputs (same names, shapes, dtypes), values it makes\n"
            "that are used outside it (or were graph outputs) become graph outputs, and\n"
            "only the weights, name mappings and constants its nodes read remain. Node\n"
            "names, order and attrs are unchanged.\n\n"
            "Selection:\n"
            "  --nodes A,B,...     these nodes\n"
            "  --from X --to Y     every node on a path from X to Y\n"
            "  --around NODE       NODE and the nodes within --radius K data edges (default 2)\n"
            "  --module PATH       the ops of a module and its children (`irscope modules IR`)\n\n"
            "Values (optional): with --values DUMP (an `irscope run --dump`, or any tensor\n"
            "file keyed by tensor names) or computed by running the whole graph up to the\n"
            "selection (--weights, --cast-weights, --inputs/--random-inputs, --constants, as\n"
            "`irscope run`),\n"
            "the values entering the selection go to IN.pt and the values it must produce\n"
            "to OUT.pt (default: SUB.inputs.pt, SUB.expected.pt), so that\n"
            "  irscope run SUB.json --weights W --inputs IN.pt --expected OUT.pt\n"
            "reproduces them.\n\n"
            "From a .pt2, -o SUB.pt2 writes the cut as a program of its own (torch.export.load\n"
            "runs it; its weights are in it): its nodes as the archive serialized them, with\n"
            "the subgraphs of cond, while_loop, scan and map at any depth. A cut holding such\n"
            "an op is always written so (SUB.json becomes SUB.pt2), since a torch_ir JSON\n"
            "holds no subgraph; then\n"
            "  irscope run SUB.pt2 --inputs IN.pt --expected OUT.pt\n"
            "reproduces it.\n\n"
            "Existing files are never replaced without --force.\n\n"
            "Exit status: 0 written; 2 bad arguments, an unknown node or module, a selection\n"
            "that cannot be cut, unreadable input or a failed run (the reason on stderr).\n",
            runExtract}};

}  // namespace
}  // namespace irscope::cli
