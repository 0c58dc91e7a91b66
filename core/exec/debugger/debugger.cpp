// Debugger (debugger.h): the run, its control and the nodes' states, and the
// core's run control that the frames part shares (a step inside a frame, a
// run that stops at a breakpoint inside a subgraph).
#include "core/exec/debugger/debugger.h"

#include <ATen/ATen.h>

#include <mutex>

#include "core/exec/debugger/debugger_impl.h"
#include "core/exec/engine/executor.h"
#include "core/exec/engine/session.h"

namespace irscope::exec {

// ------------------------------------------------------------------ the core's run control

void DebuggerCore::reset() {
    frames.leaveAll();
    session.reset();
    std::lock_guard lock(m);
    overlays.reset(graph.nodes.size());
}

RunStatus DebuggerCore::finish(const RunResult& r) const { return describeStop(graph, r, session.cursor()); }

RunStatus DebuggerCore::step() {
    if (frames.frame()) {
        if (frames.step(session)) return inFrame(StopReason::Stepped, "stepped");
        RunStatus st;
        st.reason = StopReason::Stepped;
        st.message = "stepped out: stopped before " +
                     (session.finished() ? std::string("the end") : "'" + graph.nodes[cursor()].name + "'");
        return st;
    }
    return finish(session.step([this](int64_t node) { recordRun(node); }));
}

RunStatus DebuggerCore::inFrame(StopReason reason, const std::string& how) const {
    RunStatus st;
    st.reason = reason;
    const auto stack = frames.stack();
    if (stack.empty()) return st;
    st.lastNode = stack.front().node;
    const SubgraphFrame& f = stack.back();
    const auto resolved = frames.resolvePath(f.path);
    if (!resolved) return st;
    const ir::Graph& sub = *resolved->graph;
    const int64_t size = static_cast<int64_t>(sub.nodes.size());
    st.message = how + " in '" + f.path + "' (iteration " + std::to_string(f.iteration + 1) + " of " +
                 std::to_string(f.iterationsOfIt) + "): " +
                 (f.cursor < size ? "stopped before '" + sub.nodes[static_cast<size_t>(f.cursor)].name + "'"
                                  : std::string("its nodes ran"));
    return st;
}

RunStatus DebuggerCore::runTo(int64_t last) {
    const auto hook = [this](int64_t n) { recordRun(n); };
    if (const auto stack = frames.stack(); !stack.empty()) {
        if (frames.runToBreakpoint(session, stack.front().node)) return inFrame(StopReason::Breakpoint, "breakpoint");
    }
    const auto opsWithBreakpoints = [this](int64_t from, int64_t to) {
        for (int64_t n = from; n <= to && n < nodeCount(); ++n)
            if (frames.hasBreakpointsIn(n)) return n;
        return int64_t{-1};
    };
    for (;;) {
        const int64_t op = opsWithBreakpoints(cursor(), last);
        if (op < 0) return finish(last >= nodeCount() - 1 ? session.runToEnd(hook) : session.runTo(last, hook));
        const RunResult r = session.runTo(op, hook);
        if (r.reason != StopReason::ReachedTarget) return finish(r);
        if (frames.runToBreakpoint(session, op)) return inFrame(StopReason::Breakpoint, "breakpoint");
        if (op == last) return finish(r);
    }
}

// ------------------------------------------------------------------ the debugger

Debugger::Debugger(const ir::Graph& graph, RetentionPolicy policy)
    : core_(std::make_unique<DebuggerCore>(graph, policy)),
      values_(*core_),
      checks_(*core_),
      frames_(*core_),
      tensors_(*core_),
      overrides_(*core_) {
    core_->overlays.reset(graph.nodes.size());
    core_->applyInputs();
}

Debugger::~Debugger() = default;

const ir::Graph& Debugger::graph() const { return core_->graph; }
Session& Debugger::session() { return core_->session; }

DebuggerValues& Debugger::values() { return values_; }
const DebuggerValues& Debugger::values() const { return values_; }
DebuggerChecks& Debugger::checks() { return checks_; }
const DebuggerChecks& Debugger::checks() const { return checks_; }
DebuggerFrames& Debugger::frames() { return frames_; }
const DebuggerFrames& Debugger::frames() const { return frames_; }
const DebuggerTensors& Debugger::tensors() const { return tensors_; }
DebuggerOverrides& Debugger::overrides() { return overrides_; }
const DebuggerOverrides& Debugger::overrides() const { return overrides_; }

void Debugger::reset() { core_->reset(); }
RunStatus Debugger::step() { return core_->step(); }
RunStatus Debugger::runTo(int64_t node) { return core_->runTo(node); }
RunStatus Debugger::runToEnd() { return core_->runTo(nodeCount() - 1); }
void Debugger::cancel() { core_->session.cancel(); }
void Debugger::setBreakpoint(int64_t node, bool on) { core_->session.setBreakpoint(node, on); }
bool Debugger::hasBreakpoint(int64_t node) const { return core_->session.hasBreakpoint(node); }
std::vector<int64_t> Debugger::breakpoints() const { return core_->session.breakpoints(); }
void Debugger::setRetention(RetentionPolicy policy) {
    core_->session.setRetention(policy);
    core_->rebuildChecks();  // a reference run and local mode keep what the run keeps
}
RetentionPolicy Debugger::retention() const { return core_->session.retention(); }
void Debugger::setPinned(const std::string& tensor, bool pinned) { core_->session.setPinned(tensor, pinned); }

int64_t Debugger::nodesDone() const { return core_->session.progress(); }
int64_t Debugger::cursor() const { return core_->session.progress(); }
int64_t Debugger::nodeCount() const { return core_->session.nodeCount(); }
bool Debugger::finished() const { return core_->session.finished(); }
size_t Debugger::bytesHeld() const { return core_->session.bytesHeld(); }
double Debugger::totalSeconds() const { return core_->session.totalSeconds(); }
std::optional<NodeError> Debugger::error() const { return core_->session.error(); }

NodeInfo Debugger::nodeInfo(int64_t node) const {
    NodeInfo info;
    const Session& s = core_->session;
    if (node < 0 || node >= s.nodeCount()) return info;
    info.state = s.state(node);
    info.current = s.cursor() == node && info.state != NodeState::Failed;
    info.breakpoint = s.hasBreakpoint(node);
    info.seconds = s.seconds(node);
    info.diagnostics = s.diagnostics(node);
    if (auto e = s.error(); e && e->node == node) info.error = e->message;
    const auto& n = core_->graph.nodes[node];
    info.widened = s.widenedReason(node);
    if (!n.subgraphs.empty()) {
        info.takenSubgraph = s.takenSubgraph(node);
        info.iterations = s.iterations(node);
        const auto calls = s.subgraphCalls(node);
        if (!calls.empty()) {
            info.subgraphRuns.assign(n.subgraphs.size(), 0);
            for (const auto& c : calls)
                if (c.subgraph >= 0 && c.subgraph < static_cast<int32_t>(n.subgraphs.size()))
                    ++info.subgraphRuns[c.subgraph];
            // Calls beyond the recorded ones were the same subgraphs again; the count says how many ran in all.
            if (info.iterations >= 0 && s.unrecordedCalls(node) > 0) info.subgraphRuns.clear();
        }
    }
    for (const auto& o : n.outputs) {
        at::Tensor t;
        if (s.value(o.name, t)) info.outputBytes += t.numel() * t.element_size();
    }
    std::lock_guard lock(core_->m);
    info.needsMissing = core_->missingNodes.count(n.name) != 0;
    return info;
}

std::vector<NodeInfo> Debugger::nodeInfos() const {
    std::vector<NodeInfo> v;
    const int64_t n = nodeCount();
    v.reserve(n);
    for (int64_t i = 0; i < n; ++i) v.push_back(nodeInfo(i));
    return v;
}

}  // namespace irscope::exec
