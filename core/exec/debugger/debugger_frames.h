#pragma once
// DebuggerFrames: the Debugger's part for standing inside a higher-order op
// (subgraph_frames.h): a cond's branch, a loop's body. Stepping into and out
// of one, viewing another of its calls, and breakpoints on nodes inside
// subgraphs. The op runs whole; the frame walks its recorded calls. No torch
// headers.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/exec/debugger/run_status.h"
#include "core/exec/debugger/subgraph_frames.h"

namespace irscope::exec {

struct DebuggerCore;

class DebuggerFrames {
public:
    explicit DebuggerFrames(DebuggerCore& core) : core_(core) {}

    // Where the debugger stands inside one, if it does.
    std::optional<SubgraphFrame> frame() const;
    // At a higher-order op: runs it and stands before its first subgraph
    // node (its first call). In a frame, and elsewhere, as Debugger::step().
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

private:
    DebuggerCore& core_;
};

}  // namespace irscope::exec
