#pragma once
// Executor: torch_ir's IRExecutor on libtorch, one node at a time.
//
// It owns the registry (state_dict entries under their keys and their
// placeholders, effective constants under their original names and every
// placeholder mapped to them, graph inputs by name) and the values the nodes
// produce. In-place ops write into the tensors themselves, through views
// into their bases, as eager PyTorch does; what the user sees of a node is
// its value as produced, and the user's own tensors are never written
// (alias_classes.h says how both are kept).
// Session (session.h) adds the cursor, states, timings and breakpoints.
//
// Its loop reads the flat ExecutionPlan, not the graph: the OpNode is
// touched only to bind a node on its first run and to word an error.
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/util/SmallVector.h>

#include "core/exec/engine/alias_classes.h"
#include "core/exec/engine/exec_types.h"
#include "core/exec/engine/execution_plan.h"
#include "core/exec/engine/node_inspector.h"
#include "core/exec/engine/op_binding.h"
#include "core/io/tensor_map.h"
#include "core/ir/graph.h"
#include "core/ir/graph_index.h"

namespace irscope::exec {

// Whether libtorch's message says it has no kernel for float16 or bfloat16 (widened_run.cpp).
bool lacksReducedPrecisionKernel(const std::string& why);

// Converts an IR constant (packed little-endian bytes) to a tensor; throws
// ExecError when the constant is unusable.
at::Tensor constantToTensor(const std::string& name, const ir::ConstantValue& value);

// What the run loop reads of a node bound to a typed call (unboxed_call.h):
// 32 bytes in one array, so that the BoundOp itself stays out of the cache.
struct FastCall {
    UnboxedCall::Fn fn = nullptr;  // null: the node takes Executor::runGeneral
    const void* handle = nullptr;
    const ArgSlot* slots = nullptr;
    const int64_t* ints = nullptr;
};

class Executor {
public:
    // `graph` must outlive the executor.
    explicit Executor(const ir::Graph& graph);

    const ir::Graph& graph() const { return graph_; }
    const ir::GraphIndex& index() const { return index_; }

    // Replace the tensors of that kind and rebuild the registry. Inputs are
    // matched to graph inputs by name. Tensors handed in are never modified.
    void setWeights(const io::TensorMap& stateDict);
    void setConstants(const io::TensorMap& constants);  // by original name; override the IR's
    void setInputs(const io::TensorMap& inputs);
    // On (the default), a weight or constant whose dtype is not the IR's
    // counts as missing (MissingValue::wrongDtype). A reference run that
    // casts everything to float64 on purpose turns it off.
    void setDtypeCheck(bool on);

    // Casts each node's floating inputs before it runs, for a reference run in
    // another dtype (engine/autocast_run.cpp). `everyOp` (float64, float32):
    // the weights and inputs are cast by the caller, and every floating result
    // a node makes anew (not a view or an in-place write) is cast to `dtype`
    // right after it, so that tensors made inside the graph follow. Otherwise (float16, bfloat16) as torch.autocast
    // does on the CPU (engine/autocast_rules.h), and an op that fails in the
    // reduced dtype (no kernel for it in this libtorch, a dtype clash) runs
    // again with its floating inputs in float32. Written inputs of in-place ops
    // are never cast. Off by default: the run is the user's graph as it is.
    struct Autocast {
        at::ScalarType dtype;
        bool everyOp = false;
    };
    void setAutocast(std::optional<Autocast> autocast) { autocast_ = autocast; }
    // Edit and continue: output `output` of `node` is `value` from now on,
    // whatever the node computes (applied each time the node runs, before
    // inspectors see it), until cleared. Nothing is rerun here: the caller
    // (Debugger::overrideValue) runs again what depends on it.
    void setOverride(int64_t node, size_t output, at::Tensor value);
    void clearOverride(int64_t node, size_t output);
    void clearOverrides() { overrides_.clear(); }
    bool isOverridden(int64_t node, size_t output) const;
    // The nodes that computed in float32 because this libtorch has no kernel
    // for their float16 / bfloat16 inputs (widened_run.cpp), with libtorch's
    // reason; cleared by reset().
    const std::map<int64_t, std::string>& widenedNodes() const { return fallbacks_; }
    // Higher-order ops that ran (higher_order_run.cpp), cleared by reset():
    // the branch a cond took (0: true_graph, 1: false_graph), and how many
    // times a loop, scan or map ran its body.
    const std::map<int64_t, size_t>& takenBranches() const { return takenBranches_; }
    const std::map<int64_t, int64_t>& iterations() const { return iterations_; }
    // Every run of a higher-order op's subgraph, in the order they ran: the
    // subgraph, which of its calls it was, what the higher-order ops inside
    // it did (their own calls, to any depth), and, where the run keeps
    // values (RetentionPolicy::KeepAll, the debugger's default; `irscope
    // run` only when it dumps or stops inside), the values the call computed
    // (its inputs and its nodes' outputs, by the subgraph's tensor names).
    // What the debugger steps through and `run` reports (ir/execution_position.h
    // names a place in it). The first kRecordedCalls calls of a node per run
    // of its graph are kept, values up to kRecordedBytes: a long loop over
    // big tensors is not held whole. Cleared by reset().
    struct SubgraphCall {
        size_t subgraph = 0;    // index in OpNode::subgraphs
        int64_t iteration = 0;  // how many calls of that subgraph came before, in this run of the node
        std::unordered_map<std::string, at::Tensor> values;
        // The higher-order ops of the subgraph, by node index there.
        std::map<int64_t, std::vector<SubgraphCall>> inner;
        std::map<int64_t, size_t> branches;     // a cond's taken branch
        std::map<int64_t, int64_t> iterations;  // a loop's, scan's or map's body calls
        std::map<int64_t, int64_t> unrecorded;  // calls beyond the recorded ones
    };
    static constexpr size_t kRecordedCalls = 1024;
    static constexpr size_t kRecordedBytes = size_t(512) << 20;
    // The node's recorded calls (nullptr: none), and how many calls ran beyond them.
    const std::vector<SubgraphCall>* subgraphCalls(int64_t node) const;
    // Of a higher-order op inside recorded calls (`outer`, outermost first;
    // `node` a node of the innermost call's subgraph); nullptr: none recorded.
    const std::vector<SubgraphCall>* subgraphCalls(const std::vector<CallStep>& outer, int64_t node) const;
    int64_t unrecordedCalls(int64_t node) const;
    const std::map<int64_t, std::vector<SubgraphCall>>& allSubgraphCalls() const { return calls_; }
    // Keep the values of subgraph calls whatever this executor's retention
    // (a subgraph's executor records as the one that owns it); unset: only
    // under KeepAll (`run --dump` and `--until` run KeepAll).
    void setRecordCallValues(std::optional<bool> on) { recordCallValues_ = on; }
    bool recordsCallValues() const { return recordCallValues_.value_or(policy_ == RetentionPolicy::KeepAll); }

