// DebuggerFrames (debugger_frames.h): stepping into higher-order ops (subgraph_frames.h). The op runs
// whole; the frame walks its recorded calls. Breakpoints inside subgraphs
// are found after the op ran, in the first call that reaches them.
#include "core/exec/debugger/debugger_frames.h"

#include <algorithm>

#include "core/exec/debugger/debugger_impl.h"

namespace irscope::exec {

std::optional<SubgraphFrame> DebuggerFrames::frame() const { return core_.frames.frame(); }
std::vector<SubgraphFrame> DebuggerFrames::stack() const { return core_.frames.stack(); }

RunStatus DebuggerFrames::standAt(const ir::ResolvedPosition& position) {
    if (core_.frames.enterPosition(core_.session, position)) return core_.inFrame(StopReason::Stepped, "standing");
    RunStatus st;
    st.reason = StopReason::Stepped;
    st.message = "the program did not make that call";
    return st;
}
bool DebuggerFrames::selectCallAt(size_t level, size_t call) { return core_.frames.viewAt(core_.session, level, call); }

RunStatus DebuggerFrames::stepInto() {
    if (core_.frames.frame()) {
        if (core_.frames.enterInner(core_.session)) return core_.inFrame(StopReason::Stepped, "stepped into");
        return core_.step();
    }
    const int64_t node = core_.cursor();
    if (node >= core_.nodeCount() || core_.graph.nodes[static_cast<size_t>(node)].subgraphs.empty())
        return core_.step();
    RunStatus st = core_.finish(core_.session.step([this](int64_t n) { core_.recordRun(n); }));
    if (st.failed || !core_.frames.enter(core_.session, node, 0, 0)) return st;
    return core_.inFrame(StopReason::Stepped, "stepped into");
}

RunStatus DebuggerFrames::stepOut() {
    core_.frames.leave();
    if (core_.frames.frame()) return core_.inFrame(StopReason::Stepped, "stepped out");
    RunStatus st;
    st.reason = StopReason::Stepped;
    st.message =
        "stepped out: stopped before " +
        (core_.session.finished() ? std::string("the end") : "'" + core_.graph.nodes[core_.cursor()].name + "'");
    return st;
}

bool DebuggerFrames::selectCall(int64_t node, size_t call, int64_t cursor) {
    if (node < 0 || node >= core_.nodeCount() || core_.graph.nodes[static_cast<size_t>(node)].subgraphs.empty())
        return false;
    const auto calls = core_.session.subgraphCalls(node);
    if (call >= calls.size()) return false;
    // Standing in this op: another call is looked at, the run stays where it stands.
    if (const auto stack = core_.frames.stack(); !stack.empty() && stack.front().node == node)
        return core_.frames.viewAt(core_.session, 0, call);
    const auto& sub = core_.graph.nodes[static_cast<size_t>(node)].subgraphs[static_cast<size_t>(calls[call].subgraph)];
    const int64_t size = sub.graph ? static_cast<int64_t>(sub.graph->nodes.size()) : 0;
    return core_.frames.enter(core_.session, node, call, std::min(cursor, size));
}

std::vector<SubgraphCallInfo> DebuggerFrames::subgraphCalls(int64_t node) const {
    return core_.session.subgraphCalls(node);
}

std::vector<SubgraphCallInfo> DebuggerFrames::innermostCalls() const {
    return core_.frames.innermostCalls(core_.session);
}
std::map<std::string, int64_t> DebuggerFrames::callCounts() const { return core_.frames.callCounts(core_.session); }

void DebuggerFrames::setSubgraphBreakpoint(const SubgraphBreakpoint& b, bool on) { core_.frames.setBreakpoint(b, on); }
bool DebuggerFrames::hasSubgraphBreakpoint(const SubgraphBreakpoint& b) const { return core_.frames.hasBreakpoint(b); }
std::vector<SubgraphBreakpoint> DebuggerFrames::subgraphBreakpoints() const { return core_.frames.breakpoints(); }

// Runs to `last` (inclusive) as Session::runTo does, stopping inside the
// first higher-order op on the way whose recorded calls reach a subgraph
// breakpoint; from inside a frame, first the rest of that op's calls.

}  // namespace irscope::exec
