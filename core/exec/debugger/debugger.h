#pragma once
// Debugger: the one controller interface the GUI's debugger panels talk to
// (RenderDoc's ReplayController). It runs the program; its parts
// (debugger_values.h, debugger_checks.h, debugger_frames.h, debugger_tensors.h,
// debugger_overrides.h) each hold one responsibility over the same run, and
// each window part wraps one of them. Under them, the core pieces:
//   session.h           the run loop, cursor, breakpoints, states and times
//   value_sources.h     the values the run did not compute, and their origin
//   value_precedence.h  which of them a node reads
//   value_tables.h      the rows of the weights / constants / inputs tables
//   tensor_probes.h     summary, slices, histogram, heatmap of one tensor
//   reference_diff.h    comparison against expected outputs and intermediates
//   node_overlays.h     per-node numbers for the graph's overlays
//   run_checks.h        the reference check and the watchpoints
// and the parts add only the locking that lets a panel ask about tensors while a
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

#include "core/exec/debugger/debugger_checks.h"
#include "core/exec/debugger/debugger_frames.h"
#include "core/exec/debugger/debugger_overrides.h"
#include "core/exec/debugger/debugger_tensors.h"
#include "core/exec/debugger/debugger_values.h"
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
struct DebuggerCore;  // debugger_impl.h: what the parts share (torch headers)

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

    // ---- the parts, one responsibility each, over the same run
    DebuggerValues& values();  // what the run reads (each change resets the run)
    const DebuggerValues& values() const;
    DebuggerChecks& checks();  // what it is measured against, and how far off it is
    const DebuggerChecks& checks() const;
    DebuggerFrames& frames();  // standing inside a higher-order op
    const DebuggerFrames& frames() const;
    const DebuggerTensors& tensors() const;  // one tensor by name
    DebuggerOverrides& overrides();          // edit and continue
    const DebuggerOverrides& overrides() const;

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

    NodeInfo nodeInfo(int64_t node) const;
    std::vector<NodeInfo> nodeInfos() const;
    std::optional<NodeError> error() const;

private:
    std::unique_ptr<DebuggerCore> core_;
    DebuggerValues values_;
    DebuggerChecks checks_;
    DebuggerFrames frames_;
    DebuggerTensors tensors_;
    DebuggerOverrides overrides_;
};

}  // namespace irscope::exec
