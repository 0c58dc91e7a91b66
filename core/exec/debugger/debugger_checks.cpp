// DebuggerChecks (debugger_checks.h): the numerical checks: where the reference comes
// from, local or cumulative error, the rows measured so far, watchpoints,
// the overlays by error metric, and node data in and out; and the core's
// rebuilding of the checks when what they measure changed.
#include <ATen/ATen.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "core/exec/debugger/debugger_checks.h"
#include "core/exec/debugger/debugger_impl.h"
#include "core/exec/numerics/node_times.h"
#include "core/exec/numerics/number_text.h"
#include "core/exec/numerics/verify.h"
#include "core/exec/reference/divergence_kind.h"
#include "core/exec/reference/dump_check.h"
#include "core/export/backend_report.h"
#include "core/ir/dump_groups.h"
#include "core/ir/file_replace.h"

namespace irscope::exec {

namespace {

std::optional<NodeMetric> metricOfOverlay(OverlayKind kind) {
    if (const ErrorMetricInfo* info = errorMetricOfOverlay(kind)) return info->metric;
    return std::nullopt;
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

DivergenceInfo firstFailingRow(const std::vector<OutputError>& rows, const ReferenceChoice& choice) {
    DivergenceInfo info;
    info.compared = static_cast<int64_t>(rows.size());
    const OutputError* first = nullptr;
    for (const auto& r : rows)
        if (r.failing) {
            first = &r;
            break;
        }
    if (!first) {
        info.message = rows.empty() ? "nothing compared yet against " + describeReference(choice) + ": run the graph"
                                    : "no node diverges: " + std::to_string(rows.size()) + " node outputs match " +
                                          describeReference(choice);
        return info;
    }
    info.found = true;
    info.node = first->node;
    info.nodeName = first->nodeName;
    info.opType = first->opType;
    info.tensor = first->output;
    const ErrorMetrics& m = first->metrics;
    info.diff.name = first->output;
    info.diff.problem = m.problem;
    info.diff.exact = m.exact;
    info.diff.numel = m.numel;
    info.diff.mismatches = m.mismatches;
    info.diff.maxAbsDiff = m.maxAbs;
    info.diff.maxRelDiff = m.maxRel;
    info.diff.worstActual = m.worstActual;
    info.diff.worstExpected = m.worstReference;
    char buf[96];
    std::snprintf(buf, sizeof buf, "max abs diff %.3g, max rel diff %.3g", m.maxAbs, m.maxRel);
    info.message = "first divergence at node '" + info.nodeName + "' (" + info.opType + "), tensor '" + info.tensor +
                   "': " + (m.problem.empty() ? std::string(buf) : m.problem) + ", against " +
                   describeReference(choice);
    return info;
}

std::optional<QuantizationComparison> DebuggerChecks::compareWithProgram() const {
    const ir::Graph* program = core_.checks.program();
    if (core_.checks.choice().kind != ReferenceChoice::Kind::Program || !program) return std::nullopt;
    io::TensorMap weights, inputs;
    {
        std::lock_guard lock(core_.m);
        weights = core_.sources.weightsForRun();
        inputs = core_.effectiveInputs;
    }
    return compareQuantized(core_.graph, weights, *program, core_.checks.programWeights(), inputs);
}

void DebuggerCore::rebuildChecks() {
    io::TensorMap weights, constants, inputs, references;
    Tolerance tol;
    {
        std::lock_guard lock(m);
        tol = tolerance;
        if (checks.runsReference()) {
            weights = sources.weightsForRun();
            constants = sources.userConstants();
            inputs = effectiveInputs;
        } else if (checks.choice().kind == ReferenceChoice::Kind::Program) {
            inputs = effectiveInputs;  // the other program runs on this run's inputs
        } else {
            references = sources.references();
        }
    }
    if (checks.rebuild(session, {weights, constants, inputs, std::move(references)}, tol))
        clearOverlays();  // the run went back to its start
}

void DebuggerCore::clearOverlays() {
    std::lock_guard lock(m);
    overlays.reset(graph.nodes.size());
}

void DebuggerChecks::setReference(const ReferenceChoice& choice) {
    core_.checks.setChoice(choice);
    core_.session.reset();
    core_.clearOverlays();
    core_.rebuildChecks();
}

ReferenceChoice DebuggerChecks::referenceChoice() const { return core_.checks.choice(); }

void DebuggerChecks::setErrorMode(ErrorMode mode) {
    core_.checks.setMode(mode);
    core_.session.reset();
    core_.clearOverlays();
    core_.rebuildChecks();
}

ErrorMode DebuggerChecks::errorMode() const { return core_.checks.mode(); }
bool DebuggerChecks::checking() const { return core_.checks.active(); }

std::vector<OutputError> DebuggerChecks::errorRows(size_t from, uint64_t& epoch) const {
    return core_.checks.rowsFrom(from, epoch);
}

std::string DebuggerChecks::referenceFailure() const { return core_.checks.referenceFailure(); }

std::vector<OutputError> DebuggerChecks::errorRows() const { return core_.errorRows(); }

void DebuggerChecks::setWatch(int64_t node, const WatchCondition& c) { core_.checks.watchpoints().setNode(node, c); }
std::map<int64_t, WatchCondition> DebuggerChecks::watches() const { return core_.checks.watchpoints().nodes(); }
void DebuggerChecks::setGlobalWatch(const WatchCondition& c) { core_.checks.watchpoints().setGlobal(c); }
WatchCondition DebuggerChecks::globalWatch() const { return core_.checks.watchpoints().global(); }

std::vector<double> DebuggerChecks::errorOverlay(OverlayKind kind) const {
    const size_t n = core_.graph.nodes.size();
    if (kind == OverlayKind::Imported) {
        std::vector<double> v(n, std::numeric_limits<double>::quiet_NaN());
        std::lock_guard lock(core_.m);
        if (!core_.imported) return v;
        for (const auto& [name, value] : core_.imported->values)
            if (auto i = core_.index().nodeIndex(name)) v[static_cast<size_t>(*i)] = value;
        return v;
    }
    const auto metric = metricOfOverlay(kind);
    if (!metric) return std::vector<double>(n, std::numeric_limits<double>::quiet_NaN());
    return nodeMetricValues(errorRows(), n, *metric);
}

size_t DebuggerChecks::importNodeData(const std::string& path) {
    const std::string text = readText(path);
    // A backend check's report colours each node by its group's verdict.
    exporter::NodeData data =
        exporter::isBackendReport(text)
            ? exporter::backendNodeData(exporter::parseBackendReport(text, path), nodeDataGraphId(core_.graph))
            : exporter::parseNodeData(text, path, nodeDataGraphId(core_.graph));
    size_t found = 0;
    for (const auto& entry : data.values)
        if (core_.index().nodeIndex(entry.first)) ++found;
    if (found == 0 && !data.values.empty())
        throw std::runtime_error(path + ": none of its " + std::to_string(data.values.size()) +
                                 " node names is a node of this graph (first: '" + data.values.front().first + "')");
    std::lock_guard lock(core_.m);
    core_.imported = std::move(data);
    core_.importedPath = path;
    return found;
}

std::string DebuggerChecks::checkDump(
    const std::string& programPath, const std::string& dumpPath, const std::string& groupsPath,
    const std::function<std::optional<std::vector<int64_t>>(const std::string&)>& moduleNodes) {
    DumpCheckRequest request;
    request.dumpPath = dumpPath;
    request.groupsPath = groupsPath;
    request.groups = ir::parseDumpGroups(readText(groupsPath), groupsPath);
    request.dump = readDumpValues(dumpPath);
    request.moduleNodes = moduleNodes;
    {
        std::lock_guard lock(core_.m);
        request.weights = core_.sources.weightsForRun();
        request.constants = core_.sources.file(ValueFile::Constants);
        request.inputs = core_.sources.effectiveInputs();
    }
    return dumpCheckJson(exec::checkDump(core_.graph, request), programPath, dumpPath);
}

void DebuggerChecks::clearNodeData() {
    std::lock_guard lock(core_.m);
    core_.imported.reset();
    core_.importedPath.clear();
}

std::optional<exporter::NodeData> DebuggerChecks::importedNodeData() const {
    std::lock_guard lock(core_.m);
    return core_.imported;
}

std::string DebuggerChecks::importedNodeDataPath() const {
    std::lock_guard lock(core_.m);
    return core_.importedPath;
}

exporter::NodeData DebuggerChecks::nodeData(NodeMetric metric) const {
    const std::vector<double> values = metric == NodeMetric::TimeMs
                                           ? nodeTimesMs(core_.session)
                                           : nodeMetricValues(errorRows(), core_.graph.nodes.size(), metric);
    return nodeMetricData(core_.graph, values, metric, tolerance(), nodeDataGraphId(core_.graph));
}

void DebuggerChecks::exportNodeData(const std::string& path, NodeMetric metric) const {
    const exporter::NodeData data = nodeData(metric);
    if (data.values.empty())
        throw std::runtime_error(metric == NodeMetric::TimeMs
                                     ? "no node has run yet: nothing to export"
                                     : "no node has been measured against a reference yet: nothing to export");
    ir::replaceFileContents(path, exporter::nodeDataJson(data));
}

std::string DebuggerChecks::expectedOutputsVerdict() const {
    std::lock_guard lock(core_.m);
    if (!core_.checks.runsReference() || !core_.session.finished()) return {};
    const io::TensorMap& expected = core_.sources.file(ValueFile::Expected);
    if (expected.empty()) return {};
    double worst = 0;
    std::string tolerance;
    for (const Comparison& c : compareOutputs(core_.session, expected, core_.tolerance)) {
        const std::string within = c.exact ? "; compared exactly" : "; tolerance " + c.tolerance.text();
        if (!c.matched)
            return "output '" + c.name + "' differs from the expected outputs (" +
                   (c.problem.empty() ? "max abs diff " + shortNumber(c.maxAbsDiff) + within : c.problem) + ")";
        worst = std::max(worst, c.maxAbsDiff);
        const std::string t = c.exact ? "exact" : c.tolerance.text();
        tolerance = tolerance.empty() || tolerance == t ? t : "per-dtype defaults";
    }
    return "outputs match the expected outputs (max abs diff " + shortNumber(worst) +
           (tolerance == "exact" ? "; compared exactly" : "; tolerance " + tolerance) + ")";
}

DivergenceInfo DebuggerChecks::firstDivergence(bool explain) const {
    io::TensorMap refs, weights, constants, inputs;
    Tolerance tol;
    {
        std::lock_guard lock(core_.m);
        refs = core_.sources.references();
        tol = core_.tolerance;
        if (explain) {  // the rerun's values; a query after every stop copies none of 70,000 weights
            weights = core_.sources.weightsForRun();
            constants = core_.sources.userConstants();
            inputs = core_.effectiveInputs;
        }
    }
    // The check's rows: they saw each node's own result (in local mode the
    // run then holds the reference's), and a second run keeps no dump.
    DivergenceInfo info = core_.checks.active() ? firstFailingRow(errorRows(), core_.checks.choice())
                                                : exec::firstDivergence(core_.session, refs, tol);
    // Against a reference file, in cumulative mode: what kind of difference it is.
    const bool fromFiles = !core_.checks.active() || core_.checks.choice().kind == ReferenceChoice::Kind::Files;
    if (!explain || !info.found || !fromFiles || core_.checks.mode() != ErrorMode::Cumulative || refs.empty())
        return info;
    const auto& node = core_.session.graph().nodes[static_cast<size_t>(info.node)];
    size_t output = 0;
    for (size_t k = 0; k < node.outputs.size(); ++k)
        if (node.outputs[k].name == info.tensor) output = k;
    try {
        const DivergenceExplanation e = explainDivergence(
            core_.session.graph(), weights, constants, inputs, info.node, output,
            [&refs](const std::string& name) {
                const at::Tensor* t = refs.find(name);
                return t ? *t : at::Tensor();
            },
            tol);
        info.kind = divergenceKindName(e.kind);
        info.explanation = e.words;
        info.message += "; that is " + e.words;
    } catch (const std::exception&) {
        // Not judged: the rerun could not reach the node (a value since removed).
    }
    return info;
}

void DebuggerChecks::setTolerance(Tolerance t) {
    {
        std::lock_guard lock(core_.m);
        core_.tolerance = t;
    }
    core_.rebuildChecks();  // the verdicts depend on it
}

Tolerance DebuggerChecks::tolerance() const {
    std::lock_guard lock(core_.m);
    return core_.tolerance;
}

std::vector<double> DebuggerChecks::overlay(OverlayKind kind) const {
    const int64_t n = core_.nodeCount();
    std::vector<double> v(n, std::numeric_limits<double>::quiet_NaN());
    switch (kind) {
    case OverlayKind::None: break;
    case OverlayKind::Time:
        for (int64_t i = 0; i < n; ++i)
            if (core_.session.state(i) != NodeState::Pending) v[i] = core_.session.seconds(i);
        break;
    case OverlayKind::MaxAbs: {
        std::lock_guard lock(core_.m);
        v = core_.overlays.maxAbs();
        break;
    }
    case OverlayKind::NanInf: {
        std::lock_guard lock(core_.m);
        v = core_.overlays.nanInf();
        break;
    }
    default: v = errorOverlay(kind); break;
    }
    return v;
}

}  // namespace irscope::exec
