// irscope reduce: turn a failing run into a file of a few nodes that still
// fails: a repro small enough to read. The search is
// core/exec/repro/range_reducer.h (bisect, then linear shrinking, over ranges in
// execution order); a candidate is the cut
// of core/ir/subgraph.h, tested either in-process against reference
// intermediates, run locally (fed the reference's values at the cut, so a
// range fails only when it holds an op wrong by itself), or by the user's
// command on files written for it (fed the whole run's values at the cut).
// Torch headers first: Qt's `slots` macro (pulled in elsewhere) breaks ATen's.
#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <sys/wait.h>

#include <csignal>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "commands/cast_weights_option.h"
#include "core/exec/engine/attr_convert.h"
#include "core/exec/engine/session.h"
#include "core/exec/numerics/verify.h"
#include "core/exec/repro/cut_values.h"
#include "core/exec/repro/range_reducer.h"
#include "core/exec/values/random_inputs.h"
#include "core/io/tensor_file.h"
#include "core/ir/json_io.h"
#include "core/ir/subgraph.h"

namespace irscope::cli {
namespace {

namespace fs = std::filesystem;

struct ReduceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A candidate that cannot be tested: a value entering it does not exist (the
// whole run failed before it). It counts as passing: nothing there fails.
struct NotTestable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A private scratch folder (mkdtemp), removed however the command ends.
class ScratchDir {
public:
    ScratchDir() {
        std::string pattern = (fs::temp_directory_path() / "irscope-reduce.XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw ReduceError("cannot make a scratch folder in " + pattern);
        path_ = pattern;
    }
    ~ScratchDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

io::TensorMap readReduceValues(const std::string& option, const std::string& path) {
    try {
        return io::readTensorFile(path);
    } catch (const std::exception& e) {
        throw ReduceError(option + ": " + e.what());
    }
}

std::vector<int64_t> rangeNodes(int64_t lo, int64_t hi) {
    std::vector<int64_t> v;
    for (int64_t i = lo; i < hi; ++i) v.push_back(i);
    return v;
}

std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

struct Values {
    io::TensorMap weights, constants, inputs;
};

// The values a candidate is fed and checked against, by tensor name.
class ValueSource {
public:
    virtual ~ValueSource() = default;
    virtual at::Tensor value(const std::string& name) const = 0;
    // The cut's inputs (cast to the IR's dtype: a float32 reference for a
    // float16 IR) and the expected outputs the source has (a run that failed
    // part way has none past the failure; those are not compared).
    void cut(const ir::Subgraph& cut, io::TensorMap& inputs, io::TensorMap& expected) const {
        at::NoGradGuard guard;
        for (const auto& meta : cut.graph.graphInputs) {
            at::Tensor t = value(meta.name);
            if (!t.defined()) throw NotTestable("no value for '" + meta.name + "' entering the cut");
            const auto dtype = exec::scalarTypeOfIrDtype(meta.dtype);
            if (dtype && *dtype != t.scalar_type() && at::isFloatingType(t.scalar_type())) t = t.to(*dtype);
            inputs.insert(meta.name, t.contiguous());
        }
        for (const auto& n : cut.outputs)
            if (at::Tensor t = value(n); t.defined()) expected.insert(n, t.contiguous());
    }
};

// Reference intermediates, with the graph inputs from --inputs.
class ReferenceValues : public ValueSource {
public:
    ReferenceValues(io::TensorMap reference, const io::TensorMap& inputs)
        : reference_(std::move(reference)), inputs_(inputs) {}
    at::Tensor value(const std::string& name) const override {
        if (const at::Tensor* t = reference_.find(name)) return *t;
        if (const at::Tensor* t = inputs_.find(name)) return *t;
        return {};
    }

private:
    io::TensorMap reference_;
    const io::TensorMap& inputs_;
};

// The whole graph run once, every value kept.
class RunValues : public ValueSource {
public:
    // A run that fails part way keeps the values up to there: the command may be testing that failure.
    RunValues(const ir::Graph& g, const Values& v) : session_(g, exec::RetentionPolicy::KeepAll) {
        session_.setWeights(v.weights);
        session_.setConstants(v.constants);
        session_.setInputs(v.inputs);
        session_.runToEnd();
    }
    at::Tensor value(const std::string& name) const override {
        at::Tensor t;
        session_.value(name, t);
        return t;
    }

private:
    exec::Session session_;
};

// Runs the cut in-process and compares its outputs with the expected values.
bool cutFailsAgainst(const ir::Subgraph& cut, const Values& v, const io::TensorMap& in, const io::TensorMap& expected,
                     const exec::Tolerance& tol) {
    exec::Session s(cut.graph, exec::RetentionPolicy::FreeAfterLastUse);
    s.setWeights(v.weights);
    s.setConstants(v.constants);
    s.setInputs(in);
    const exec::RunResult r = s.runToEnd();
    // An op that errors fails too; so does a cut missing a value.
    if (r.reason == exec::StopReason::Failed || r.reason == exec::StopReason::MissingValue) return true;
    for (const auto& e : expected.entries()) {
        at::Tensor got;
        if (!s.value(e.name, got) || !exec::compareTensors(e.name, got, e.tensor, tol).matched) return true;
    }
    return false;
}

// A graph lacking a value fails everywhere for that reason alone: the search
// would end at whatever node reads it first. Say so instead.
void refuseMissingValues(const ir::Graph& g, const Values& v) {
    exec::Session probe(g, exec::RetentionPolicy::FreeAfterLastUse);
    probe.setWeights(v.weights);
    probe.setConstants(v.constants);
    probe.setInputs(v.inputs);
    const auto missing = probe.preflight();
    if (missing.empty()) return;
    std::string what = "the graph lacks " + std::to_string(missing.size()) + " value(s), so every candidate fails:";
    for (const auto& m : missing) what += "\n  " + exec::formatMissingValue(m);
    if (const std::string hint = castWeightsHint(missing); !hint.empty()) what += "\n(" + hint + ")";
    throw ReduceError(what);
}

// Runs the user's check on a candidate's files: true when it fails (exits
// non-zero). A command that cannot run (126, 127), or an interrupt, stops
// the search instead of reading as "fails".
bool checkFails(const std::string& cmd, const std::vector<std::pair<std::string, std::string>>& files, bool quiet) {
    std::string line = cmd;
    for (const auto& [key, path] : files)
        for (size_t at = line.find(key); at != std::string::npos;) {
            // Inside the user's own quotes the path goes in as it is (a scratch path: no quotes, no spaces).
            const bool quoted = at > 0 && (line[at - 1] == '"' || line[at - 1] == '\'');
            const std::string text = quoted ? path : shellQuote(path);
            line.replace(at, key.size(), text);
            at = line.find(key, at + text.size());
        }
    const int status = std::system(("( " + line + " )" + (quiet ? " >/dev/null 2>&1" : " >/dev/null")).c_str());
    if (status == -1) throw ReduceError("cannot start the check command: " + cmd);
    if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGQUIT))
        throw ReduceError("interrupted");
    if (WIFEXITED(status) && (WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127))
        throw ReduceError("the check command could not run (exit " + std::to_string(WEXITSTATUS(status)) +
                          "): " + line);
    return status != 0;
}

int runReduce(const std::vector<std::string>& args) {
    const auto p = parseArgs(args, {{"--force", "--quiet", kCastWeightsFlag},
                                    {"--output", "--weights", "--constants", "--inputs", "--random-inputs",
                                     "--reference-intermediates", "--check", "--mode", "--budget", "--rtol", "--atol"},
                                    {{"-o", "--output"}, {"-q", "--quiet"}}});
    requirePositional(p, 1, 1, "IR (a torch_ir JSON file or a .pt2 archive)");
    const auto out = p.value("--output");
    if (!out) throw UsageError("-o MIN.json is required");
    if (!p.has("--weights")) throw UsageError("--weights FILE is required");
    if (p.has("--reference-intermediates") == p.has("--check"))
        throw UsageError(
            "say what fails, one way: --reference-intermediates R or --check 'CMD {ir} {inputs} {expected}'");
    if (p.has("--inputs") == p.has("--random-inputs")) throw UsageError("give --inputs FILE or --random-inputs SEED");
    exec::ReduceOptions options;
    if (auto m = p.value("--mode")) {
        if (*m == "bisect")
            options.mode = exec::ReduceMode::Bisect;
        else if (*m == "linear")
            options.mode = exec::ReduceMode::Linear;
        else if (*m != "both")
            throw UsageError("--mode: '" + *m + "' is not bisect, linear or both");
    }
    if (auto b = p.doubleValue("--budget")) options.budget = std::chrono::duration<double>(*b);
    exec::Tolerance tol;
    if (auto v = p.doubleValue("--rtol")) tol.rtol = *v;
    if (auto v = p.doubleValue("--atol")) tol.atol = *v;
    const bool quiet = p.has("--quiet");

    const auto graph = loadGraphOrReport("reduce", p.positional[0]);
    if (!graph) return kExitUsage;
    try {
        const ir::CutFiles beside = ir::cutFilesBeside(*out);
        for (const std::string& f : {*out, beside.inputs, beside.expected})
            if (!p.has("--force") && fs::exists(f)) throw ReduceError(f + " exists; pass --force to replace it");
        Values v;
        v.weights = readReduceValues("--weights", *p.value("--weights"));
        if (auto c = p.value("--constants")) v.constants = readReduceValues("--constants", *c);
        v.inputs = p.has("--inputs") ? readReduceValues("--inputs", *p.value("--inputs"))
                                     : exec::makeRandomInputs(*graph, *p.intValue("--random-inputs"));
        v.weights = castWeightsIfAsked(*graph, std::move(v.weights), p.has(kCastWeightsFlag), "reduce", quiet);
        refuseMissingValues(*graph, v);
        const ir::GraphIndex index(*graph);
        std::unique_ptr<ValueSource> values;
        std::function<bool(const ir::Subgraph&)> fails;
        std::unique_ptr<ScratchDir> scratch;
        if (auto r = p.value("--reference-intermediates")) {
            values = std::make_unique<ReferenceValues>(readReduceValues("--reference-intermediates", *r), v.inputs);
            fails = [&](const ir::Subgraph& cut) {
                io::TensorMap in, expected;
                values->cut(cut, in, expected);
                return cutFailsAgainst(cut, v, in, expected, tol);
            };
        } else {
            if (!quiet) std::cerr << "running the whole graph once for the values at every cut ...\n";
            values = std::make_unique<RunValues>(*graph, v);
            scratch = std::make_unique<ScratchDir>();
            const fs::path tmp = scratch->path();
            const std::string cmd = *p.value("--check");
            fails = [&, cmd, tmp](const ir::Subgraph& cut) {
                io::TensorMap in, expected;
                values->cut(cut, in, expected);
                const std::string ir = (tmp / "candidate.json").string(), ins = (tmp / "candidate.inputs.pt").string(),
                                  exp = (tmp / "candidate.expected.pt").string();
                ir::saveGraphFile(cut.graph, ir);
                io::writeTensorFile(in, ins);
                io::writeTensorFile(expected, exp);
                return checkFails(cmd, {{"{ir}", ir}, {"{inputs}", ins}, {"{expected}", exp}}, quiet);
            };
        }
        auto cutOf = [&](int64_t lo, int64_t hi) { return ir::extractSubgraph(index, rangeNodes(lo, hi)); };
        auto rangeFails = [&](int64_t lo, int64_t hi) {
            try {
                return fails(cutOf(lo, hi));
            } catch (const ir::NothingToCompare&) {
                return false;  // results used by nothing: nothing to see fail
            } catch (const ir::HoldsSubgraphs&) {
                if (lo == 0 && hi == static_cast<int64_t>(graph->nodes.size())) throw;
                return false;  // a cut with a higher-order op could not run as JSON: never offered
            } catch (const NotTestable&) {
                return false;  // past the point where the whole run failed
            }
        };
        const int64_t n = static_cast<int64_t>(graph->nodes.size());
        const auto t0 = std::chrono::steady_clock::now();
        if (!rangeFails(0, n)) {
            std::cerr << "irscope reduce: the whole graph does not fail "
                      << (p.has("--check") ? "the check" : "against the reference, run locally")
                      << ": nothing to reduce\n";
            return kExitFailure;
        }
        options.onStep = [&](const exec::ReduceStep& s) {
            if (!quiet)
                std::cerr << "  " << s.why << ": nodes " << s.lo << ".." << s.hi - 1 << " (" << s.hi - s.lo << ") "
                          << (s.fails ? "fails" : "passes") << "\n";
            return true;
        };
        const exec::ReduceResult r = exec::reduceRange(n, rangeFails, options);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const ir::Subgraph cut = cutOf(r.lo, r.hi);
        io::TensorMap in, expected;
        values->cut(cut, in, expected);
        ir::saveGraphFile(cut.graph, *out);
        io::writeTensorFile(in, beside.inputs);
        io::writeTensorFile(expected, beside.expected);
        std::cout << "reduced " << n << " nodes to " << cut.graph.nodes.size() << " ("
                  << graph->nodes[static_cast<size_t>(r.lo)].name
                  << (r.hi - r.lo > 1 ? " .. " + graph->nodes[static_cast<size_t>(r.hi - 1)].name : std::string())
                  << ") in " << r.steps.size() + 1 << " tests, " << static_cast<int>(secs * 10) / 10.0 << " s"
                  << (r.outOfTime ? " (the budget ran out: it still fails, but may not be the smallest)" : "") << "\n"
                  << "  -> " << *out << ", " << beside.inputs << ", " << beside.expected << "\n"
                  << "reproduce: irscope run " << *out << " --weights " << *p.value("--weights") << " --inputs "
                  << beside.inputs << " --expected " << beside.expected
                  << (p.has(kCastWeightsFlag) ? " --cast-weights" : "")
                  << (p.value("--constants") ? " --constants " + *p.value("--constants") : std::string()) << "\n";
        return kExitOk;
    } catch (const std::exception& e) {
        std::cerr << "irscope reduce: " << e.what() << "\n";
        return kExitUsage;
    }
}

const CommandRegistration commandReduceRegistration{
    Command{"reduce", "cut a failing graph down to a few nodes that still fail",
            "Usage: irscope reduce IR --weights W [--cast-weights] (--inputs I | --random-inputs S)\n"
            "                      [--constants C]\n"
            "                      (--reference-intermediates R | --check 'CMD {ir} {inputs} {expected}')\n"
            "                      [--mode bisect|linear|both] [--budget SECONDS] [--rtol R] [--atol A]\n"
            "                      -o MIN.json [--force] [-q]\n\n"
            "Finds a short run of consecutive nodes that still fails, and writes it as a\n"
            "runnable IR (MIN.json) with the values entering it (MIN.inputs.pt) and the\n"
            "values it should produce (MIN.expected.pt). A candidate fails when:\n"
            "  --reference-intermediates R  run locally (fed R's values at the cut), an output\n"
            "                               differs from R under the tolerance, or an op errors:\n"
            "                               the search ends at the op that is wrong by itself\n"
            "  --check CMD                  CMD exits non-zero; {ir}, {inputs}, {expected} are\n"
            "                               replaced by the candidate's files (fed the whole\n"
            "                               run's values at the cut)\n"
            "Bisection first (keep the half that fails alone), then linear shrinking from\n"
            "both ends. Each test is printed on stderr. --budget stops the search after that\n"
            "many seconds with the smallest failing range found so far.\n\n"
            "A value the graph lacks, or a weight in another dtype than the IR's (cast it\n"
            "with --cast-weights), is reported before the search: every candidate would\n"
            "fail for that reason alone.\n\n"
            "Exit status: 0 written; 1 the whole graph does not fail; 2 bad arguments,\n"
            "unreadable input, an existing output without --force.\n",
            runReduce}};

}  // namespace
}  // namespace irscope::cli
