// The Debugger's numerical checks: where the reference comes
// from, local or cumulative error, the rows measured so far, watchpoints,
// the overlays by error metric, and node data in and out. The rest of the
// facade is in debugger.cpp; both share debugger_impl.h.
#include <ATen/ATen.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "core/exec/debugger/debugger.h"
#include "core/exec/debugger/debugger_impl.h"
#include "core/exec/numerics/number_text.h"
#include "core/exec/numerics/verify.h"
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

void Debugger::rebuildChecks() {
    io::TensorMap weights, constants, inputs, references;
    Tolerance tolerance;
    {
        std::lock_guard lock(d_->m);
        tolerance = d_->tolerance;
        if (d_->checks.runsReference()) {
            weights = d_->sources.weightsForRun();
            constants = d_->sources.userConstants();
            inputs = d_->effectiveInputs;
        } else if (d_->checks.choice().kind == ReferenceChoice::Kind::Program) {
            inputs = d_->effectiveInputs;  // the other program runs on this run's inputs
        } else {
            references = d_->sources.references();
        }
    }
    if (d_->checks.rebuild(d_->session, {weights, constants, inputs, std::move(references)}, tolerance))
        clearOverlays();  // the run went back to its start
}

std::optional<QuantizationComparison> Debugger::compareWithProgram() const {
    const ir::Graph* program = d_->checks.program();
    if (d_->checks.choice().kind != ReferenceChoice::Kind::Program || !program) return std::nullopt;
    io::TensorMap weights, inputs;
    {
        std::lock_guard lock(d_->m);
        weights = d_->sources.weightsForRun();
        inputs = d_->effectiveInputs;
    }
    return compareQuantized(d_->graph, weights, *program, d_->checks.programWeights(), inputs);
}

void Debugger::clearOverlays() {
    std::lock_guard lock(d_->m);
    d_->overlays.reset(d_->graph.nodes.size());
}

void Debugger::setReference(const ReferenceChoice& choice) {
    d_->checks.setChoice(choice);
    d_->session.reset();
    clearOverlays();
    rebuildChecks();
}

ReferenceChoice Debugger::referenceChoice() const { return d_->checks.choice(); }

void Debugger::setErrorMode(ErrorMode mode) {
    d_->checks.setMode(mode);
    d_->session.reset();
    clearOverlays();
    rebuildChecks();
}

ErrorMode Debugger::errorMode() const { return d_->checks.mode(); }
bool Debugger::checking() const { return d_->checks.active(); }

std::vector<OutputError> Debugger::errorRows(size_t from, uint64_t& epoch) const {
    return d_->checks.rowsFrom(from, epoch);
}

std::string Debugger::referenceFailure() const { return d_->checks.referenceFailure(); }

std::vector<OutputError> Debugger::errorRows() const {
    uint64_t epoch = 0;
    return d_->checks.rowsFrom(0, epoch);
}

void Debugger::setWatch(int64_t node, const WatchCondition& c) { d_->checks.watchpoints().setNode(node, c); }
std::map<int64_t, WatchCondition> Debugger::watches() const { return d_->checks.watchpoints().nodes(); }
void Debugger::setGlobalWatch(const WatchCondition& c) { d_->checks.watchpoints().setGlobal(c); }
WatchCondition Debugger::globalWatch() const { return d_->checks.watchpoints().global(); }

std::vector<double> Debugger::errorOverlay(OverlayKind kind) const {
    const size_t n = d_->graph.nodes.size();
    if (kind == OverlayKind::Imported) {
        std::vector<double> v(n, std::numeric_limits<double>::quiet_NaN());
        std::lock_guard lock(d_->m);
        if (!d_->imported) return v;
        for (const auto& [name, value] : d_->imported->values)
            if (auto i = d_->index().nodeIndex(name)) v[static_cast<size_t>(*i)] = value;
        return v;
    }
    const auto metric = metricOfOverlay(kind);
    if (!metric) return std::vector<double>(n, std::numeric_limits<double>::quiet_NaN());
    return nodeMetricValues(errorRows(), n, *metric);
}

size_t Debugger::importNodeData(const std::string& path) {
    const std::string text = readText(path);
    exporter::NodeData data = exporter::parseNodeData(text, path, nodeDataGraphId(d_->graph));
    size_t found = 0;
    for (const auto& entry : data.values)
        if (d_->index().nodeIndex(entry.first)) ++found;
    if (found == 0 && !data.values.empty())
        throw std::runtime_error(path + ": none of its " + std::to_string(data.values.size()) +
                                 " node names is a node of this graph (first: '" + data.values.front().first + "')");
    std::lock_guard lock(d_->m);
    d_->imported = std::move(data);
    d_->importedPath = path;
    return found;
}

void Debugger::clearNodeData() {
    std::lock_guard lock(d_->m);
    d_->imported.reset();
    d_->importedPath.clear();
}

std::optional<exporter::NodeData> Debugger::importedNodeData() const {
    std::lock_guard lock(d_->m);
    return d_->imported;
}

std::string Debugger::importedNodeDataPath() const {
    std::lock_guard lock(d_->m);
    return d_->importedPath;
}

exporter::NodeData Debugger::nodeData(NodeMetric metric) const {
    const std::vector<double> values = metric == NodeMetric::TimeMs
                                           ? nodeTimesMs(d_->session)
                                           : nodeMetricValues(errorRows(), d_->graph.nodes.size(), metric);
    return nodeMetricData(d_->graph, values, metric, tolerance(), nodeDataGraphId(d_->graph));
}

void Debugger::exportNodeData(const std::string& path, NodeMetric metric) const {
    const exporter::NodeData data = nodeData(metric);
    if (data.values.empty())
        throw std::runtime_error(metric == NodeMetric::TimeMs
                                     ? "no node has run yet: nothing to export"
                                     : "no node has been measured against a reference yet: nothing to export");
    ir::replaceFileContents(path, exporter::nodeDataJson(data));
}

std::string Debugger::expectedOutputsVerdict() const {
    std::lock_guard lock(d_->m);
    if (!d_->checks.runsReference() || !d_->session.finished()) return {};
    const io::TensorMap& expected = d_->sources.file(ValueFile::Expected);
    if (expected.empty()) return {};
    double worst = 0;
    std::string tolerance;
    for (const Comparison& c : compareOutputs(d_->session, expected, d_->tolerance)) {
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

}  // namespace irscope::exec
