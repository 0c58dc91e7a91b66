// Debugger: stepping into higher-order ops (subgraph_frames.h). The op runs
// whole; the frame walks its recorded calls. Breakpoints inside subgraphs
// are found after the op ran, in the first call that reaches them.
#include "core/exec/debugger/debugger_impl.h"

#include <algorithm>

namespace irscope::exec {

std::optional<SubgraphFrame> Debugger::frame() const { return d_->frames.frame(); }

RunStatus Debugger::inFrame(StopReason reason, const std::string& how) const {
    RunStatus st;
    st.reason = reason;
    const auto f = d_->frames.frame();
    if (!f) return st;
    st.lastNode = f->node;
    const auto& op = d_->graph.nodes[static_cast<size_t>(f->node)];
    const auto& sub = op.subgraphs[static_cast<size_t>(f->subgraph)];
    const int64_t size = sub.graph ? static_cast<int64_t>(sub.graph->nodes.size()) : 0;
    st.message = how + " in '" + op.name + "' " + sub.name + " (iteration " + std::to_string(f->iteration + 1) +
                 " of " + std::to_string(f->iterationsOfIt) + "): " +
                 (f->cursor < size ? "stopped before '" + sub.graph->nodes[static_cast<size_t>(f->cursor)].name + "'"
                                   : std::string("its nodes ran"));
    return st;
}

RunStatus Debugger::stepInto() {
    if (d_->frames.frame()) return step();
    const int64_t node = cursor();
    if (node >= nodeCount() || d_->graph.nodes[static_cast<size_t>(node)].subgraphs.empty()) return step();
    RunStatus st = finish(d_->session.step([this](int64_t n) { d_->recordRun(n); }));
    if (st.failed || !d_->frames.enter(d_->session, node, 0, 0)) return st;
    return inFrame(StopReason::Stepped, "stepped into");
}

RunStatus Debugger::stepOut() {
    d_->frames.leave();
    RunStatus st;
    st.reason = StopReason::Stepped;
    st.message = "stepped out: stopped before " +
                 (finished() ? std::string("the end") : "'" + d_->graph.nodes[cursor()].name + "'");
    return st;
}

bool Debugger::selectCall(int64_t node, size_t call, int64_t cursor) {
    if (node < 0 || node >= nodeCount() || d_->graph.nodes[static_cast<size_t>(node)].subgraphs.empty()) return false;
    const auto calls = d_->session.subgraphCalls(node);
    if (call >= calls.size()) return false;
    // Standing in this op: another call is looked at, the run stays where it stands.
    if (const auto f = d_->frames.frame(); f && f->node == node) return d_->frames.view(d_->session, call);
    const auto& sub = d_->graph.nodes[static_cast<size_t>(node)].subgraphs[static_cast<size_t>(calls[call].subgraph)];
    const int64_t size = sub.graph ? static_cast<int64_t>(sub.graph->nodes.size()) : 0;
    return d_->frames.enter(d_->session, node, call, std::min(cursor, size));
}

std::vector<SubgraphCallInfo> Debugger::subgraphCalls(int64_t node) const { return d_->session.subgraphCalls(node); }

void Debugger::setSubgraphBreakpoint(const SubgraphBreakpoint& b, bool on) { d_->frames.setBreakpoint(b, on); }
bool Debugger::hasSubgraphBreakpoint(const SubgraphBreakpoint& b) const { return d_->frames.hasBreakpoint(b); }
std::vector<SubgraphBreakpoint> Debugger::subgraphBreakpoints() const { return d_->frames.breakpoints(); }

// Runs to `last` (inclusive) as Session::runTo does, stopping inside the
// first higher-order op on the way whose recorded calls reach a subgraph
// breakpoint; from inside a frame, first the rest of that op's calls.
RunStatus Debugger::runWithSubgraphBreakpoints(int64_t last) {
    const auto hook = [this](int64_t n) { d_->recordRun(n); };
    if (const auto f = d_->frames.frame()) {
        if (d_->frames.runToBreakpoint(d_->session, f->node)) return inFrame(StopReason::Breakpoint, "breakpoint");
    }
    const auto opsWithBreakpoints = [this](int64_t from, int64_t to) {
        for (int64_t n = from; n <= to && n < nodeCount(); ++n)
            if (d_->frames.hasBreakpointsIn(n)) return n;
        return int64_t{-1};
    };
    for (;;) {
        const int64_t op = opsWithBreakpoints(cursor(), last);
        if (op < 0) return finish(last >= nodeCount() - 1 ? d_->session.runToEnd(hook) : d_->session.runTo(last, hook));
        const RunResult r = d_->session.runTo(op, hook);
        if (r.reason != StopReason::ReachedTarget) return finish(r);
        if (d_->frames.runToBreakpoint(d_->session, op)) return inFrame(StopReason::Breakpoint, "breakpoint");
        if (op == last) return finish(r);
    }
}

}  // namespace irscope::exec
