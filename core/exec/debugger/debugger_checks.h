#pragma once
// DebuggerChecks: the Debugger's part for measuring a run: what it is
// measured against (reference files, a second run, another program), the
// tolerance, local or cumulative error, the rows measured so far, the first
// divergence, watchpoints, the overlays by metric, and node data in and out.
// No torch headers.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/debugger/node_overlays.h"
#include "core/exec/debugger/watchpoints.h"
#include "core/exec/numerics/error_report.h"
#include "core/exec/numerics/node_metric.h"
#include "core/exec/numerics/verify.h"
#include "core/exec/reference/quantization_compare.h"
#include "core/exec/reference/reference_choice.h"
#include "core/exec/reference/reference_diff.h"
#include "core/export/node_data.h"

namespace irscope::exec {

struct DebuggerCore;

class DebuggerChecks {
public:
    explicit DebuggerChecks(DebuggerCore& core) : core_(core) {}

    // What the run is measured against, node by node, as it runs: the
    // reference files (the default), or a second run with other weights or
    // in another dtype (its weights file is read now; the run starts over).
    // Throws std::runtime_error naming the file or the dtype.
    void setReference(const ReferenceChoice& choice);
    ReferenceChoice referenceChoice() const;
    // Cumulative (each node on the run's own inputs) or local (each node on
    // the reference's inputs: only a node wrong by itself fails). Resets the run.
    void setErrorMode(ErrorMode mode);
    ErrorMode errorMode() const;
    void setTolerance(Tolerance tolerance);
    Tolerance tolerance() const;
    // True while a reference is there to measure against.
    bool checking() const;
    // The rows measured so far, from row `from` on. `epoch`: in, the epoch of
    // the rows the caller holds; out, the current one. When they differ the
    // measurement started over (a reset, another reference or tolerance) and
    // the rows returned start from 0 whatever `from` was. Any thread.
    std::vector<OutputError> errorRows(size_t from, uint64_t& epoch) const;
    std::vector<OutputError> errorRows() const;
    // Why the reference stopped being compared (a second run that failed at
    // a node); "" while it works. The run itself is not failed by it.
    std::string referenceFailure() const;

    // Over the computed nodes, against the reference intermediates (or, for
    // graph outputs, the expected outputs). `explain`: also say what kind of
    // difference it is (divergence_kind.h), which reruns the program up to
    // the node and once in float64: for an answer the user asked for.
    DivergenceInfo firstDivergence(bool explain = false) const;
    // When the reference is a second run (other weights, another dtype) and
    // expected outputs are loaded too: the finished run's outputs against
    // the expected ones, as `irscope run --expected` judges them ("outputs
    // match the expected outputs (...)" / "output 'y' differs from the
    // expected outputs (...)"). The second run measures how far another
    // precision or other weights move the numbers; the expected outputs say
    // whether this run is right. Empty otherwise, or before the end.
    std::string expectedOutputsVerdict() const;
    // The quantization debugger (reference/quantization_compare.h): this
    // program against the reference program (ReferenceChoice::Program) on
    // this run's inputs: every paired tensor, what to keep in float (one
    // rerun per activation) and the weights per channel. nullopt when the
    // reference is not a program. Run lane only; takes as long as 2 + N runs.
    std::optional<QuantizationComparison> compareWithProgram() const;

    // One value per node (NaN: nothing to show): seconds, max |x| over its
    // outputs, 1/0 for NaN/Inf present, max abs difference vs the reference.
    std::vector<double> overlay(OverlayKind kind) const;

    // Watchpoints: stop after a node whose output has NaN / Inf / max |x|
    // above a limit / fails the reference check. Any thread, also during a run.
    void setWatch(int64_t node, const WatchCondition& condition);  // an empty condition removes it
    std::map<int64_t, WatchCondition> watches() const;
    void setGlobalWatch(const WatchCondition& condition);
    WatchCondition globalWatch() const;

    // Model Explorer node data (core/export/node_data.h) as OverlayKind::Imported:
    // values by node name. Returns how many of the file's nodes are in this
    // graph. Throws std::runtime_error naming the file, the place and the reason.
    size_t importNodeData(const std::string& path);
    // check-dump on this run's values (the weights, constants and inputs
    // loaded): a backend's dump judged group by group, each on the backend's
    // own inputs (reference/dump_check.h). `moduleNodes` gives a module path's
    // nodes (nullopt: no such module). The report as JSON, the shape
    // `irscope check-dump --report` writes. Throws naming the file and the
    // reason.
    // `programPath` names the program in the report.
    std::string checkDump(const std::string& programPath, const std::string& dumpPath, const std::string& groupsPath,
                          const std::function<std::optional<std::vector<int64_t>>(const std::string&)>& moduleNodes);
    void clearNodeData();
    std::optional<exporter::NodeData> importedNodeData() const;
    std::string importedNodeDataPath() const;
    // One metric per node as node data, keyed by node name (the graph's model
    // name as graph id), with thresholds from the tolerance. Throws std::runtime_error.
    exporter::NodeData nodeData(NodeMetric metric) const;
    void exportNodeData(const std::string& path, NodeMetric metric) const;

private:
    std::vector<double> errorOverlay(OverlayKind kind) const;

    DebuggerCore& core_;
};

}  // namespace irscope::exec
