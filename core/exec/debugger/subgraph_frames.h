#pragma once
// Stepping into a higher-order op (torch.cond's branch, a while_loop's body,
// scan, map, an autocast region) as a debugger steps into a call, to any
// depth: a cond inside a loop's body is a call inside a call.
//
// The op runs whole, as PyTorch runs it, and the executor records every call
// of its subgraphs, and of the higher-order ops inside them, with the values
// each computed (Executor::SubgraphCall). A frame is a position in those
// recordings: which call (a branch, one iteration of a body) and the
// subgraph's next node. The frames form a stack, outermost first, each inner
// frame's op a node of the subgraph the frame below it stands in. Stepping
// moves through the recording, RenderDoc-style: the values are the run's own,
// revealed node by node (a node after the frame's cursor shows no value yet),
// and a breakpoint on a node inside a subgraph, at any depth, stops there in
// each call that reaches it. Any call can be looked at (the iteration
// selector) without moving where the run stands.
//
// A subgraph is named by its path from the program, "op/subgraph" steps
// ("while_loop/while_loop_body_graph_0/cond/true_graph_0"), the way the
// drawing names the subgraph an item is drawn in; a value inside one is its
// path and the tensor's name ("while_loop/while_loop_body_graph_0/add"): '/'
// never occurs in an FX name, so the names never clash with the graph's own.
#include <compare>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/exec/engine/exec_types.h"
#include "core/ir/execution_position.h"
#include "core/ir/graph.h"

namespace at {
class Tensor;
}

namespace irscope::exec {

class Session;

struct SubgraphFrame {
    int64_t node = -1;           // the higher-order op, a node of the graph `where` names
    std::string where;           // that graph: "" the program, else the subgraph path the frame below stands in
    std::string path;            // the subgraph this frame stands in: where, the op and the subgraph taken
    size_t call = 0;             // which of its recorded calls (in the call the frame below stands in)
    size_t calls = 0;            // how many it has
    int32_t subgraph = 0;        // the call's subgraph (index in OpNode::subgraphs)
    int64_t iteration = 0;       // the call's iteration of that subgraph
    int64_t iterationsOfIt = 0;  // recorded calls of that subgraph
    int64_t cursor = 0;          // the subgraph's next node; its node count once the call is done
    // Per subgraph of the op, its calls made before this one: what has run
    // so far where the debugger stands (a loop's body before its condition's
    // first call: none, so its nodes have no value yet).
    std::vector<int64_t> callsBefore;
    // Per subgraph of the op, its path (`path` is one of them).
    std::vector<std::string> subgraphPaths;
    // Whether the op calls its subgraphs again and again (a loop, scan or
    // map), or one of them once (a cond: the others are not taken).
    bool repeats = false;
    // A call chosen to look at (the Iteration selector), not where the run
    // stands: its values are shown whole; any step comes back to the
    // frame's own call. Unset: looking where the run stands.
    std::optional<size_t> viewedCall;
    int32_t viewedSubgraph = -1;
    int64_t viewedIteration = -1;
    bool operator==(const SubgraphFrame&) const = default;
};

// A breakpoint on a node inside a subgraph, at any depth.
struct SubgraphBreakpoint {
    std::string subgraph;  // the subgraph's path ("while_loop/while_loop_body_graph_0")
    int64_t inner = 0;     // node index in that subgraph
    auto operator<=>(const SubgraphBreakpoint&) const = default;
};

class SubgraphFrames {
public:
    explicit SubgraphFrames(const ir::Graph& graph);

    // The innermost frame, if the debugger stands inside an op.
    std::optional<SubgraphFrame> frame() const;
    // Every frame, outermost first (empty: standing in the program).
    std::vector<SubgraphFrame> stack() const;
    // Enters recorded call `call` of the program's op `node` before its
    // subgraph node `cursor` (its node count: the call is done, every value
    // shown); the stack becomes that one frame. False, and nothing changes,
    // when there is no such call.
    bool enter(const Session& session, int64_t node, size_t call, int64_t cursor = 0);
    // Enters the higher-order op the innermost frame stands before: its
    // first call, before its first node; the frame below stands after the op
    // (it has run). False, and nothing changes, when there is none.
    bool enterInner(const Session& session);
    // Stands just after `node` of the innermost subgraph of a resolved
    // position (ir/execution_position.h), inside the calls its steps name
    // (a step's call 0: the first call of its subgraph), at any depth; the
    // position's top-level op must have run. False, and nothing changes,
    // when the run made no such call.
    bool enterPosition(const Session& session, const ir::ResolvedPosition& position);
    // Leaves the innermost frame (the op it is in has run); leaveAll: every frame.
    void leave();
    void leaveAll();
    // Looks at recorded call `call` of the innermost frame's op without
    // moving the frame (its own call: back to looking where it stands).
    // False when there is no frame or no such call.
    bool view(const Session& session, size_t call);
    // Looks at call `call` of the op of frame `level` (0: outermost): the
    // frames inside it are left. False when there is no such frame or call.
    bool viewAt(const Session& session, size_t level, size_t call);
    // One subgraph node on in the innermost frame; past a call's last node
    // the next call starts; past the last call the frame is left and the
    // one below stands after its op (false: no frame is left).
    bool step(const Session& session);
    // Moves to the next subgraph breakpoint, at any depth, inside the
    // program's op `node`: after the current position when the frames are
    // in `node`, else from its first call. True: the frames stand before
    // that node; false: none left (every frame is left).
    bool runToBreakpoint(const Session& session, int64_t node);

