// irscope run: execute an IR with libtorch node by node and verify it.
// Torch headers first: Qt's `slots` macro (pulled in elsewhere) breaks ATen's.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "commands/cast_weights_option.h"
#include "commands/quantization_report.h"
#include "core/exec/debugger/watchpoints.h"
#include "core/exec/engine/attr_convert.h"
#include "core/exec/engine/call_paths.h"
#include "core/exec/engine/executor.h"
#include "core/exec/engine/session.h"
#include "core/exec/numerics/error_report.h"
#include "core/exec/numerics/error_report_file.h"
#include "core/exec/numerics/node_metric.h"
#include "core/exec/numerics/node_times.h"
#include "core/exec/numerics/verify.h"
#include "core/exec/reference/divergence_kind.h"
#include "core/exec/reference/reference_check.h"
#include "core/exec/reference/reference_run.h"
#include "core/exec/values/random_inputs.h"
#include "core/exec/values/state_dict_match.h"
#include "core/exec/values/value_sources.h"
#include "core/exec/values/value_tables.h"
#include "core/export/node_data.h"
#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/catalog/tensor_format.h"
#include "core/io/tensor_file.h"
#include "core/io/tensor_stats.h"
#include "core/ir/archive_path.h"
#include "core/ir/execution_position.h"
#include "core/ir/file_replace.h"
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
    j["rtol"] = c.tolerance.rtol;
    j["atol"] = c.tolerance.atol;
    j["tolerance"] = c.tolerance.text();
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

// Two values with as few significant digits as tell them apart (3 at least,
// 17 at most): "0.30000001, expected 0.30000004", not "0.3, expected 0.3".
std::pair<std::string, std::string> distinctNumbers(double a, double b) {
    char x[40], y[40];
    for (int digits = 3; digits <= 17; ++digits) {
        std::snprintf(x, sizeof x, "%.*g", digits, a);
        std::snprintf(y, sizeof y, "%.*g", digits, b);
        if (std::string(x) != y || a == b) break;
    }
    return {x, y};
}

std::string comparisonText(const exec::Comparison& c) {
    std::string s = c.matched ? "OK" : "MISMATCH";
    if (!c.problem.empty()) s += " (" + c.problem + ")";
    if (c.numel > 0 && (c.problem.empty() || c.problem.rfind("dtype", 0) == 0)) {
        if (!c.matched && c.mismatches > 0)
            s += ": " + std::to_string(c.mismatches) + "/" + std::to_string(c.numel) + " elements outside " +
                 (c.exact ? std::string("exact equality") : c.tolerance.text());
        // The index and the two values are the largest absolute difference's;
        // the values get the digits it takes to tell them apart.
        const auto [got, expected] = distinctNumbers(c.worstActual, c.worstExpected);
        s += "; max abs diff " + num(c.maxAbsDiff) + " at " + exec::indexText(c.worstIndex) + " (got " + got +
             ", expected " + expected + "), max rel diff " + num(c.maxRelDiff);
        if (c.matched && !c.exact) s += "; within " + c.tolerance.text();
    }
    return s;
}

