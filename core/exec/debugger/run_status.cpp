#include "core/exec/debugger/run_status.h"

#include "core/exec/values/value_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_set>

namespace irscope::exec {

RunStatus describeStop(const ir::Graph& graph, const RunResult& r, int64_t cursor) {
    RunStatus s;
    s.reason = r.reason;
    s.lastNode = r.lastNode;
    const auto& nodes = graph.nodes;
    auto nameOf = [&](int64_t i) {
        return i >= 0 && i < static_cast<int64_t>(nodes.size()) ? nodes[i].name : std::string("?");
    };
    switch (r.reason) {
    case StopReason::Finished:
        s.message = "finished: " + std::to_string(cursor) + "/" + std::to_string(nodes.size()) + " nodes ran";
        break;
    case StopReason::Stepped: s.message = "ran '" + nameOf(r.lastNode) + "'"; break;
    case StopReason::ReachedTarget: s.message = "stopped after '" + nameOf(r.lastNode) + "'"; break;
    case StopReason::Breakpoint: s.message = "breakpoint: stopped before '" + nameOf(cursor) + "'"; break;
    case StopReason::Watchpoint:
        s.message = "watchpoint: stopped after '" + nameOf(r.lastNode) + "'" + (r.watch.empty() ? "" : ": " + r.watch);
        break;
    case StopReason::Cancelled: s.message = "stopped before '" + nameOf(cursor) + "'"; break;
    case StopReason::MissingValue: {
        s.missing = r.missing;
        std::string what = "a value";
        if (r.missing) {
            what = r.missing->kind + " '" +
                   (r.missing->originalName.empty() ? r.missing->name : r.missing->originalName) + "'";
            if (!r.missing->originalName.empty() && r.missing->originalName != r.missing->name)
                what += " (" + r.missing->name + ")";
        }
        if (r.missing && r.missing->wrongDtype())  // there, but not in the dtype the op is declared for
            s.message = "stopped before '" + nameOf(cursor) + "': it needs " + what + ", which is " +
                        r.missing->haveDtype + " but the IR says " + r.missing->irDtype +
                        "; cast the weights to the IR's dtypes, then continue";
        else
            s.message = "stopped before '" + nameOf(cursor) + "': it needs " + what +
                        ", which has no value; supply it, then continue";
        break;
    }
    case StopReason::Failed:
        s.failed = true;
        if (r.error && r.error->refusedInput)  // the program's own check: the input, not an op, is at fault
            s.message =
                "the program refuses these inputs: its check '" + r.error->nodeName + "' failed: " + r.error->message;
        else
            s.message = r.error
                            ? "node '" + r.error->nodeName + "' (" + r.error->opType + ") failed: " + r.error->message
                            : "failed";
        break;
    }
    return s;
}

std::string describeQuantizedVerdict(const ir::Graph& graph, const std::vector<OutputError>& rows) {
    std::unordered_set<std::string> outputs;
    for (const auto& o : graph.graphOutputs) outputs.insert(o.name);
    for (const auto& r : rows) {
        if (!outputs.count(r.output)) continue;
        char db[32];
        std::snprintf(db, sizeof db, "%.1f dB", r.metrics.sqnrDb);
        return "against the float program: output '" + r.output + "' at " +
               (std::isinf(r.metrics.sqnrDb) ? std::string("inf dB (exact)") : std::string(db)) +
               " SQNR (max abs diff " + shortNumber(r.metrics.maxAbs) +
               "): the quantization's error, measured (the Quantization dock says where it comes from)";
    }
    return {};
}

std::string describeVerdict(const ir::Graph& graph, const std::vector<OutputError>& rows) {
    std::unordered_set<std::string> outputs;
    for (const auto& o : graph.graphOutputs) outputs.insert(o.name);
    const OutputError* firstBadOutput = nullptr;
    const OutputError* firstBad = nullptr;
    double worst = 0;
    int measured = 0;
    for (const auto& r : rows) {
        if (r.failing && !firstBad) firstBad = &r;
        if (!outputs.count(r.output)) continue;
        ++measured;
        worst = std::max(worst, r.metrics.maxAbs);
        if (r.failing && !firstBadOutput) firstBadOutput = &r;
    }
    if (measured == 0) return {};
    // Which tolerance judged: the first failing output's, else the one the
    // outputs shared ("per-dtype defaults" when they had several).
    std::string tolerance;
    for (const auto& r : rows) {
        if (!outputs.count(r.output)) continue;
        const std::string t = r.metrics.tolerance.text();
        tolerance = tolerance.empty() || tolerance == t ? t : "per-dtype defaults";
    }
    if (firstBadOutput) tolerance = firstBadOutput->metrics.tolerance.text();
    const std::string within = tolerance == "exact" ? "; compared exactly" : "; tolerance " + tolerance;
    if (!firstBadOutput && !firstBad) return "outputs match (max abs diff " + shortNumber(worst) + within + ")";
    std::string s = firstBadOutput ? "output '" + firstBadOutput->output + "' differs (max abs diff " +
                                         shortNumber(firstBadOutput->metrics.maxAbs) + within + ")"
                                   : "outputs match (max abs diff " + shortNumber(worst) + within + ")";
    if (firstBad) s += "; first divergence at node '" + firstBad->nodeName + "'";
    return s;
}

}  // namespace irscope::exec
