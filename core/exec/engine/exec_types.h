#pragma once
// Plain types shared by the executor, the session and their users (GUI, CLI).
// No torch headers here: widget files include this.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace irscope::exec {

enum class RetentionPolicy {
    KeepAll,           // every intermediate stays inspectable
    FreeAfterLastUse,  // free a value after its last consumer, except graph outputs, pinned and selected
};

enum class NodeState { Pending, Done, Failed };
const char* nodeStateName(NodeState state);  // "pending", "done", "failed"

// A placeholder or graph input that has no value (pre-flight).
struct MissingValue {
    std::string name;                // as the nodes use it: "c_mask", "x"
    std::string originalName;        // "mask" for a placeholder, "" for a graph input
    std::string kind;                // "input", "parameter", "buffer", "constant", "weight"
    std::vector<std::string> nodes;  // nodes that need it, in order
    // Set when a value is there but in another dtype than the IR's (a
    // bfloat16 checkpoint for a float32 IR): the ops would fail or compute
    // in the wrong precision, so it counts as not supplied.
    std::string haveDtype, irDtype;  // "bfloat16", "float32"
    // A "value" nothing supplies because the input reading it names a producer
    // that is neither a node nor a graph input: that name ('nowhere'). The IR
    // is broken there; no file can help.
    std::string namedProducer;
    // A value the loaded file holds but irscope cannot read (a .pt2 weight
    // stored pickled, as torchao's quantized tensor subclasses are): the
    // file and the reason.
    std::string unreadable;
    // Set when an input is there but does not fit a dynamic-shape program
    // (ir/symbol_ranges.h): why, naming the symbol and its range.
    std::string refusal;
    bool wrongDtype() const { return !haveDtype.empty(); }
};
// "c_mask (constant 'mask'), needed by: mul";
// "p_w (parameter 'w'): bfloat16, the IR says float32, needed by: linear".
// The first kListedConsumers nodes are named, then how many more: a causal
// mask read by every attention of a 100k-node LLM is one line, not 16,000
// names (a list row of them took 34 ms to lay out and paint).
constexpr size_t kListedConsumers = 8;
std::string formatMissingValue(const MissingValue& missing);
// Why a node cannot run for want of `missing`, in torch_ir's words for a
// value that is not there and in ours for one of the wrong dtype.
std::string missingValueMessage(const MissingValue& missing, const std::string& node);

struct NodeError {
    int64_t node = -1;
    std::string nodeName, opType;
    std::string message;  // the reason: libtorch's message, or torch_ir's "Weight/input ... not found ..."
    // A runtime check of the program's own failed (runtime_checks.h): the
    // program refuses its input; `message` is the check's own words and the
    // values that broke it.
    bool refusedInput = false;
};
// torch_ir's words for a missing value (docs/ir-format.md §5.1): "Weight/input 'c_mask'
// not found in registry for node 'mul'." The CLI keeps them; the window says it its way.
std::string torchIrMissingMessage(const std::string& name, const std::string& node);

// One recorded run of a higher-order op's subgraph (Executor::subgraphCalls).
struct SubgraphCallInfo {
    int32_t subgraph = 0;   // index in OpNode::subgraphs
    int64_t iteration = 0;  // calls of that subgraph before it, in the node's run
};

// One call on the way down to a nested higher-order op: an op (a node of the
// graph the step before it names, the program for the first) and which of
// its recorded calls. A list of them, outermost first, names the subgraph
// call whose ops and values are meant.
struct CallStep {
    int64_t node = -1;
    size_t call = 0;
    bool operator==(const CallStep&) const = default;
};

enum class StopReason {
    Finished,       // every node ran
    Stepped,        // step(): one node ran
    ReachedTarget,  // runTo(): the target node ran
    Breakpoint,     // stopped before a node with a breakpoint
    Failed,         // a node failed; error() says which
    Cancelled,      // cancel() was called
    Watchpoint,     // an inspector (a watchpoint) asked to stop after the node that ran last
    MissingValue,   // stopped before the node at the cursor: an input of it has no value (RunResult::missing)
};
const char* stopReasonName(StopReason reason);

struct RunResult {
    StopReason reason = StopReason::Finished;
    int64_t lastNode = -1;  // last node that ran (or failed)
    std::optional<NodeError> error;
    std::string watch;  // StopReason::Watchpoint: which watchpoint fired and why
    // StopReason::MissingValue: the value to supply (nodes: the node stopped before).
    std::optional<MissingValue> missing;
};

}  // namespace irscope::exec
