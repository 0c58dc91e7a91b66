#pragma once
// Debugger: the one controller interface the GUI's debugger panels talk to
// (RenderDoc's ReplayController). A thin facade over the parts that do the
// work, each in its own file:
//   session.h           the run loop, cursor, breakpoints, states and times
//   value_sources.h     the values the run did not compute, and their origin
//   value_precedence.h  which of them a node reads
//   value_tables.h      the rows of the weights / constants / inputs tables
//   tensor_probes.h     summary, slices, histogram, heatmap of one tensor
//   reference_diff.h    comparison against expected outputs and intermediates
//   node_overlays.h     per-node numbers for the graph's overlays
//   run_checks.h        the reference check and the watchpoints
// and it adds only the locking that lets a panel ask about tensors while a
// run goes on. No torch headers here: widget files include this.
//
// Threading: load/set/run calls are meant for one worker thread; cancel()
// and every const query may come from any thread, also while a step or run is
// going on that worker: a query copies the tensor handle under the session's
// lock (waiting at most for the node being run) or the facade's own lock, and
// computes outside both, so a long query never holds up the run. Values are
// not copied: a tensor stays alive while a query reads it even if the
// retention policy frees it meanwhile. (A node that writes a held tensor in
// place while a query reads it would give that query a torn read, never a
// crash.) Difference slices (block, heatmap, geometry) cut both tensors before
// subtracting; summary / histogram / compare of a Difference read it whole.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/debugger/node_overlays.h"
#include "core/exec/debugger/run_status.h"
#include "core/exec/debugger/subgraph_frames.h"
#include "core/exec/debugger/watchpoints.h"
#include "core/exec/engine/exec_types.h"
#include "core/exec/numerics/error_report.h"
#include "core/exec/numerics/node_metric.h"
#include "core/exec/numerics/probe_types.h"
#include "core/exec/numerics/verify.h"
#include "core/exec/reference/quantization_compare.h"
#include "core/exec/reference/reference_choice.h"
#include "core/exec/reference/reference_diff.h"
#include "core/exec/values/value_rows.h"
#include "core/exec/values/value_text.h"
#include "core/export/node_data.h"
#include "core/io/catalog/read_options.h"
#include "core/ir/graph.h"

namespace irscope::exec {

class Session;

struct NodeInfo {
    NodeState state = NodeState::Pending;
    bool current = false;  // the cursor: the next node to run
    bool breakpoint = false;
    bool needsMissing = false;  // reads a value the pre-flight check found missing
    double seconds = 0;
    size_t outputBytes = 0;  // of its outputs still held
    std::vector<std::string> diagnostics;
    std::string error;  // when failed
    // Computed in float32 for want of a float16 / bfloat16 kernel: libtorch's reason ("" otherwise).
    std::string widened;
    // A higher-order op that ran: the subgraph a cond took, how often a loop ran its body (-1: n/a).
    int32_t takenSubgraph = -1;
    int64_t iterations = -1;
    // How many times each of its subgraphs ran (a while_loop's condition once more than its body).
    std::vector<int64_t> subgraphRuns;
};

class Debugger {
public:
    // `graph` must outlive the debugger.
    explicit Debugger(const ir::Graph& graph, RetentionPolicy policy = RetentionPolicy::KeepAll);
    ~Debugger();
    Debugger(const Debugger&) = delete;
    Debugger& operator=(const Debugger&) = delete;

    const ir::Graph& graph() const;
    Session& session();

    // ---- values in (each resets the run)
    // Throws std::runtime_error with "FILE: reason" on failure.
    // `progress` (optional) hears the share done: 0 to 0.7 while the file is
    // read, when returning false stops the load with io::ReadCancelled and
    // nothing changed; then up to 0.95 while what was read is bound, which
    // cannot be cancelled (its return value is ignored).
    using LoadProgress = std::function<bool(double fraction)>;
    void load(ValueFile kind, const std::string& path, const LoadProgress& progress = {});
    std::string path(ValueFile kind) const;  // "" when none loaded
    void loadWeights(const std::string& p) { load(ValueFile::Weights, p); }
    // Casts the state_dict to the IR's dtypes, now and on later loads (off:
    // the file's own dtypes again); the rows' source says "(cast from …)".
    // Returns how many entries were cast.
    size_t setCastWeights(bool on);
    bool castWeights() const;
    void loadConstants(const std::string& p) { load(ValueFile::Constants, p); }
    void loadInputs(const std::string& p) { load(ValueFile::Inputs, p); }
    void loadExpected(const std::string& p) { load(ValueFile::Expected, p); }
    void loadReferenceIntermediates(const std::string& p) { load(ValueFile::ReferenceIntermediates, p); }
    // Values from a run of another graph (an `irscope run --dump` of the other
    // side of a comparison) as the reference intermediates, renamed to this
    // graph's tensor names: pairs (name in the file, name here), from
    // diff::tensorNamesBToA. Tensors without a pair are left out. Throws like load().
    void loadRenamedReference(const std::string& path, const std::vector<std::pair<std::string, std::string>>& renames);
    std::string weightsPath() const { return path(ValueFile::Weights); }
    std::string constantsPath() const { return path(ValueFile::Constants); }
    std::string inputsPath() const { return path(ValueFile::Inputs); }
    std::string expectedPath() const { return path(ValueFile::Expected); }
    std::string intermediatesPath() const { return path(ValueFile::ReferenceIntermediates); }

