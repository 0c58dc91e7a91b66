// irscope run: execute an IR with libtorch node by node and verify it.
// Torch headers first: Qt's `slots` macro (pulled in elsewhere) breaks ATen's.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "core/exec/attr_convert.h"
#include "core/exec/error_report.h"
#include "core/exec/error_report_file.h"
#include "core/exec/executor.h"
#include "core/exec/random_inputs.h"
#include "core/exec/session.h"
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

// One `irscope run`: the options, the values read, the session, and the JSON
// report filled as the steps go (printed as text unless --json).
class RunCommand {
public:
    explicit RunCommand(const std::vector<std::string>& args)
        : parsed_(parseArgs(
              args, {{"--json"},
                     {"--weights", "--constants", "--inputs", "--random-inputs", "--expected",
                      "--reference-intermediates", "--report", "--dump", "--until", "--rtol", "--atol", "--threads"},
                     {}})) {
        requirePositional(parsed_, 1, 1, "IR (a torch_ir JSON file)");
        if (!parsed_.has("--weights")) throw UsageError("--weights FILE is required");
        if (parsed_.has("--inputs") && parsed_.has("--random-inputs"))
            throw UsageError("--inputs and --random-inputs exclude each other");
        if (auto v = parsed_.doubleValue("--rtol")) tol_.rtol = *v;
        if (auto v = parsed_.doubleValue("--atol")) tol_.atol = *v;
        if (auto t = parsed_.intValue("--threads")) {
            if (*t < 1) throw UsageError("--threads needs a positive count");
            at::set_num_threads(static_cast<int>(*t));
        }
        asJson_ = parsed_.has("--json");
        if (parsed_.has("--report") && !parsed_.has("--reference-intermediates"))
            throw UsageError("--report needs --reference-intermediates FILE (the values to compare with)");
    }

    int run() {
        if (!loadValues() || !findTarget()) return kExitUsage;
        // Keep intermediates only when something will look at them.
        const bool keep = parsed_.has("--dump") || parsed_.has("--reference-intermediates") || parsed_.has("--until");
        session_ = std::make_unique<exec::Session>(
            *graph_, keep ? exec::RetentionPolicy::KeepAll : exec::RetentionPolicy::FreeAfterLastUse);
        session_->setWeights(*weights_);
        session_->setConstants(*constants_);
        session_->setInputs(*inputs_);
        report_["model_name"] = graph_->modelName;
        if (!reportMissing()) return kExitUsage;

        auto t0 = std::chrono::steady_clock::now();
        const exec::RunResult result = target_ >= 0 ? session_->runTo(target_) : exec::RunResult{};
        wall_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        recordRun();
        if (!dumpIntermediates()) return kExitUsage;
        if (result.reason == exec::StopReason::Failed) return reportFailure(*result.error);
        report_["ran"] = true;
        if (!asJson_) std::cout << "ran " << ran_ << "/" << session_->nodeCount() << " nodes in " << ms(wall_) << "\n";
        const bool outputsMatch = verifyOutputs();  // printed first
        const bool intermediatesMatch = verifyIntermediates();
        if (!writeReport()) return kExitUsage;
        const bool ok = intermediatesMatch && outputsMatch;
        report_["matched"] = ok;
        if (asJson_)
            std::cout << report_.dump(2) << "\n";
        else
            std::cout << "total time: " << ms(wall_) << "\n";
        return ok ? kExitOk : kExitFailure;
    }

private:
    bool loadValues() {
        graph_ = loadGraphOrReport("run", parsed_.positional[0]);
        if (!graph_) return false;
        weights_ = readOrReport("--weights", parsed_.value("--weights"));
        constants_ = readOrReport("--constants", parsed_.value("--constants"));
        inputs_ = readOrReport("--inputs", parsed_.value("--inputs"));
        expected_ = readOrReport("--expected", parsed_.value("--expected"));
        reference_ = readOrReport("--reference-intermediates", parsed_.value("--reference-intermediates"));
        if (!weights_ || !constants_ || !inputs_ || !expected_ || !reference_) return false;
        if (auto seed = parsed_.intValue("--random-inputs")) *inputs_ = exec::makeRandomInputs(*graph_, *seed);
        return true;
    }