    // Every placeholder or graph input without a value, with the nodes that need it.
    std::vector<MissingValue> preflight() const;
    // What kind of value `name` is (input, parameter, buffer, constant), for a missing-value report.
    MissingValue describeMissing(const std::string& name) const;

    // Drops every computed value.
    void reset();

    // Binds every node not bound yet, so that a run's values do not
    // interleave with the bound ops on the heap (which made the allocator
    // search its bins on every node). A node that fails to bind is left
    // for runNode, which reports it when the node's turn comes.
    void bindAll();

    // Runs node `i` (its inputs must have been computed). Throws ExecError
    // naming the node, its op and the reason. `diagnostics` gets the
    // differences between the results and the node's output TensorMeta
    // (empty when they agree). Returns true when an inspector asked to stop.
    bool runNode(int64_t i, std::vector<std::string>& diagnostics);

    // Inspectors see each node's results before anything is freed, in the
    // order given (node_inspector.h). Not owned; null entries are skipped.
    void setInspectors(std::vector<NodeInspector*> inspectors) { inspectors_ = std::move(inspectors); }

    // Values.
    // The node's results as the IR lists its outputs, each as the node
    // produced it (a later in-place write does not show); a freed one is
    // undefined; empty when it has not run since the last reset.
    c10::SmallVector<at::Tensor, 4> outputsOf(int64_t node) const;
    // A node output as produced, graph input or registry entry by tensor
    // name; undefined when none.
    at::Tensor valueOf(const std::string& tensorName) const;
    bool hasValue(const std::string& tensorName) const { return valueOf(tensorName).defined(); }
    // True when output `output` of `node` was memory nobody had written yet
    // when the node ran (empty, new_empty and views of them before a write;
    // alias_classes.h): there is nothing to compare it with.
    bool producedUninitialized(int64_t node, size_t output) const;
    // Graph outputs by name, in order, as the graph returns them (after every
    // write, as eager PyTorch's would be); `missing` gets the first one without a value.
    bool graphOutputs(io::TensorMap& out, std::string* missing = nullptr) const;