    // Typed constant by original name (a placeholder name is accepted too):
    // "[1, 0, 1, 0]" with "float32". Throws std::invalid_argument with the
    // reason (syntax, ragged, unknown dtype). Returns a warning ("" when none),
    // e.g. when the shape differs from the IR's.
    std::string enterConstant(const std::string& name, const std::string& text, const std::string& dtype);
    void clearEnteredConstant(const std::string& name);
    std::vector<std::string> enteredConstants() const;
    // Writes the user-provided constants (file + entered, by original name)
    // as .pt/.safetensors. The IR is never touched.
    void saveConstants(const std::string& path) const;

    // Inputs: a source for every graph input (File only when a file is loaded).
    void setInputSource(const std::string& input, InputSource source);
    void setAllInputSources(InputSource source);
    void setRandomSeed(int64_t seed);
    int64_t randomSeed() const;

    // Every source of values the user chose, and the same choices applied to
    // this debugger (a reloaded document): what fails to apply (a file that is
    // gone, a constant the new IR rejects) is returned as messages, the rest applies.
    ValueSettings settings() const;
    std::vector<std::string> restore(const ValueSettings& settings);

    // ---- tables
    std::vector<WeightRow> weightRows() const;
    std::vector<InputRow> inputRows() const;
    std::vector<MissingRow> missing() const;  // pre-flight

    // ---- run control (worker thread)
    void reset();
    RunStatus step();
    RunStatus runTo(int64_t node);
    RunStatus runToEnd();
    void cancel();  // any thread
    void setBreakpoint(int64_t node, bool on);
    bool hasBreakpoint(int64_t node) const;
    std::vector<int64_t> breakpoints() const;
    void setRetention(RetentionPolicy policy);
    RetentionPolicy retention() const;
    void setPinned(const std::string& tensor, bool pinned);

    // Lock-free progress for a UI timer while a run is going.
    int64_t nodesDone() const;
    int64_t cursor() const;
    int64_t nodeCount() const;
    bool finished() const;
    size_t bytesHeld() const;
    double totalSeconds() const;

    // ---- the quantization debugger (reference/quantization_compare.h)
    // This program against the reference program (ReferenceChoice::Program)
    // on this run's inputs: every paired tensor, what to keep in float
    // (one rerun per activation) and the weights per channel. nullopt when
    // the reference is not a program. Run lane only; takes as long as 2 + N runs.
    std::optional<QuantizationComparison> compareWithProgram() const;

    // ---- inside higher-order ops (subgraph_frames.h): a cond's branch, a loop's body
    // Where the debugger stands inside one, if it does.
    std::optional<SubgraphFrame> frame() const;
    // At a higher-order op: runs it and stands before its first subgraph
    // node (its first call). In a frame, and elsewhere, as step().
    RunStatus stepInto();
    // Leaves the frame: the op has run, the cursor is after it.
    RunStatus stepOut();
    // The iteration selector: call `call` of the op's recorded calls, every
    // value of it shown. Standing in that op it is looked at and the run
    // stays where it stands (SubgraphFrame::viewedCall); else the frame
    // enters it, done. False when there is no such call.
    // `cursor`: where the frame stands in a call it enters (its node count,
    // the default: the call done; inner + 1: just after node `inner`).
    bool selectCall(int64_t node, size_t call, int64_t cursor = INT64_MAX);
    std::vector<SubgraphCallInfo> subgraphCalls(int64_t node) const;
    // Breakpoints on nodes inside subgraphs: Continue and Run To stop there,
    // in the first call that reaches the node, after the op has run.
    void setSubgraphBreakpoint(const SubgraphBreakpoint& b, bool on);
    bool hasSubgraphBreakpoint(const SubgraphBreakpoint& b) const;
    std::vector<SubgraphBreakpoint> subgraphBreakpoints() const;

