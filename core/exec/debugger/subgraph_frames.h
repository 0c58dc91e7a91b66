#pragma once
// Stepping into a higher-order op (torch.cond's branch, a while_loop's body,
// scan, map, an autocast region) as a debugger steps into a call.
//
// The op runs whole, as PyTorch runs it, and the executor records every call
// of its subgraphs with the values each computed (Executor::subgraphCalls).
// A frame is a position in those recordings: which call (a branch, one
// iteration of a body) and the subgraph's next node. Stepping moves through
// the recording, RenderDoc-style: the values are the run's own, revealed
// node by node (a node after the frame's cursor shows no value yet), and a
// breakpoint on a node inside a subgraph stops there in the first call that
// reaches it. Any call can be chosen (the iteration selector).
//
// A subgraph's values are named "<op node>/<subgraph>/<tensor>"
// ("while_loop/body_graph_0/add"): '/' never occurs in an FX name, so the
// names never clash with the graph's own.
#include <compare>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace at {
class Tensor;
}

namespace irscope::exec {

class Session;

struct SubgraphFrame {
    int64_t node = -1;           // the higher-order op, a node of the graph
    size_t call = 0;             // which of its recorded calls (Session::subgraphCalls)
    size_t calls = 0;            // how many it has
    int32_t subgraph = 0;        // the call's subgraph (index in OpNode::subgraphs)
    int64_t iteration = 0;       // the call's iteration of that subgraph
    int64_t iterationsOfIt = 0;  // recorded calls of that subgraph
    int64_t cursor = 0;          // the subgraph's next node; its node count once the call is done
    // Per subgraph of the op, its calls made before this one: what has run
    // so far where the debugger stands (a loop's body before its condition's
    // first call: none, so its nodes have no value yet).
    std::vector<int64_t> callsBefore;
    // A call chosen to look at (the Iteration selector), not where the run
    // stands: its values are shown whole; any step comes back to the
    // frame's own call. Unset: looking where the run stands.
    std::optional<size_t> viewedCall;
    int32_t viewedSubgraph = -1;
    int64_t viewedIteration = -1;
    bool operator==(const SubgraphFrame&) const = default;
};

struct SubgraphBreakpoint {
    int64_t node = -1;     // the higher-order op
    int32_t subgraph = 0;  // index in its OpNode::subgraphs
    int64_t inner = 0;     // node index in that subgraph
    auto operator<=>(const SubgraphBreakpoint&) const = default;
};

class SubgraphFrames {
public:
    explicit SubgraphFrames(const ir::Graph& graph);

    std::optional<SubgraphFrame> frame() const;
    // Enters recorded call `call` of `node` before its subgraph node `cursor`
    // (its node count: the call is done, every value shown). False, and
    // nothing changes, when there is no such call.
    bool enter(const Session& session, int64_t node, size_t call, int64_t cursor = 0);
    void leave();
    // Looks at recorded call `call` of the frame's op without moving the
    // frame (its own call: back to looking where it stands). False when
    // there is no frame or no such call.
    bool view(const Session& session, size_t call);
    // One subgraph node on; past a call's last node the next call starts;
    // past the last call the frame is left (returns false).
    bool step(const Session& session);
    // Moves to the next subgraph breakpoint of `node`: after the frame's
    // position when the frame is in `node`, else from its first call. True:
    // the frame stands before that node; false: none left (the frame is left).
    bool runToBreakpoint(const Session& session, int64_t node);

    void setBreakpoint(const SubgraphBreakpoint& b, bool on);
    bool hasBreakpoint(const SubgraphBreakpoint& b) const;
    std::vector<SubgraphBreakpoint> breakpoints() const;
    bool hasBreakpointsIn(int64_t node) const;

    static std::string qualifiedName(const std::string& node, const std::string& subgraph, const std::string& tensor);
    static bool isQualified(const std::string& name) { return name.find('/') != std::string::npos; }
    // The value of a qualified name: in the frame's call when the name is
    // that call's (a node the frame has not reached has none yet); in another
    // subgraph of the frame's op, its last call before the frame's (none
    // before its first: the value does not exist yet where the debugger
    // stands); otherwise in the last recorded call of that subgraph. False
    // when there is none.
    bool value(const Session& session, const std::string& qualified, at::Tensor& out) const;
    // The subgraph node that makes the qualified name's tensor (-1: an input of
    // the subgraph, or unknown), and its op node and subgraph.
    struct Resolved {
        int64_t node = -1;
        int32_t subgraph = -1;
        int64_t producer = -1;
        std::string tensor;
    };
    std::optional<Resolved> resolve(const std::string& qualified) const;

private:
    bool enterLocked(const Session& session, int64_t node, size_t call, int64_t cursor);
    int64_t subgraphSize(int64_t node, int32_t subgraph) const;

    const ir::Graph& graph_;
    std::map<std::string, int64_t> opsWithSubgraphs_;  // by node name
    mutable std::mutex m_;
    std::optional<SubgraphFrame> frame_;
    std::set<SubgraphBreakpoint> breakpoints_;
};

}  // namespace irscope::exec