std::optional<io::TensorMap> readOrReport(const std::string& what, const std::optional<std::string>& path,
                                          const io::ReadOptions& options = {}) {
    if (!path) return io::TensorMap{};
    try {
        return io::readTensorFile(*path, options);
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
        : parsed_(parseArgs(args, {{"--json", "--local", kCastWeightsFlag},
                                   {"--weights", "--constants", "--inputs", "--random-inputs", "--expected",
                                    "--reference-intermediates", "--reference-weights", "--reference-dtype",
                                    "--reference-program", "--report", "--break-on", "--node-data", "--metric",
                                    "--dump", "--until", "--rtol", "--atol", "--threads"},
                                   {}})) {
        requirePositional(parsed_, 1, 1, "IR (a torch_ir JSON file or a .pt2 archive)");
        // A torch.export archive carries its weights: they are the default.
        if (!parsed_.has("--weights") && !isArchive())
            throw UsageError("--weights FILE is required (a .pt2 archive carries its own)");
        if (parsed_.has("--inputs") && parsed_.has("--random-inputs"))
            throw UsageError("--inputs and --random-inputs exclude each other");
        if (auto v = parsed_.doubleValue("--rtol")) tol_.rtol = *v;
        if (auto v = parsed_.doubleValue("--atol")) tol_.atol = *v;
        if (auto t = parsed_.intValue("--threads")) {
            if (*t < 1) throw UsageError("--threads needs a positive count");
            at::set_num_threads(static_cast<int>(*t));
        }
        asJson_ = parsed_.has("--json");
        if (parsed_.has("--reference-program")) {
            for (const char* other : {"--reference-intermediates", "--reference-dtype", "--local", "--break-on",
                                      "--node-data", "--dump", "--until"})
                if (parsed_.has(other))
                    throw UsageError(std::string("--reference-program excludes ") + other +
                                     " (it measures the quantized program against the float one)");
            return;
        }
        const bool fileReference = parsed_.has("--reference-intermediates");
        runReference_ = parsed_.has("--reference-weights") || parsed_.has("--reference-dtype");
        if (fileReference && runReference_)
            throw UsageError("--reference-intermediates excludes --reference-weights and --reference-dtype");
        const bool hasReference = fileReference || runReference_;
        if (auto d = parsed_.value("--reference-dtype")) {
            refDtype_ = exec::referenceDtype(*d);
            if (!refDtype_)
                throw UsageError("--reference-dtype: '" + *d + "' is not float64, float32, float16 or bfloat16");
        }
        if (parsed_.has("--report") && !hasReference)
            throw UsageError(
                "--report needs a reference: --reference-intermediates FILE, --reference-weights FILE "
                "or --reference-dtype DTYPE");
        if (parsed_.has("--local") && !hasReference)
            throw UsageError("--local needs a reference (each node runs on the reference's inputs)");
        if (auto b = parsed_.value("--break-on")) {
            std::string why;
            auto c = exec::parseWatchCondition(*b, &why);
            if (!c) throw UsageError("--break-on: " + why);
            if (c->diff && !hasReference) throw UsageError("--break-on diff needs a reference to differ from");
            watch_ = *c;
        }
        if (parsed_.has("--metric") && !parsed_.has("--node-data"))
            throw UsageError("--metric names what --node-data FILE exports");
        if (auto m = parsed_.value("--metric")) {
            metric_ = exec::nodeMetricNamed(*m);
            if (!metric_)
                throw UsageError("--metric: '" + *m +
                                 "' is not max_abs, max_rel, mean_abs, mse, cosine, sqnr_db or time_ms");
        }
        if (parsed_.has("--node-data") && !hasReference && metric_ != exec::NodeMetric::TimeMs)
            throw UsageError("--node-data exports a metric against a reference (give one), or --metric time_ms");
        mode_ = parsed_.has("--local") ? exec::ErrorMode::Local : exec::ErrorMode::Cumulative;
    }

    int run() {
        if (parsed_.has("--reference-program")) {
            if (!loadValues()) return kExitUsage;
            QuantizationReportRequest request;
            request.quantized = &*graph_;
            request.quantizedWeights = &*weights_;
            request.inputs = &*inputs_;
            request.referenceProgram = *parsed_.value("--reference-program");
            if (parsed_.has("--reference-weights")) request.referenceWeights = &*referenceWeights_;
            request.reportPath = parsed_.value("--report");
            request.json = asJson_;
            return runQuantizationReport(request);
        }
        if (!loadValues() || !findTarget()) return kExitUsage;
        // Keep intermediates only when something will look at them after
        // the run (the reference check measures each node as it runs).
        const bool keep = parsed_.has("--dump") || parsed_.has("--until") || watch_.any();
        const auto policy = keep ? exec::RetentionPolicy::KeepAll : exec::RetentionPolicy::FreeAfterLastUse;
        session_ = std::make_unique<exec::Session>(*graph_, policy);
        session_->setWeights(*weights_);
        session_->setConstants(*constants_);
        session_->setInputs(*inputs_);
        report_["model_name"] = graph_->modelName;
        if (!reportMissing()) return kExitUsage;
        if (!attachChecks(policy)) return kExitUsage;

        auto t0 = std::chrono::steady_clock::now();
        const exec::RunResult result = target_ >= 0 ? session_->runTo(target_) : exec::RunResult{};
        wall_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        recordRun();
        if (!dumpIntermediates()) return kExitUsage;
        if (result.reason == exec::StopReason::Failed) return reportFailure(*result.error);
        if (result.reason == exec::StopReason::MissingValue && result.missing) {  // pre-flight lets none through
            const std::string& node = result.missing->nodes.empty() ? std::string() : result.missing->nodes.front();
            return reportFailure({-1, node, "", exec::torchIrMissingMessage(result.missing->name, node)});
        }
        report_["ran"] = true;
        if (!asJson_) std::cout << "ran " << ran_ << "/" << session_->nodeCount() << " nodes in " << ms(wall_) << "\n";
        reportWidened();
        reportHigherOrder();
        if (!reportInsidePosition()) return kExitUsage;
        if (check_) {
            checked_ = check_->takeReport();
            referenceFailure_ = check_->referenceFailure();
        }
        const bool stopped = reportWatchpoint(result);
        const bool outputsMatch = verifyOutputs();  // printed first
        const bool intermediatesMatch = verifyIntermediates();
        if (!writeReport() || !writeNodeData()) return kExitUsage;
        const bool ok = intermediatesMatch && outputsMatch && !stopped;
        report_["matched"] = ok;
        if (asJson_)
            std::cout << report_.dump(2) << "\n";
        else
            std::cout << "total time: " << ms(wall_) << "\n";
        return ok ? kExitOk : kExitFailure;
    }

private:
    bool isArchive() const { return ir::isArchivePath(parsed_.positional[0]); }

    bool loadValues() {
        // The reference (every node output of a run: as big as the run) loads
        // on the second core while the IR and the weights load on this one.
        auto reference = std::async(std::launch::async, [ref = parsed_.value("--reference-intermediates")] {
            return readOrReport("--reference-intermediates", ref);
        });
        graph_ = loadGraphOrReport("run", parsed_.positional[0]);
        if (!graph_) return false;
        // A damaged archive's own weights are not "missing values": say what broke.
        if (!parsed_.has("--weights"))
            for (const auto& d : graph_->loadDiagnostics)
                if (d.code == "pt2-damaged") {
                    std::cerr << "irscope run: " << parsed_.positional[0] << ": " << d.message
                              << " (or give its weights with --weights)\n";
                    return false;
                }
        weights_ = readOrReport(
            "--weights", parsed_.has("--weights") ? parsed_.value("--weights") : std::optional(parsed_.positional[0]));
        constants_ = readOrReport("--constants", parsed_.value("--constants"));
        // A .pt2 carries the example inputs it was exported with: the default.
        std::optional<std::string> inputs = parsed_.value("--inputs");
        if (!inputs && !parsed_.has("--random-inputs") && graph_->fileHoldsExampleInputs)
            inputs = parsed_.positional[0];
        io::ReadOptions inputOptions;
        if (inputs) io::selectInputsOf(*inputs, inputOptions);  // a .pt2: its example inputs
        inputs_ = readOrReport("--inputs", inputs, inputOptions);
        expected_ = readOrReport("--expected", parsed_.value("--expected"));
        reference_ = reference.get();
        referenceWeights_ = readOrReport("--reference-weights", parsed_.value("--reference-weights"));
        if (!weights_ || !constants_ || !inputs_ || !expected_ || !reference_ || !referenceWeights_) return false;
        if (auto seed = parsed_.intValue("--random-inputs")) *inputs_ = exec::makeRandomInputs(*graph_, *seed);
        const bool cast = parsed_.has(kCastWeightsFlag);
        *weights_ = castWeightsIfAsked(*graph_, std::move(*weights_), cast, "run", asJson_);
        if (cast && parsed_.has("--reference-weights"))
            *referenceWeights_ = castWeightsIfAsked(*graph_, std::move(*referenceWeights_), cast, "run", true);
        return true;
    }

    // The reference check and the watchpoints, seen by the session as each
    // node runs. False (after saying why) when a reference run lacks values.
    bool attachChecks(exec::RetentionPolicy policy) {
        std::shared_ptr<exec::ReferenceSource> source;
        if (parsed_.has("--reference-intermediates")) {
            source = std::make_shared<exec::TensorMapReference>(std::move(*reference_));
        } else if (runReference_) {
            const io::TensorMap& w = parsed_.has("--reference-weights") ? *referenceWeights_ : *weights_;
            auto run = std::make_shared<exec::ReferenceRun>(*graph_, w, *constants_, *inputs_, refDtype_, policy);
            if (const auto missing = run->preflight(); !missing.empty()) {
                std::cerr << "irscope run: the reference run lacks " << missing.size() << " value"
                          << (missing.size() == 1 ? "" : "s") << ":\n";
                for (const auto& m : missing) std::cerr << "  " << exec::formatMissingValue(m) << "\n";
                return false;
            }
            source = std::move(run);
        }
        std::vector<std::shared_ptr<exec::NodeInspector>> inspectors;
        if (source) check_ = std::make_shared<exec::ReferenceCheck>(*graph_, std::move(source), tol_, mode_);
        if (watch_.any()) {
            watchpoints_ = std::make_shared<exec::Watchpoints>(*graph_, check_);
            watchpoints_->setGlobal(watch_);
            inspectors.push_back(watchpoints_);  // first: it sees the run's own values before a local feed
        }
        if (check_) inspectors.push_back(check_);
        session_->setInspectors(std::move(inspectors));
        return true;
    }

    // --until NODE, or a position inside a subgraph's call
    // (while_loop/while_loop_body_graph_0#2/tanh): the run goes through the
    // top-level op that holds it, and the call's recorded value is read.
    bool findTarget() {
        target_ = static_cast<int64_t>(graph_->nodes.size()) - 1;
        auto until = parsed_.value("--until");
        if (!until) return true;
        std::string why;
        const auto position = ir::parsePosition(*until, why);
        const auto resolved = position ? ir::resolvePosition(*graph_, *position, why) : std::nullopt;
        if (!resolved) {
            std::cerr << "irscope run: --until: " << why << "\n";
            return false;
        }
        target_ = resolved->frames.empty() ? resolved->node : resolved->frames.front().node;
        if (!resolved->frames.empty()) untilInside_ = {*position, *resolved};
        return true;
    }

    // The value at an --until position inside a call; false (said) when the
    // program did not make that call.
    bool reportInsidePosition() {
        if (!untilInside_ || session_->state(target_) != exec::NodeState::Done) return true;
        const auto& [position, resolved] = *untilInside_;
        std::string why;
        const exec::Executor::SubgraphCall* call = exec::callAt(session_->executor(), resolved, why);
        if (!call) {
            std::cerr << "irscope run: --until " << position.text() << ": " << why << "\n";
            return false;
        }
        const ir::OpNode& node = resolved.graph->nodes[static_cast<size_t>(resolved.node)];
        json values = json::array();
        for (const auto& o : node.outputs) {
            const auto v = call->values.find(o.name);
            if (v == call->values.end() || !v->second.defined()) continue;
            const io::TensorSummary sm = io::summarize(v->second);
            values.push_back(json{{"name", o.name}, {"dtype", sm.dtype}, {"shape", sm.shape}});
            if (!asJson_)
                std::cout << "stopped at " << position.text() << " (" << node.opType << "): " << o.name << " "
                          << sm.dtype << " " << exec::indexText(sm.shape) << " min " << num(sm.min) << " max "
                          << num(sm.max) << " mean " << num(sm.mean) << "\n";
        }
        report_["stopped_at"] = json{{"path", position.text()}, {"op", node.opType}, {"values", values}};
        return true;
    }

    // False (after saying which) when a value the run needs has none.
    bool reportMissing() {
        const auto missing = session_->preflight();
        if (missing.empty()) return true;
        if (asJson_) {
            report_["ran"] = false;
            json list = json::array();
            for (const auto& m : missing) {
                json entry{{"name", m.name}, {"original_name", m.originalName}, {"kind", m.kind}, {"nodes", m.nodes}};
                if (m.wrongDtype()) {
                    entry["dtype"] = m.haveDtype;
                    entry["ir_dtype"] = m.irDtype;
                }
                if (!m.refusal.empty()) entry["refused"] = m.refusal;
                list.push_back(std::move(entry));
            }
            report_["missing"] = list;
            std::cout << report_.dump(2) << "\n";
        }
        // An input a dynamic-shape program's ranges refuse: that alone is the answer.
        for (const auto& m : missing)
            if (!m.refusal.empty()) {
                std::cerr << "irscope run: " << m.refusal << "\n";
                return false;
            }
        // A state_dict none of whose names the IR has: another model's (the
        // window's Weights dock says the same).
        if (parsed_.has("--weights") && weights_) {
            exec::ValueSources sources(*graph_);
            sources.setFile(exec::ValueFile::Weights, *weights_, *parsed_.value("--weights"));
            const ir::GraphIndex index(*graph_);
            const std::string file = std::filesystem::path(*parsed_.value("--weights")).filename().string();
            if (auto note =
                    exec::differentModelNote(exec::stateDictMatch(exec::weightRows(*graph_, index, sources)), file))
                std::cerr << "irscope run: --weights " << *note << "\n";
        }
        const auto wrongDtype =
            std::count_if(missing.begin(), missing.end(), [](const auto& m) { return m.wrongDtype(); });
        const auto absent = static_cast<long>(missing.size()) - wrongDtype;
        std::cerr << "irscope run: ";
        if (absent > 0)
            std::cerr << absent << " value" << (absent == 1 ? "" : "s")
                      << " missing (give them with --weights, --constants or --inputs)";
        if (absent > 0 && wrongDtype > 0) std::cerr << ", ";
        if (wrongDtype > 0)
            std::cerr << wrongDtype << " value" << (wrongDtype == 1 ? "" : "s") << " not in the IR's dtype ("
                      << castWeightsHint(missing) << ")";
        std::cerr << ":\n";
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
        // Complete for any cut `extract --values` makes of it: the graph
        // inputs too (a layer's KV cache, position ids), under their names.
        // Weights and constants stay in the files the run read them from.
        io::TensorMap all;
        for (const auto& in : graph_->graphInputs) {
            at::Tensor t;
            if (session_->value(in.name, t)) all.insert(in.name, t);
        }
        session_->intermediates(all);
        exec::recordedCallValues(*graph_, session_->executor(), all);  // inside subgraphs, per call
        try {
            io::writeTensorFile(all, *parsed_.value("--dump"));
        } catch (const std::exception& e) {
            std::cerr << "irscope run: --dump: " << e.what() << "\n";
            return false;
        }
        return true;
    }

    // What each higher-order op did, at every depth: the branch a cond took,
    // how often a loop ran its body; each by its position. The text lists
    // the first kListedInner ops inside calls (a 1,000-step loop around a
    // cond is one line per step in the JSON, not on a terminal).
    void reportHigherOrder() {
        static constexpr size_t kListedInner = 24;
        json list = json::array();
        size_t inner = 0, unlisted = 0;
        for (const auto& r : exec::higherOrderRuns(*graph_, session_->executor())) {
            const std::string path = r.position.text();
            json entry{{"path", path}, {"node", r.position.node}, {"op", r.op}};
            std::string said;
            if (r.branch) {
                entry["branch"] = *r.branch;
                said = "took " + *r.branch;
            }
            if (r.iterations) {
                entry["iterations"] = *r.iterations;
                said = "ran its body " + std::to_string(*r.iterations) + " time" + (*r.iterations == 1 ? "" : "s");
            }
            if (r.unrecordedCalls > 0) {
                entry["unrecorded_calls"] = r.unrecordedCalls;
                said += " (the ops inside its last " + std::to_string(r.unrecordedCalls) + " calls are not listed)";
            }
            list.push_back(std::move(entry));
            if (asJson_) continue;
            if (!r.position.topLevel() && inner++ >= kListedInner) {
                ++unlisted;
                continue;
            }
            std::cout << path << " (" << r.op << ") " << said << "\n";
        }
        if (unlisted > 0 && !asJson_)
            std::cout << "... and " << unlisted << " more inside subgraph calls (run --json lists every one)\n";
        report_["higher_order"] = list;
    }

    // Nodes that computed in float32 for want of a float16 / bfloat16 kernel.
    void reportWidened() {
        const auto widened = session_->widenedNodes();
        json list = json::array();
        std::string names;
        for (const auto& [node, reason] : widened) {
            const std::string& name = graph_->nodes[static_cast<size_t>(node)].name;
            list.push_back(json{{"node", name}, {"reason", reason}});
            names += (names.empty() ? "" : ", ") + name;
        }
        report_["computed_in_float32"] = list;
        if (widened.empty() || asJson_) return;
        std::cout << widened.size() << " node" << (widened.size() == 1 ? "" : "s")
                  << " computed in float32 on their rounded inputs and rounded back (this libtorch has no kernel "
                     "for their dtype: "
                  << widened.begin()->second << "): " << names << "\n";
    }

    int reportFailure(const exec::NodeError& e) {
        report_["ran"] = false;
        report_["error"] = json{{"node", e.nodeName}, {"op_type", e.opType}, {"message", e.message}};
        if (asJson_)
            std::cout << report_.dump(2) << "\n";
        else
            std::cout << "ran " << ran_ << "/" << session_->nodeCount() << " nodes in " << ms(wall_) << "\n";
        if (e.refusedInput)
            std::cerr << "irscope run: the program refuses these inputs: its runtime check '" << e.nodeName << "' ("
                      << e.opType << ") failed: " << e.message << "\n";
        else
            std::cerr << "irscope run: node '" << e.nodeName << "' (" << e.opType << ") failed: " << e.message << "\n";
        return kExitUsage;
    }

    // Graph outputs against --expected, or their summaries; true when they match.
    bool verifyOutputs() {
        bool ok = true;
        const bool reachedEnd = session_->finished();
        json outs = json::array();
        if (reachedEnd && parsed_.has("--expected") && mode_ == exec::ErrorMode::Local) {
            // Every node ran on the reference's inputs: the outputs are not this run's.
            if (!asJson_) std::cout << "outputs: not compared with --expected in local mode\n";
        } else if (reachedEnd && parsed_.has("--expected")) {
            for (const auto& c : exec::compareOutputs(*session_, *expected_, tol_)) {
                ok = ok && c.matched;
                outs.push_back(comparisonJson(c));
                if (!asJson_) std::cout << "output " << c.name << ": " << comparisonText(c) << "\n";
            }
        } else if (reachedEnd && !asJson_) {
            for (const auto& o : graph_->graphOutputs) {
                auto s = session_->summary(o.name);
                if (s)
                    std::cout << "output " << o.name << ": " << s->dtype << " " << exec::indexText(s->shape) << " min "
                              << num(s->min) << " max " << num(s->max) << " mean " << num(s->mean) << "\n";
            }
        } else if (!reachedEnd && !asJson_) {
            const int64_t last = session_->cursor() - 1;
            if (last >= 0)
                std::cout << "stopped after node '" << graph_->nodes[static_cast<size_t>(last)].name << "'\n";
        }
        report_["outputs"] = outs;
        return ok;
    }

    // Stopped by --break-on: the node, why, and what went into it. True when it stopped.
    bool reportWatchpoint(const exec::RunResult& result) {
        if (result.reason != exec::StopReason::Watchpoint) return false;
        const auto& node = graph_->nodes[static_cast<size_t>(result.lastNode)];
        report_["stopped_at"] = node.name;
        report_["watch"] = result.watch;
        json inputs = json::array();
        if (!asJson_)
            std::cout << "stopped at node '" << node.name << "' (" << node.opType << "): " << result.watch << "\n";
        for (const auto& in : node.inputs) {
            auto s = session_->summary(in.name);
            if (!s) continue;
            inputs.push_back(json{{"name", in.name},
                                  {"dtype", s->dtype},
                                  {"shape", s->shape},
                                  {"min", s->min},
                                  {"max", s->max},
                                  {"mean", s->mean},
                                  {"nan", s->nans},
                                  {"inf", s->infs}});
            if (!asJson_)
                std::cout << "  input " << in.name << ": " << s->dtype << " " << exec::indexText(s->shape) << " min "
                          << num(s->min) << " max " << num(s->max) << " mean " << num(s->mean)
                          << (s->nans ? " NaN " + std::to_string(s->nans) : "")
                          << (s->infs ? " Inf " + std::to_string(s->infs) : "") << "\n";
        }
        report_["stopped_inputs"] = inputs;
        return true;
    }

    // The reference check's verdict in `irscope run`'s words: the first node
    // whose output fails, described in full; true when none does.
    bool verifyIntermediates() {
        if (!check_) return true;
        const exec::ErrorReport& rep = checked_;
        json j = json{{"compared", rep.outputs.size()}, {"not_in_reference", rep.notInReference}, {"mode", rep.mode}};
        const char* what = mode_ == exec::ErrorMode::Local ? "intermediates (local)" : "intermediates";
        // The reference's own failure switches it off; the run is not failed by it.
        if (!referenceFailure_.empty()) {
            j["reference_failed"] = referenceFailure_;
            if (!asJson_)
                std::cout << "reference switched off: " << referenceFailure_ << "; the " << rep.outputs.size()
                          << " tensors before it were compared\n";
        }
        // Ops the reference computed in float32 (no kernel in the reduced
        // dtype), grouped by the reason: an LLM has thousands of them.
        std::map<std::string, std::vector<std::string>> byNote;
        std::string lastNode;
        for (const auto& row : rep.outputs)
            if (!row.referenceNote.empty() && row.nodeName != lastNode) {
                byNote[row.referenceNote].push_back(row.nodeName);
                lastNode = row.nodeName;
            }
        if (!byNote.empty()) {
            j["reference_notes"] = byNote;
            if (!asJson_)
                for (const auto& [note, nodes] : byNote) {
                    std::cout << "reference: " << nodes.size() << " node" << (nodes.size() == 1 ? "" : "s") << " (";
                    for (size_t k = 0; k < nodes.size() && k < 4; ++k) std::cout << (k ? ", " : "") << nodes[k];
                    if (nodes.size() > 4) std::cout << ", ...";
                    std::cout << "): " << note << "\n";
                }
        }
        if (rep.firstFailing) {
            const exec::OutputError& row = rep.outputs[*rep.firstFailing];
            at::Tensor actual, reference;
            check_->firstFailingTensors(actual, reference);
            exec::Comparison c = exec::compareTensors(row.output, actual, reference, tol_);
            if (c.matched) c.matched = false;  // failed on dtype alone against a run that allows it: keep the verdict
            j["first_divergence"] =
                json{{"node", row.nodeName}, {"op_type", row.opType}, {"comparison", comparisonJson(c)}};
            if (!asJson_)
                std::cout << what << ": first divergence at node '" << row.nodeName << "' (" << row.opType
                          << "), tensor '" << row.output << "': " << comparisonText(c) << "\n";
            explainFirstDivergence(row, j["first_divergence"]);
        } else if (!asJson_) {
            std::cout << what << ": " << rep.outputs.size() << " tensors match the reference\n";
        }
        report_["intermediates"] = j;
        return !rep.firstFailing;
    }

    // Whether the first divergence is a flipped decision, float noise or a
    // wrong value (exec/reference/divergence_kind.h), against a reference
    // file; a cumulative run only (a local one fed the node the reference's inputs).
    void explainFirstDivergence(const exec::OutputError& row, json& entry) {
        const auto* file = dynamic_cast<const exec::TensorMapReference*>(&check_->reference());
        if (!file || mode_ != exec::ErrorMode::Cumulative) return;
        const auto node = ir::GraphIndex(*graph_).nodeIndex(row.nodeName);
        if (!node) return;
        size_t output = 0;
        const auto& outs = graph_->nodes[static_cast<size_t>(*node)].outputs;
        for (size_t k = 0; k < outs.size(); ++k)
            if (outs[k].name == row.output) output = k;
        exec::DivergenceExplanation e;
        try {
            e = exec::explainDivergence(
                *graph_, *weights_, *constants_, *inputs_, *node, output,
                [&](const std::string& name) {
                    const at::Tensor* t = file->values().find(name);
                    return t ? *t : at::Tensor();
                },
                tol_);
        } catch (const std::exception& ex) {
            entry["kind_error"] = ex.what();
            return;
        }
        entry["kind"] = exec::divergenceKindName(e.kind);
        const auto finite = [](double v) { return std::isnan(v) ? json() : json(v); };
        if (e.kind == exec::DivergenceKind::Decision)
            entry["margin"] = json{
                {"flipped_within", finite(e.margin)}, {"input_difference", e.inputDifference}, {"input", e.carrier}};
        if (!std::isnan(e.irscopeVsFp64))
            entry["vs_fp64"] = json{{"irscope", e.irscopeVsFp64}, {"reference", e.referenceVsFp64}};
        entry["explanation"] = e.words;
        if (!asJson_) std::cout << "  that is " << e.words << "\n";
    }

    // Every node output against the reference, written to --report.
    bool writeReport() {
        if (!parsed_.has("--report")) return true;
        const std::string path = *parsed_.value("--report");
        const exec::ErrorReport& rep = checked_;
        try {
            exec::writeErrorReport(rep, path);
        } catch (const std::exception& e) {
            std::cerr << "irscope run: --report: " << e.what() << "\n";
            return false;
        }
        size_t failing = 0;
        for (const auto& row : rep.outputs) failing += row.failing ? 1 : 0;
        const std::string first = rep.firstFailing ? rep.outputs[*rep.firstFailing].nodeName : "";
        report_["report"] = json{{"file", path},
                                 {"mode", rep.mode},
                                 {"compared", rep.outputs.size()},
                                 {"failing", failing},
                                 {"first_failing", first.empty() ? json() : json(first)}};
        if (!asJson_)
            std::cout << "report (" << rep.mode << "): " << rep.outputs.size() << " node outputs compared, " << failing
                      << " failing" << (first.empty() ? "" : "; first failing node '" + first + "'") << " -> " << path
                      << "\n";
        return true;
    }

    // One metric per node as Model Explorer node data (--node-data).
    bool writeNodeData() {
        if (!parsed_.has("--node-data")) return true;
        const std::string path = *parsed_.value("--node-data");
        const exec::NodeMetric metric = metric_.value_or(exec::NodeMetric::MaxAbs);
        const std::vector<double> values = metric == exec::NodeMetric::TimeMs
                                               ? exec::nodeTimesMs(*session_)
                                               : exec::nodeMetricValues(checked_, graph_->nodes.size(), metric);
        const auto data = exec::nodeMetricData(*graph_, values, metric, tol_, exec::nodeDataGraphId(*graph_));
        try {
            ir::replaceFileContents(path, exporter::nodeDataJson(data));
        } catch (const std::exception& e) {
            std::cerr << "irscope run: --node-data: " << e.what() << "\n";
            return false;
        }
        report_["node_data"] =
            json{{"file", path}, {"metric", exec::nodeMetricName(metric)}, {"nodes", data.values.size()}};
        if (!asJson_)
            std::cout << "node data: " << exec::nodeMetricName(metric) << " of " << data.values.size() << " nodes -> "
                      << path << "\n";
        return true;
    }

    ParsedArgs parsed_;
    exec::Tolerance tol_;
    bool asJson_ = false;
    std::optional<ir::Graph> graph_;
    std::optional<io::TensorMap> weights_, constants_, inputs_, expected_, reference_, referenceWeights_;
    bool runReference_ = false;
    std::optional<at::ScalarType> refDtype_;
    exec::ErrorMode mode_ = exec::ErrorMode::Cumulative;
    exec::WatchCondition watch_;
    std::optional<exec::NodeMetric> metric_;
    std::shared_ptr<exec::ReferenceCheck> check_;
    exec::ErrorReport checked_;     // the check's report after the run
    std::string referenceFailure_;  // why the reference stopped, if it did
    std::shared_ptr<exec::Watchpoints> watchpoints_;
    int64_t target_ = -1;
    std::optional<std::pair<ir::ExecutionPosition, ir::ResolvedPosition>> untilInside_;
    std::unique_ptr<exec::Session> session_;
    json report_ = json::object();
    double wall_ = 0;
    int64_t ran_ = 0;
};

int runRun(const std::vector<std::string>& args) { return RunCommand(args).run(); }

const CommandRegistration commandRunRegistration{
    Command{"run", "execute an IR with libtorch node by node and verify it against references",
            "Usage: irscope run IR --weights FILE [--cast-weights] [--constants FILE]\n"
            "                  [--inputs FILE | --random-inputs SEED] [--expected FILE]\n"
            "                  [--reference-intermediates FILE | --reference-weights FILE | --reference-dtype DTYPE\n"
            "                   | --reference-program FLOAT [--reference-weights FILE]]\n"
            "                  [--local] [--report FILE] [--node-data FILE [--metric M]] [--break-on COND]\n"
            "                  [--dump FILE] [--until NODE] [--rtol R] [--atol A] [--threads N] [--json]\n\n"
            "Runs the graph as torch_ir's IRExecutor does, on libtorch: weights by state_dict\n"
            "key and placeholder, constants by original name (overriding the IR's), inputs by\n"
            "graph input name. Tensor files: .pt (torch.save), .safetensors, a directory\n"
            "of .npy files, or a sharded Hugging Face checkpoint (its *.index.json or its\n"
            "directory of shards; only the headers are read up front). IR may be a\n"
            "torch.export archive (.pt2, PyTorch 2.8 on): it opens as pytorch-ir's IR of the\n"
            "program and runs with the weights, constants and example inputs inside it.\n\n"
            "Options:\n"
            "  --weights FILE        the model's state_dict (default for a .pt2: the weights in it)\n"
            "  --cast-weights        cast each weight whose dtype is not the IR's to the IR's\n"
            "                        (a bfloat16 checkpoint for a float32 IR); without it such a\n"
            "                        weight is reported before the run, as a missing one is\n"
            "  --constants FILE      lifted constants / non-persistent buffers by original name\n"
            "  --inputs FILE         graph inputs by name (a .pt2: the example inputs stored in it;\n"
            "                        the default for a .pt2 IR that stored them)\n"
            "  --random-inputs SEED  random graph inputs instead (normal floats, ints in [0, 10))\n"
            "  --expected FILE       reference outputs by name: allclose per output, integers exactly\n\n"
            "The reference (each node output is measured against it as the node runs):\n"
            "  --reference-intermediates FILE\n"
            "                        node outputs by tensor name (an `irscope run --dump`)\n"
            "  --reference-weights FILE\n"
            "                        the same graph run a second time with these weights\n"
            "  --reference-program FLOAT\n"
            "                        a quantized IR against its float program (a .pt2, or an IR with\n"
            "                        --reference-weights): per tensor SQNR, MSE, max abs and cosine,\n"
            "                        what to keep in float (sensitivity) and the weights' SQNR per\n"
            "                        channel; --report FILE writes every row as JSON\n"
            "  --reference-dtype DTYPE\n"
            "                        ... or with every floating value cast to float64, float32,\n"
            "                        float16 or bfloat16 (with --reference-weights: those, cast)\n"
            "  --local               each node runs on the reference values of its inputs, so only\n"
            "                        an op that is wrong by itself fails (default: cumulative)\n"
            "  --report FILE         every node output's max abs, max rel, mean abs, MSE, cosine,\n"
            "                        SQNR dB, allclose verdict, NaN/Inf counts (.json or .csv)\n"
            "  --node-data FILE      one metric per node as Model Explorer node data (JSON)\n"
            "  --metric M            max_abs (default), max_rel, mean_abs, mse, cosine, sqnr_db,\n"
            "                        time_ms (needs no reference)\n"
            "  --break-on COND       stop after the first node whose output has: nan, inf,\n"
            "                        absmax=V (max |x| above V), diff (fails the tolerance);\n"
            "                        comma-separated; prints the node and its inputs, exit 1\n\n"
            "  --dump FILE           write every node output and graph input (.pt or .safetensors):\n"
            "                        the values any `irscope extract --values` cut needs\n"
            "  --until NODE          stop after NODE; a node inside a subgraph's call by its\n"
            "                        position: while_loop/while_loop_body_graph_0#2/tanh\n"
            "  --rtol R, --atol A    tolerances for every dtype (default: torch.testing.assert_close's\n"
            "                        for the dtypes compared: float32 1.3e-06 and 1e-05, float16\n"
            "                        1e-03 and 1e-05, bfloat16 1.6e-02 and 1e-05, float64 1e-07\n"
            "                        and 1e-07; integers and bools exactly)\n"
            "  --threads N           intra-op threads\n"
            "  --json                one JSON report on standard output (\"stopped_at\" when\n"
            "                        a --break-on condition stopped the run)\n\n"
            "Exit status: 0 when it ran (and matched the references given), 1 on a mismatch\n"
            "or a --break-on stop, 2 when it could not run (missing values, a failing op, a\n"
            "bad file or argument).\n",
            runRun}};

}  // namespace
}  // namespace irscope::cli