    NodeInfo nodeInfo(int64_t node) const;
    std::vector<NodeInfo> nodeInfos() const;
    std::optional<NodeError> error() const;

    // ---- tensors by name: node outputs, graph inputs, placeholders / original names
    bool hasValue(const std::string& tensor) const;
    bool hasReference(const std::string& tensor) const;
    // Where a tensor comes from: "node 'mul' output 0", "weight", "input", "" when unknown.
    std::string describe(const std::string& tensor) const;
    std::optional<TensorSummary> summary(const std::string& tensor, ValueSide side = ValueSide::Actual) const;
    std::optional<SliceGeometry> geometry(const std::string& tensor, ValueSide side = ValueSide::Actual) const;
    // Rows [row0, row0+nrows) x cols [col0, col0+ncols) of the slice at `lead`
    // (clamped to the slice), row-major, as doubles (bool as 0/1, complex by magnitude).
    std::vector<double> block(const std::string& tensor, const std::vector<int64_t>& lead, int64_t row0, int64_t col0,
                              int64_t nrows, int64_t ncols, ValueSide side = ValueSide::Actual) const;
    std::optional<Histogram> histogram(const std::string& tensor, int bins, ValueSide side = ValueSide::Actual) const;
    // The slice at `lead`, subsampled so that neither side exceeds maxSide.
    std::optional<Heatmap> heatmap(const std::string& tensor, const std::vector<int64_t>& lead, int64_t maxSide = 512,
                                   ValueSide side = ValueSide::Actual) const;
    // Against the reference, under the current tolerance; `problem` says why not comparable.
    Comparison compare(const std::string& tensor) const;
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
    void setTolerance(Tolerance tolerance);
    Tolerance tolerance() const;
    // One value per node (NaN: nothing to show): seconds, max |x| over its
    // outputs, 1/0 for NaN/Inf present, max abs difference vs the reference.
    std::vector<double> overlay(OverlayKind kind) const;
    // .npy (one tensor), .pt/.pth/.bin or .safetensors by extension. Throws std::runtime_error.
    void exportTensor(const std::string& tensor, const std::string& path, ValueSide side = ValueSide::Actual) const;

    // ---- edit and continue (debugger_override.cpp)
    // Replaces node output `tensor` with another value and continues from
    // there, as a debugger's "set next statement" does for a variable: the
    // run starts over and comes back to where it was (past breakpoints), so
    // every node after the one that made `tensor` sees the new value, and so
    // does every later run until the override is cleared. The value comes
    // from a tensor file (its entry `key`, else the entry named `tensor`,
    // else its only tensor), from the reference's value of `tensor`, or from
    // typed text ("[[1, 2], [3, 4]]", in the output's dtype). Throws
    // std::invalid_argument or std::runtime_error saying what is wrong.
    // Returns how the run stopped.
    RunStatus overrideFromFile(const std::string& tensor, const std::string& path, const std::string& key = {});
    RunStatus overrideFromReference(const std::string& tensor);
    RunStatus overrideFromText(const std::string& tensor, const std::string& text);
    RunStatus clearOverride(const std::string& tensor);
    std::vector<std::string> overriddenTensors() const;

    // ---- numerical checks (debugger_checks.cpp, run_checks.h)
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
    void clearNodeData();
    std::optional<exporter::NodeData> importedNodeData() const;
    std::string importedNodeDataPath() const;
    // One metric per node as node data, keyed by node name (the graph's model
    // name as graph id), with thresholds from the tolerance. Throws std::runtime_error.
    exporter::NodeData nodeData(NodeMetric metric) const;
    void exportNodeData(const std::string& path, NodeMetric metric) const;

    // Cutting a repro is repro's (core/exec/repro/repro_extract.h): it reads
    // this session's run, and runs up to the cut when it must.
    friend struct ReproAccess;

private:
    RunStatus finish(const RunResult& result);
    RunStatus inFrame(StopReason reason, const std::string& how) const;
    RunStatus runWithSubgraphBreakpoints(int64_t last);
    RunStatus continueAfterOverride(int64_t cursor, const std::string& tensor, const std::string& what);
    void valuesChanged();
    void applyConstants();
    void applyInputs();
    std::string typeConstant(const std::string& name, const std::string& text, const std::string& dtype);
    std::vector<double> errorOverlay(OverlayKind kind) const;
    void rebuildChecks();
    void clearOverlays();

    struct Impl;
    std::unique_ptr<Impl> d_;
};

}  // namespace irscope::exec