    // Retention.
    void setRetention(RetentionPolicy policy) { policy_ = policy; }
    RetentionPolicy retention() const { return policy_; }
    void setPinned(const std::string& tensorName, bool pinned);
    void setSelected(const std::vector<std::string>& tensorNames);
    // Bytes of the distinct storages held by computed values (not weights or inputs).
    size_t bytesHeld() const;

private:
    const at::Tensor& resolve(int64_t node, uint32_t input) const;
    [[noreturn]] void throwUnavailable(int64_t node, uint32_t input) const;
    void runGeneral(int64_t node, std::vector<std::string>& diagnostics);
    void runAutocast(int64_t node, std::vector<std::string>& diagnostics);
    // higher_order_run.cpp: a node that owns subgraphs (cond, loops, regions).
    void runHigherOrder(int64_t node);
    std::vector<at::Tensor> runSubgraph(int64_t node, size_t which, const std::vector<at::Tensor>& operands);
    void recordCall(int64_t node, size_t which, Executor& nested);
    // widened_run.cpp: rerun a node that failed for want of a reduced-precision kernel.
    void runWidened(int64_t node, std::vector<std::string>& diagnostics, std::exception_ptr failure,
                    at::ScalarType fallbackType);
    bool castInputs(int64_t node, const BoundOp& op, at::ScalarType target, bool lowerPrecision);
    void restoreCastInputs();
    bool aliasesAnInput(int64_t node, const at::Tensor& t) const;
    void applyOverrides(const ExecutionPlan::Step& step);
    void runOverridden(int64_t node, std::vector<std::string>& diagnostics);
    BoundOp* bind(int64_t node);
    void runGetitem(int64_t node);
    void snapshotBeforeWrite(int64_t node, const BoundOp& op);
    bool guardInspected(const ExecutionPlan::Step& step, uint32_t count);
    void freshenWrittenRoots();
    static at::Tensor asParameter(const at::Tensor& t);
    const at::Tensor& shown(size_t slot) const;
    void callBoxed(int64_t node, const BoundOp& op);
    [[noreturn]] void failNode(int64_t node, const std::string& why);
    void reportIgnoredAttrs(int64_t node, const BoundOp& op, std::vector<std::string>& diagnostics) const;
    void reportMismatch(int64_t node, uint32_t output, std::vector<std::string>& diagnostics) const;
    void reportShortResult(int64_t node, std::vector<std::string>& diagnostics) const;
    void rebuildRegistry();
    void refreshProtected();
    void releaseAfter(int64_t node);

    const ir::Graph& graph_;
    ir::GraphIndex index_;
    ExecutionPlan plan_;
    std::vector<std::unique_ptr<BoundOp>> bound_;  // bound before the first run (bindAll) or on demand
    std::vector<FastCall> fast_;                   // per node; points into bound_ or fastSlots_
    std::vector<ArgSlot> fastSlots_;               // the fast nodes' slots in node order (bindAll)

    io::TensorMap weights_, constants_, inputs_;
    std::unordered_map<std::string, at::Tensor> registry_;
    // Every value by slot (execution_plan.h): graph inputs, the registry
    // entries the nodes read, node outputs.
    std::vector<at::Tensor> values_;
    std::vector<int8_t> registryDtype_;  // per registry slot: the IR's c10::ScalarType, -1 when unknown
    bool checkDtypes_ = true;
    std::vector<int32_t> resultCount_;  // per node: tensors its op returned; -1 until it runs
    std::vector<uint8_t> protected_;    // per slot: graph output / pinned / selected

    // Aliasing (alias_classes.h), known once every node is bound (bindAll).
    bool aliasesKnown_ = false;
    AliasClasses aliases_;
    std::vector<at::Tensor> rootOriginals_;  // per aliases_.writtenRoots: the user's tensor, copied per run
    // Per slot, once an in-place write changed it: its value as produced
    // (empty until the first snapshot of a run).
    std::vector<at::Tensor> shown_;

    RetentionPolicy policy_ = RetentionPolicy::KeepAll;
    std::set<std::string> pinned_, selected_;

    // Scratch reused across nodes (no allocation per node in steady state);
    // inputScratch_ is sized once for the node with the most inputs.
    std::vector<const at::Tensor*> inputScratch_;
    std::vector<at::Tensor> resultScratch_;
    std::vector<at::Tensor> inspected_, inspectedGiven_;  // guardInspected: what inspectors get, and what they got
    torch::jit::Stack stack_;
    std::vector<NodeInspector*> inspectors_;

    std::optional<Autocast> autocast_;
    std::vector<std::pair<int32_t, at::Tensor>> castSaved_;  // slot, its value before castInputs
    std::map<int64_t, std::string> fallbacks_;
    std::map<std::string, std::string> refusedInputs_;  // input -> why a dynamic-shape program refuses it
    // One executor per (node, subgraph), kept across runs: a loop reruns it.
    std::map<std::pair<int64_t, size_t>, std::unique_ptr<Executor>> subgraphExecutors_;
    std::map<int64_t, size_t> takenBranches_;
    std::map<int64_t, int64_t> iterations_;
    std::map<int64_t, std::vector<SubgraphCall>> calls_;
    std::map<int64_t, int64_t> unrecordedCalls_;
    std::map<int64_t, size_t> recordedBytes_;
    std::optional<bool> recordCallValues_;
    std::unordered_map<uint32_t, at::Tensor> overrides_;  // by value slot (setOverride)
};

}  // namespace irscope::exec