    bool findTarget() {
        target_ = static_cast<int64_t>(graph_->nodes.size()) - 1;
        auto until = parsed_.value("--until");
        if (!until) return true;
        ir::GraphIndex index(*graph_);
        auto i = index.nodeIndex(*until);
        if (!i) {
            std::cerr << "irscope run: --until: no node named '" << *until << "'\n";
            return false;
        }
        target_ = *i;
        return true;
    }

    // False (after saying which) when a value the run needs has none.
    bool reportMissing() {
        const auto missing = session_->preflight();
        if (missing.empty()) return true;
        if (asJson_) {
            report_["ran"] = false;
            json list = json::array();
            for (const auto& m : missing)
                list.push_back(
                    json{{"name", m.name}, {"original_name", m.originalName}, {"kind", m.kind}, {"nodes", m.nodes}});
            report_["missing"] = list;
            std::cout << report_.dump(2) << "\n";
        }
        std::cerr << "irscope run: " << missing.size() << " value" << (missing.size() == 1 ? "" : "s")
                  << " missing (give them with --weights, --constants or --inputs):\n";
        for (const auto& m : missing) std::cerr << "  " << exec::formatMissingValue(m) << "\n";
        return false;
    }

    void recordRun() {
        json diags = json::array();
        for (int64_t i = 0; i < session_->nodeCount(); ++i) {
            if (session_->state(i) == exec::NodeState::Done) ++ran_;
            for (const auto& d : session_->diagnostics(i)) {
                diags.push_back(json{{"node", graph_->nodes[i].name}, {"message", d}});
                if (!asJson_) std::cerr << "warning: node '" << graph_->nodes[i].name << "': " << d << "\n";
            }
        }
        report_["nodes"] = session_->nodeCount();
        report_["nodes_run"] = ran_;
        report_["total_seconds"] = wall_;
        report_["node_seconds"] = session_->totalSeconds();
        report_["diagnostics"] = diags;
    }

    bool dumpIntermediates() {
        if (!parsed_.has("--dump")) return true;
        io::TensorMap all;
        session_->intermediates(all);
        try {
            io::writeTensorFile(all, *parsed_.value("--dump"));
        } catch (const std::exception& e) {
            std::cerr << "irscope run: --dump: " << e.what() << "\n";
            return false;
        }
        return true;
    }

    int reportFailure(const exec::NodeError& e) {
        report_["ran"] = false;
        report_["error"] = json{{"node", e.nodeName}, {"op_type", e.opType}, {"message", e.message}};
        if (asJson_)
            std::cout << report_.dump(2) << "\n";
        else
            std::cout << "ran " << ran_ << "/" << session_->nodeCount() << " nodes in " << ms(wall_) << "\n";
        std::cerr << "irscope run: node '" << e.nodeName << "' (" << e.opType << ") failed: " << e.message << "\n";
        return kExitUsage;
    }

    // Graph outputs against --expected, or their summaries; true when they match.
    bool verifyOutputs() {
        bool ok = true;
        const bool reachedEnd = session_->finished();
        json outs = json::array();
        if (reachedEnd && parsed_.has("--expected")) {
            for (const auto& c : exec::compareOutputs(*session_, *expected_, tol_)) {
                ok = ok && c.matched;
                outs.push_back(comparisonJson(c));
                if (!asJson_) std::cout << "output " << c.name << ": " << comparisonText(c, tol_) << "\n";
            }
        } else if (reachedEnd && !asJson_) {
            for (const auto& o : graph_->graphOutputs) {
                auto s = session_->summary(o.name);
                if (s)
                    std::cout << "output " << o.name << ": " << s->dtype << " " << exec::indexText(s->shape) << " min "
                              << num(s->min) << " max " << num(s->max) << " mean " << num(s->mean) << "\n";
            }
        } else if (!reachedEnd && !asJson_) {
            std::cout << "stopped after node '" << graph_->nodes[target_].name << "'\n";
        }
        report_["outputs"] = outs;
        return ok;
    }

