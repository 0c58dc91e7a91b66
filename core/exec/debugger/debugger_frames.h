#pragma once
// DebuggerFrames: the Debugger's part for standing inside a higher-order op
// (subgraph_frames.h): a cond's branch, a loop's body. Stepping into and out
// of one, viewing another of its calls, and breakpoints on nodes inside
// subgraphs. The op runs whole; the frame walks its recorded calls. No torch
// headers.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/debugger/run_status.h"
#include "core/exec/debugger/subgraph_frames.h"

namespace irscope::exec {

struct DebuggerCore;

class DebuggerFrames {
public:
    explicit DebuggerFrames(DebuggerCore& core) : core_(core) {}

    // Where the debugger stands inside one, if it does: the innermost frame,
    // and every frame, outermost first.
    std::optional<SubgraphFrame> frame() const;
    std::vector<SubgraphFrame> stack() const;
    // At a higher-order op, at any depth: runs it (at the top level; inside a
    // frame it ran with its enclosing op) and stands before its first
    // subgraph node (its first call). Elsewhere, as Debugger::step().
    RunStatus stepInto();
    // Leaves the innermost frame: its op has run, and the frame below (or
    // the program) stands after it.
    RunStatus stepOut();
    // The iteration selector: call `call` of the op's recorded calls, every
    // value of it shown. Standing in that op it is looked at and the run
    // stays where it stands (SubgraphFrame::viewedCall); else the frame
    // enters it, done. False when there is no such call.
    // `cursor`: where the frame stands in a call it enters (its node count,
    // the default: the call done; inner + 1: just after node `inner`).
    bool selectCall(int64_t node, size_t call, int64_t cursor = INT64_MAX);
    // Stands just after the node a position names inside subgraph calls, at
    // any depth (SubgraphFrames::enterPosition); its top-level op must have run.
    // Failed, saying so, when the run made no such call.
    RunStatus standAt(const ir::ResolvedPosition& position);
    // Looks at call `call` of the op of frame `level` (0: outermost), the
    // frames inside it left; the run stays where it stands.
    bool selectCallAt(size_t level, size_t call);
    std::vector<SubgraphCallInfo> subgraphCalls(int64_t node) const;
    // The recorded calls of the innermost frame's op (SubgraphFrames::innermostCalls).
    std::vector<SubgraphCallInfo> innermostCalls() const;
    // Calls of each subgraph run where the debugger stands, by subgraph path
    // (SubgraphFrames::callCounts): what the drawing says of nested frames.
    std::map<std::string, int64_t> callCounts() const;
    // Breakpoints on nodes inside subgraphs: Continue and Run To stop there,
    // in the first call that reaches the node, after the op has run.
    void setSubgraphBreakpoint(const SubgraphBreakpoint& b, bool on);
    bool hasSubgraphBreakpoint(const SubgraphBreakpoint& b) const;
    std::vector<SubgraphBreakpoint> subgraphBreakpoints() const;

private:
    DebuggerCore& core_;
};

}  // namespace irscope::exec