    // The recorded calls of the innermost frame's op (in the call the frame
    // below stands in); empty without a frame.
    std::vector<SubgraphCallInfo> innermostCalls(const Session& session) const;
    // How many calls of each subgraph, by path, have run where the debugger
    // stands: every recorded call of the ops that ran, and inside the call
    // a frame stands in, those of the ops before its cursor only (a cond
    // inside a loop's body reads "taken" once it ran in this iteration).
    std::map<std::string, int64_t> callCounts(const Session& session) const;

    void setBreakpoint(const SubgraphBreakpoint& b, bool on);
    bool hasBreakpoint(const SubgraphBreakpoint& b) const;
    std::vector<SubgraphBreakpoint> breakpoints() const;
    // Whether any breakpoint lies inside the program's op `node`, at any depth.
    bool hasBreakpointsIn(int64_t node) const;

    // "op/subgraph" under `where` ("" the program).
    static std::string subgraphPath(const std::string& where, const std::string& op, const std::string& subgraph);
    static std::string qualifiedName(const std::string& subgraphPath, const std::string& tensor);
    static std::string qualifiedName(const std::string& node, const std::string& subgraph, const std::string& tensor);
    static bool isQualified(const std::string& name) { return name.find('/') != std::string::npos; }
    // The value of a qualified name where the debugger stands. At each level
    // of the name's path: the call a frame stands in (or looks at); a
    // subgraph of a frame's op that is not the frame's own, its last call
    // before the frame's; a level below the frames, its op's last recorded
    // call. A node the frames have not reached has no value yet. False when
    // there is none.
    bool value(const Session& session, const std::string& qualified, at::Tensor& out) const;
    // A subgraph path against the program: each level's op, a node of the
    // graph above it, and subgraph; the innermost subgraph's graph.
    struct PathStep {
        int64_t node = -1;
        int32_t subgraph = -1;
        std::string path;  // the subgraph's path, up to and including this step
    };
    struct ResolvedPath {
        std::vector<PathStep> steps;
        const ir::Graph* graph = nullptr;
    };
    std::optional<ResolvedPath> resolvePath(const std::string& subgraphPath) const;
    // A qualified name: its subgraph path, resolved, and the tensor's
    // producer in the innermost subgraph (-1: an input of the subgraph).
    struct Resolved {
        ResolvedPath path;
        std::string tensor;
        int64_t producer = -1;
    };
    std::optional<Resolved> resolve(const std::string& qualified) const;

private:
    std::optional<SubgraphFrame> makeFrame(const Session& session, const std::vector<CallStep>& outer,
                                           const ir::Graph& in, const std::string& where, int64_t node, size_t call,
                                           int64_t cursor) const;
    std::vector<CallStep> outerOf(size_t level) const;       // the calls frames [0, level) stand in
    const ir::Graph* graphOf(const SubgraphFrame& f) const;  // the graph its op is a node of
    static int64_t subgraphSize(const ir::Graph& in, int64_t node, int32_t subgraph);
    // Depth-first through the recorded calls of op `node` (of graph `in`),
    // from call `startCall` and node `from` on: the frames down to the first
    // node with a breakpoint, appended to `stack`.
    bool findBreakpoint(const Session& session, std::vector<SubgraphFrame>& stack, const ir::Graph& in,
                        const std::string& where, int64_t node, size_t startCall, int64_t from) const;

    void countCalls(const Session& session, std::vector<CallStep>& outer, const ir::Graph& in, const std::string& where,
                    int64_t node, size_t level, std::map<std::string, int64_t>& out) const;

    const ir::Graph& graph_;
    std::map<std::string, int64_t> opsWithSubgraphs_;  // by node name
    mutable std::mutex m_;
    std::vector<SubgraphFrame> stack_;
    std::set<SubgraphBreakpoint> breakpoints_;
};

}  // namespace irscope::exec
