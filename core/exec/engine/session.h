#pragma once
// Session: the stepping debugger over an Executor, shared by the GUI and the
// CLI. Reset, step one node, run to a node, run to the end, breakpoints,
// cancel from another thread, per-node state and time, and the retention
// policy with the bytes currently held.
//
// No torch headers here (pimpl): widget files include this. To read a value,
// include <ATen/core/Tensor.h> where needed and call value().
//
// It owns the only run loop in irscope: the Debugger facade, the CLI and the
// tests all run nodes through step/runTo/runToEnd, with an optional hook
// called after each node that ran (statistics for overlays, progress).
//
// Threading: run calls (step/runTo/runToEnd) are meant for one worker
// thread, and the hook runs on it, outside the session's lock; cancel() and
// progress() may be called from any thread without waiting; every other call
// may come from any thread and waits at most for the node being run.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/engine/exec_types.h"
#include "core/io/tensor_stats.h"
#include "core/ir/graph.h"

namespace at {
class Tensor;
}
namespace irscope::io {
class TensorMap;
}

namespace irscope::exec {

class Executor;
class NodeInspector;

class Session {
public:
    // `graph` must outlive the session.
    explicit Session(const ir::Graph& graph, RetentionPolicy policy = RetentionPolicy::KeepAll);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    const ir::Graph& graph() const;

    // Values in. Setting any of them resets the session.
    void setWeights(const io::TensorMap& stateDict);
    void setConstants(const io::TensorMap& constants);
    void setInputs(const io::TensorMap& inputs);
    // Every placeholder or graph input without a value, with the nodes that need it.
    std::vector<MissingValue> preflight() const;

    // Back to the start: every node pending, intermediates dropped.
    void reset();
    // Called on the running thread after each node that ran (not one that failed).
    using NodeHook = std::function<void(int64_t node)>;
    // Runs the node at the cursor.
    RunResult step(const NodeHook& afterNode = {});
    // Runs until `node` has run (stops earlier at a breakpoint, failure or cancel).
    RunResult runTo(int64_t node, const NodeHook& afterNode = {});
    RunResult runToEnd(const NodeHook& afterNode = {});
    // Asks a running call to stop before its next node. Any thread.
    void cancel();

    // Breakpoints stop a run before the node (not when the run starts there).
    void setBreakpoint(int64_t node, bool enabled);
    bool hasBreakpoint(int64_t node) const;
    std::vector<int64_t> breakpoints() const;
    void clearBreakpoints();

    // Inspectors (node_inspector.h) see every node's results as it runs, in
    // this order; one that asks to stop ends the run with
    // StopReason::Watchpoint after that node. A reset resets them.
    void setInspectors(std::vector<std::shared_ptr<NodeInspector>> inspectors);

    int64_t nodeCount() const;
    int64_t cursor() const;  // next node to run; == nodeCount() when finished
    // The cursor without taking the lock: for a UI timer while a node runs.
    int64_t progress() const;
    bool finished() const;
    NodeState state(int64_t node) const;
    double seconds(int64_t node) const;  // wall time of the node's last run
    double totalSeconds() const;         // sum over nodes run since reset
    // Result shape/dtype vs the node's output TensorMeta ("" when they agree).
    std::vector<std::string> diagnostics(int64_t node) const;
    std::optional<NodeError> error() const;  // the failure that stopped the last run
    // Nodes that computed in float32 because this libtorch has no kernel for
    // their float16 / bfloat16 inputs, with libtorch's reason (Executor::widenedNodes).
    std::map<int64_t, std::string> widenedNodes() const;
    std::string widenedReason(int64_t node) const;  // "" when it ran in its own dtype
    // A higher-order op's last run: the subgraph a cond took (its index in
    // OpNode::subgraphs), and how many times a loop, scan or map ran its
    // body; -1 when not that kind of op or not run.
    int32_t takenSubgraph(int64_t node) const;
    int64_t iterations(int64_t node) const;
    // The higher-order op's recorded subgraph calls in the order they ran
    // (Executor::subgraphCalls), how many ran beyond those, and a value of
    // call `call` by the subgraph's tensor name (false: none).
    std::vector<SubgraphCallInfo> subgraphCalls(int64_t node) const;
    int64_t unrecordedCalls(int64_t node) const;
    bool subgraphValue(int64_t node, size_t call, const std::string& tensorName, at::Tensor& out) const;
    // The same for a higher-order op inside subgraph calls: `outer` names
    // the calls, outermost first, and `node` is a node of the innermost
    // one's subgraph (empty `outer`: a node of the program, as above).
    std::vector<SubgraphCallInfo> subgraphCalls(const std::vector<CallStep>& outer, int64_t node) const;
    bool subgraphValue(const std::vector<CallStep>& outer, int64_t node, size_t call, const std::string& tensorName,
                       at::Tensor& out) const;

    // Retention.
    void setRetention(RetentionPolicy policy);
    RetentionPolicy retention() const;
    void setPinned(const std::string& tensorName, bool pinned);
    void setSelected(const std::vector<std::string>& tensorNames);
    size_t bytesHeld() const;

    // Values by tensor name: node outputs, graph inputs, weights/constants by
    // placeholder or original name.
    bool hasValue(const std::string& tensorName) const;
    // Copies the handle (not the data) into `out`; false when there is no value.
    bool value(const std::string& tensorName, at::Tensor& out) const;
    std::optional<io::TensorSummary> summary(const std::string& tensorName) const;
    // Graph outputs by name; false (and `missing` set) when one has no value.
    bool outputs(io::TensorMap& out, std::string* missing = nullptr) const;
    // Every computed node output, by tensor name, in execution order.
    void intermediates(io::TensorMap& out) const;

    // Edit and continue (Executor::setOverride): node output `tensorName` is
    // `value` whenever its node runs, until cleared. Throws
    // std::invalid_argument when the name is not a node output or the value's
    // shape is not the output's; a value of another dtype is cast to the
    // output's. Nothing reruns here (Debugger::overrideValue does that).
    void setOverride(const std::string& tensorName, const at::Tensor& value);
    void clearOverride(const std::string& tensorName);
    std::vector<std::string> overriddenTensors() const;

    // For core code (verify, CLI): the executor underneath.
    Executor& executor();
    const Executor& executor() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

}  // namespace irscope::exec