    // Intermediates against --reference-intermediates; true when none diverges.
    bool verifyIntermediates() {
        if (!parsed_.has("--reference-intermediates")) return true;
        auto rep = exec::compareIntermediates(*session_, *reference_, tol_);
        json j = json{{"compared", rep.compared}, {"not_in_reference", rep.notInReference}};
        if (rep.first) {
            j["first_divergence"] = json{{"node", rep.first->nodeName},
                                         {"op_type", rep.first->opType},
                                         {"comparison", comparisonJson(rep.first->comparison)}};
            if (!asJson_)
                std::cout << "intermediates: first divergence at node '" << rep.first->nodeName << "' ("
                          << rep.first->opType << "), tensor '" << rep.first->comparison.name
                          << "': " << comparisonText(rep.first->comparison, tol_) << "\n";
        } else if (!asJson_) {
            std::cout << "intermediates: " << rep.compared << " tensors match the reference\n";
        }
        report_["intermediates"] = j;
        return !rep.first;
    }

    // Every node output against --reference-intermediates, written to --report.
    bool writeReport() {
        if (!parsed_.has("--report")) return true;
        const std::string path = *parsed_.value("--report");
        const exec::ErrorReport rep = exec::errorReport(*session_, *reference_, tol_);
        try {
            exec::writeErrorReport(rep, path);
        } catch (const std::exception& e) {
            std::cerr << "irscope run: --report: " << e.what() << "\n";
            return false;
        }
        size_t failing = 0;
        for (const auto& row : rep.outputs) failing += row.metrics.ok ? 0 : 1;
        const std::string first = rep.firstFailing ? rep.outputs[*rep.firstFailing].nodeName : "";
        report_["report"] = json{{"file", path},
                                 {"compared", rep.outputs.size()},
                                 {"failing", failing},
                                 {"first_failing", first.empty() ? json() : json(first)}};
        if (!asJson_)
            std::cout << "report: " << rep.outputs.size() << " node outputs compared, " << failing << " failing"
                      << (first.empty() ? "" : "; first failing node '" + first + "'") << " -> " << path << "\n";
        return true;
    }

    ParsedArgs parsed_;
    exec::Tolerance tol_;
    bool asJson_ = false;
    std::optional<ir::Graph> graph_;
    std::optional<io::TensorMap> weights_, constants_, inputs_, expected_, reference_;
    int64_t target_ = -1;
    std::unique_ptr<exec::Session> session_;
    json report_ = json::object();
    double wall_ = 0;
    int64_t ran_ = 0;
};

int runRun(const std::vector<std::string>& args) { return RunCommand(args).run(); }

const CommandRegistration registration{
    Command{"run", "execute an IR with libtorch node by node and verify it against references",
            "Usage: irscope run IR --weights FILE [--constants FILE] [--inputs FILE | --random-inputs SEED]\n"
            "                  [--expected FILE] [--reference-intermediates FILE [--report FILE]]\n"
            "                  [--dump FILE]\n"
            "                  [--until NODE] [--rtol R] [--atol A] [--threads N] [--json]\n\n"
            "Runs the graph as torch_ir's IRExecutor does, on libtorch: weights by state_dict\n"
            "key and placeholder, constants by original name (overriding the IR's), inputs by\n"
            "graph input name. Tensor files: .pt (torch.save), .safetensors, a directory\n"
            "of .npy files, or a sharded Hugging Face checkpoint (its *.index.json or its\n"
            "directory of shards; only the headers are read up front).\n\n"
            "Options:\n"
            "  --weights FILE        the model's state_dict\n"
            "  --constants FILE      lifted constants / non-persistent buffers by original name\n"
            "  --inputs FILE         graph inputs by name\n"
            "  --random-inputs SEED  random graph inputs instead (normal floats, ints in [0, 10))\n"
            "  --expected FILE       reference outputs by name: allclose per output, integers exactly\n"
            "  --reference-intermediates FILE\n"
            "                        node outputs by tensor name: report the first node that diverges\n"
            "  --report FILE         every node output against the reference intermediates: max abs,\n"
            "                        max rel, mean abs, MSE, cosine, SQNR dB, allclose, NaN/Inf counts\n"
            "                        (.json or .csv)\n"
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
