// irscope run: execute an IR with libtorch node by node and verify it.
// Torch headers first: Qt's `slots` macro (pulled in elsewhere) breaks ATen's.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "core/exec/attr_convert.h"
#include "core/exec/executor.h"
#include "core/exec/session.h"
#include "core/exec/random_inputs.h"
#include "core/exec/verify.h"
#include "core/io/tensor_file.h"
#include "core/ir/graph_index.h"

namespace irscope::cli {
namespace {

using json = nlohmann::ordered_json;

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

std::string ms(double seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
    return buf;
}

json comparisonJson(const exec::Comparison& c) {
    json j = json::object();
    j["name"] = c.name;
    j["matched"] = c.matched;
    j["exact"] = c.exact;
    if (!c.problem.empty()) j["problem"] = c.problem;
    j["numel"] = c.numel;
    j["mismatches"] = c.mismatches;
    j["max_abs_diff"] = c.maxAbsDiff;
    j["max_rel_diff"] = c.maxRelDiff;
    j["worst_index"] = c.worstIndex;
    j["worst_actual"] = c.worstActual;
    j["worst_expected"] = c.worstExpected;
    return j;
}

std::string comparisonText(const exec::Comparison& c, const exec::Tolerance& tol) {
    std::string s = c.matched ? "OK" : "MISMATCH";
    if (!c.problem.empty()) s += " (" + c.problem + ")";
    if (c.numel > 0 && (c.problem.empty() || c.problem.rfind("dtype", 0) == 0)) {
        if (!c.matched && c.mismatches > 0)
            s += ": " + std::to_string(c.mismatches) + "/" + std::to_string(c.numel) + " elements outside " +
                 (c.exact ? std::string("exact equality") : "rtol=" + num(tol.rtol) + " atol=" + num(tol.atol));
        s += "; max abs diff " + num(c.maxAbsDiff) + ", max rel diff " + num(c.maxRelDiff) + " at " +
             exec::indexText(c.worstIndex) + " (got " + num(c.worstActual) + ", expected " + num(c.worstExpected) + ")";
    }
    return s;
}

std::optional<io::TensorMap> readOrReport(const std::string& what, const std::optional<std::string>& path) {
    if (!path) return io::TensorMap{};
    try {
        return io::readTensorFile(*path);
    } catch (const std::exception& e) {
        std::cerr << "irscope run: " << what << ": " << e.what() << "\n";
        return std::nullopt;
    }
}

int runRun(const std::vector<std::string>& args) {
    const auto parsed = parseArgs(
        args, {{"--json"},
               {"--weights", "--constants", "--inputs", "--random-inputs", "--expected", "--reference-intermediates",
                "--dump", "--until", "--rtol", "--atol", "--threads"},
               {}});
    requirePositional(parsed, 1, 1, "IR (a torch_ir JSON file)");
    if (!parsed.has("--weights")) throw UsageError("--weights FILE is required");
    if (parsed.has("--inputs") && parsed.has("--random-inputs"))
        throw UsageError("--inputs and --random-inputs exclude each other");
    exec::Tolerance tol;
    if (auto v = parsed.doubleValue("--rtol")) tol.rtol = *v;
    if (auto v = parsed.doubleValue("--atol")) tol.atol = *v;
    if (auto t = parsed.intValue("--threads")) {
        if (*t < 1) throw UsageError("--threads needs a positive count");
        at::set_num_threads(static_cast<int>(*t));
    }
    const bool asJson = parsed.has("--json");

    auto graph = loadGraphOrReport("run", parsed.positional[0]);
    if (!graph) return kExitUsage;
    auto weights = readOrReport("--weights", parsed.value("--weights"));
    auto constants = readOrReport("--constants", parsed.value("--constants"));
    auto inputs = readOrReport("--inputs", parsed.value("--inputs"));
    auto expected = readOrReport("--expected", parsed.value("--expected"));
    auto reference = readOrReport("--reference-intermediates", parsed.value("--reference-intermediates"));
    if (!weights || !constants || !inputs || !expected || !reference) return kExitUsage;
    if (auto seed = parsed.intValue("--random-inputs")) *inputs = exec::makeRandomInputs(*graph, *seed);

    ir::GraphIndex index(*graph);
    int64_t target = static_cast<int64_t>(graph->nodes.size()) - 1;
    if (auto until = parsed.value("--until")) {
        auto i = index.nodeIndex(*until);
        if (!i) {
            std::cerr << "irscope run: --until: no node named '" << *until << "'\n";
            return kExitUsage;
        }
        target = *i;
    }
    // Keep intermediates only when something will look at them.
    const bool keep = parsed.has("--dump") || parsed.has("--reference-intermediates") || parsed.has("--until");
    exec::Session session(*graph, keep ? exec::RetentionPolicy::KeepAll : exec::RetentionPolicy::FreeAfterLastUse);
    session.setWeights(*weights);
    session.setConstants(*constants);
    session.setInputs(*inputs);

    json report = json::object();
    report["model_name"] = graph->modelName;
    auto missing = session.preflight();
    if (!missing.empty()) {
        if (asJson) {
            report["ran"] = false;
            json list = json::array();
            for (const auto& m : missing)
                list.push_back(json{{"name", m.name}, {"original_name", m.originalName}, {"kind", m.kind}, {"nodes", m.nodes}});
            report["missing"] = list;
            std::cout << report.dump(2) << "\n";
        }
        std::cerr << "irscope run: " << missing.size() << " value" << (missing.size() == 1 ? "" : "s")
                  << " missing (give them with --weights, --constants or --inputs):\n";
        for (const auto& m : missing) std::cerr << "  " << exec::formatMissingValue(m) << "\n";
        return kExitUsage;
    }

    auto t0 = std::chrono::steady_clock::now();
    exec::RunResult result = target >= 0 ? session.runTo(target) : exec::RunResult{};
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    int64_t ran = 0;
    json diags = json::array();
    for (int64_t i = 0; i < session.nodeCount(); ++i) {
        if (session.state(i) == exec::NodeState::Done) ++ran;
        for (const auto& d : session.diagnostics(i)) {
            diags.push_back(json{{"node", graph->nodes[i].name}, {"message", d}});
            if (!asJson) std::cerr << "warning: node '" << graph->nodes[i].name << "': " << d << "\n";
        }
    }
    report["nodes"] = session.nodeCount();
    report["nodes_run"] = ran;
    report["total_seconds"] = wall;
    report["node_seconds"] = session.totalSeconds();
    report["diagnostics"] = diags;

    if (parsed.has("--dump")) {
        io::TensorMap all;
        session.intermediates(all);
        try {
            io::writeTensorFile(all, *parsed.value("--dump"));
        } catch (const std::exception& e) {
            std::cerr << "irscope run: --dump: " << e.what() << "\n";
            return kExitUsage;
        }
    }

    if (result.reason == exec::StopReason::Failed) {
        const auto& e = *result.error;
        report["ran"] = false;
        report["error"] = json{{"node", e.nodeName}, {"op_type", e.opType}, {"message", e.message}};
        if (asJson) std::cout << report.dump(2) << "\n";
        else std::cout << "ran " << ran << "/" << session.nodeCount() << " nodes in " << ms(wall) << "\n";
        std::cerr << "irscope run: node '" << e.nodeName << "' (" << e.opType << ") failed: " << e.message << "\n";
        return kExitUsage;
    }
    report["ran"] = true;
    bool ok = true;
    if (!asJson) std::cout << "ran " << ran << "/" << session.nodeCount() << " nodes in " << ms(wall) << "\n";

    const bool reachedEnd = session.finished();
    json outs = json::array();
    if (reachedEnd && parsed.has("--expected")) {
        for (const auto& c : exec::compareOutputs(session, *expected, tol)) {
            ok = ok && c.matched;
            outs.push_back(comparisonJson(c));
            if (!asJson) std::cout << "output " << c.name << ": " << comparisonText(c, tol) << "\n";
        }
    } else if (reachedEnd && !asJson) {
        for (const auto& o : graph->graphOutputs) {
            auto s = session.summary(o.name);
            if (s)
                std::cout << "output " << o.name << ": " << s->dtype << " " << exec::indexText(s->shape) << " min "
                          << num(s->min) << " max " << num(s->max) << " mean " << num(s->mean) << "\n";
        }
    } else if (!reachedEnd && !asJson) {
        std::cout << "stopped after node '" << graph->nodes[target].name << "'\n";
    }
    report["outputs"] = outs;

    if (parsed.has("--reference-intermediates")) {
        auto rep = exec::compareIntermediates(session, *reference, tol);
        json j = json{{"compared", rep.compared}, {"not_in_reference", rep.notInReference}};
        if (rep.first) {
            ok = false;
            j["first_divergence"] = json{{"node", rep.first->nodeName}, {"op_type", rep.first->opType},
                                         {"comparison", comparisonJson(rep.first->comparison)}};
            if (!asJson)
                std::cout << "intermediates: first divergence at node '" << rep.first->nodeName << "' ("
                          << rep.first->opType << "), tensor '" << rep.first->comparison.name
                          << "': " << comparisonText(rep.first->comparison, tol) << "\n";
        } else if (!asJson) {
            std::cout << "intermediates: " << rep.compared << " tensors match the reference\n";
        }
        report["intermediates"] = j;
    }
    report["matched"] = ok;
    if (asJson) std::cout << report.dump(2) << "\n";
    else std::cout << "total time: " << ms(wall) << "\n";
    return ok ? kExitOk : kExitFailure;
}

const CommandRegistration registration{Command{
    "run", "execute an IR with libtorch node by node and verify it against references",
    "Usage: irscope run IR --weights FILE [--constants FILE] [--inputs FILE | --random-inputs SEED]\n"
    "                  [--expected FILE] [--reference-intermediates FILE] [--dump FILE]\n"
    "                  [--until NODE] [--rtol R] [--atol A] [--threads N] [--json]\n\n"
    "Runs the graph as torch_ir's IRExecutor does, on libtorch: weights by state_dict\n"
    "key and placeholder, constants by original name (overriding the IR's), inputs by\n"
    "graph input name. Tensor files: .pt (torch.save), .safetensors, or a directory\n"
    "of .npy files.\n\n"
    "Options:\n"
    "  --weights FILE        the model's state_dict\n"
    "  --constants FILE      lifted constants / non-persistent buffers by original name\n"
    "  --inputs FILE         graph inputs by name\n"
    "  --random-inputs SEED  random graph inputs instead (normal floats, ints in [0, 10))\n"
    "  --expected FILE       reference outputs by name: allclose per output, integers exactly\n"
    "  --reference-intermediates FILE\n"
    "                        node outputs by tensor name: report the first node that diverges\n"
    "  --dump FILE           write every intermediate (.pt or .safetensors)\n"
    "  --until NODE          stop after NODE\n"
    "  --rtol R, --atol A    tolerances (default 1e-05 and 1e-08, as torch.allclose)\n"
    "  --threads N           intra-op threads\n"
    "  --json                one JSON report on standard output\n\n"
    "Exit status: 0 when it ran (and matched the references given), 1 on a mismatch,\n"
    "2 when it could not run (missing values, a failing op, a bad file or argument).\n",
    runRun}};

}  // namespace
}  // namespace irscope::cli
