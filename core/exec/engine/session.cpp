#include "core/exec/engine/session.h"

#include "core/exec/engine/runtime_checks.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "core/exec/engine/attr_convert.h"
#include "core/exec/engine/exec_error.h"
#include "core/exec/engine/executor.h"
#include "core/exec/engine/node_inspector.h"
#include "core/exec/engine/runtime_checks.h"
#include "core/ir/tensor_meta.h"

namespace irscope::exec {

struct Session::Impl {
    explicit Impl(const ir::Graph& g) : exec(g) {}

    Executor exec;
    mutable std::mutex mutex;  // guards everything below and the executor's values
    // Calls waiting for the lock. The run loop keeps the lock from node to
    // node (locking per node cost as much as a small op's dispatch) and
    // lets go between two nodes as soon as a call is waiting.
    mutable std::atomic<int> waiting{0};
    std::atomic<bool> cancelRequested{false};
    std::atomic<int64_t> progress{0};  // == cursor, readable without the lock
    int64_t cursor = 0;
    std::vector<NodeState> states;
    std::vector<double> seconds;
    std::vector<std::vector<std::string>> diagnostics;
    std::set<int64_t> breakpoints;
    std::optional<NodeError> error;
    std::vector<std::shared_ptr<NodeInspector>> inspectors;        // the executor holds their raw pointers
    std::map<std::string, std::pair<int64_t, size_t>> overridden;  // tensor -> (node, output)
    std::mutex bindMutex;
    std::atomic<bool> bound{false};  // every node bound

    // Every call but the run loop locks through here.
    std::unique_lock<std::mutex> callerLock() const {
        waiting.fetch_add(1, std::memory_order_relaxed);
        std::unique_lock lock(mutex);
        waiting.fetch_sub(1, std::memory_order_relaxed);
        return lock;
    }

    void resetLocked() {
        exec.reset();
        cursor = 0;
        progress = 0;
        std::fill(states.begin(), states.end(), NodeState::Pending);
        std::fill(seconds.begin(), seconds.end(), 0.0);
        for (auto& d : diagnostics) d.clear();
        error.reset();
        for (const auto& inspector : inspectors) inspector->reset();
    }

    [[gnu::cold, gnu::noinline]] void recordFailure(int64_t i, const ExecError& e, RunResult& r) {
        states[i] = NodeState::Failed;
        const auto& node = exec.graph().nodes[i];
        error = NodeError{i, node.name, node.opType, e.reason()};
        if (isRuntimeCheck(node.opType) && isCheckFailure(node, e.reason())) {
            error->refusedInput = true;
            if (auto values = runtimeCheckValues(exec, exec.graph(), i); !values.empty())
                error->message += " (" + values + ")";
        }
        r.reason = StopReason::Failed;
        r.lastNode = i;
        r.error = error;
    }

    // Runs nodes from the cursor until `target` (inclusive) has run.
    RunResult run(int64_t target, StopReason onTarget, const NodeHook& afterNode) {
        cancelRequested = false;
        std::unique_lock lock(mutex);
        RunResult r;
        const int64_t n = static_cast<int64_t>(states.size());
        const int64_t start = cursor;
        if (cursor >= n) {
            r.reason = StopReason::Finished;
            return r;
        }
        if (error) {  // a failed node stays failed until reset
            r.reason = StopReason::Failed;
            r.error = error;
            r.lastNode = error->node;
            return r;
        }
        if (!bound.load(std::memory_order_acquire)) {  // before the first node: see Executor::bindAll
            lock.unlock();                             // callers never read the bound ops
            {
                std::lock_guard bindLock(bindMutex);  // two runs at once must not bind twice
                if (!bound.load(std::memory_order_relaxed)) exec.bindAll();
                bound.store(true, std::memory_order_release);
            }
            lock.lock();
        }
        // One clock read per node: a node's time runs from the previous
        // node's end (or the hook's) to its own end.
        using Clock = std::chrono::steady_clock;
        auto t0 = Clock::now();
        while (true) {
            if (waiting.load(std::memory_order_relaxed) > 0) [[unlikely]] {
                lock.unlock();
                std::this_thread::yield();  // let the waiting call in
                lock.lock();
                t0 = Clock::now();
            }
            const int64_t i = cursor;
            if (i >= n) {
                r.reason = StopReason::Finished;
                return r;
            }
            if (i != start && !breakpoints.empty() && breakpoints.count(i)) [[unlikely]] {
                r.reason = StopReason::Breakpoint;
                return r;
            }
            if (cancelRequested.load(std::memory_order_relaxed) && cancelRequested.exchange(false)) [[unlikely]] {
                r.reason = StopReason::Cancelled;
                return r;
            }
            bool watched = false;
            try {
                watched = exec.runNode(i, diagnostics[i]);
            } catch (const MissingInputError& e) {
                // Not the node's failure: it never ran. Stop before it, as at a
                // breakpoint, saying which value to supply; the run goes on once it is.
                r.reason = StopReason::MissingValue;
                r.missing = e.value();
                return r;
            } catch (const ExecError& e) {
                seconds[i] = std::chrono::duration<double>(Clock::now() - t0).count();
                recordFailure(i, e, r);
                return r;
            }
            const auto t1 = Clock::now();
            seconds[i] = std::chrono::duration<double>(t1 - t0).count();
            t0 = t1;
            states[i] = NodeState::Done;
            cursor = i + 1;
            r.lastNode = i;
            if (afterNode) {  // outside the lock: it reads values through the session
                lock.unlock();
                afterNode(i);
                lock.lock();
                t0 = Clock::now();
            }
            progress.store(i + 1, std::memory_order_release);
            if (watched) [[unlikely]] {
                r.reason = StopReason::Watchpoint;
                for (const auto& inspector : inspectors)
                    if (std::string why = inspector->whyStopped(); !why.empty()) {
                        if (!r.watch.empty()) r.watch += "; ";
                        r.watch += why;
                    }
                return r;
            }
            if (i >= target) {
                r.reason = cursor >= n && onTarget != StopReason::Stepped ? StopReason::Finished : onTarget;
                return r;
            }
        }
    }
};

Session::Session(const ir::Graph& graph, RetentionPolicy policy) : d_(std::make_unique<Impl>(graph)) {
    const size_t n = graph.nodes.size();
    d_->states.assign(n, NodeState::Pending);
    d_->seconds.assign(n, 0.0);
    d_->diagnostics.resize(n);
    d_->exec.setRetention(policy);
}

Session::~Session() = default;

const ir::Graph& Session::graph() const { return d_->exec.graph(); }

void Session::setWeights(const io::TensorMap& m) {
    auto lock = d_->callerLock();
    d_->exec.setWeights(m);
    d_->resetLocked();
}
void Session::setConstants(const io::TensorMap& m) {
    auto lock = d_->callerLock();
    d_->exec.setConstants(m);
    d_->resetLocked();
}
void Session::setInputs(const io::TensorMap& m) {
    auto lock = d_->callerLock();
    d_->exec.setInputs(m);
    d_->resetLocked();
}
std::vector<MissingValue> Session::preflight() const {
    auto lock = d_->callerLock();
    return d_->exec.preflight();
}

void Session::reset() {
    auto lock = d_->callerLock();
    d_->resetLocked();
}

RunResult Session::step(const NodeHook& afterNode) {
    int64_t c;
    {
        auto lock = d_->callerLock();
        c = d_->cursor;
    }
    return d_->run(c, StopReason::Stepped, afterNode);
}

RunResult Session::runTo(int64_t node, const NodeHook& afterNode) {
    return d_->run(node, StopReason::ReachedTarget, afterNode);
}

RunResult Session::runToEnd(const NodeHook& afterNode) {
    return d_->run(static_cast<int64_t>(d_->states.size()) - 1, StopReason::Finished, afterNode);
}

void Session::cancel() { d_->cancelRequested = true; }

void Session::setInspectors(std::vector<std::shared_ptr<NodeInspector>> inspectors) {
    auto lock = d_->callerLock();
    std::vector<NodeInspector*> raw;
    for (const auto& inspector : inspectors)
        if (inspector) raw.push_back(inspector.get());
    d_->inspectors = std::move(inspectors);
    d_->inspectors.erase(std::remove(d_->inspectors.begin(), d_->inspectors.end(), nullptr), d_->inspectors.end());
    d_->exec.setInspectors(std::move(raw));
}

void Session::setBreakpoint(int64_t node, bool enabled) {
    auto lock = d_->callerLock();
    if (enabled)
        d_->breakpoints.insert(node);
    else
        d_->breakpoints.erase(node);
}
bool Session::hasBreakpoint(int64_t node) const {
    auto lock = d_->callerLock();
    return d_->breakpoints.count(node) != 0;
}
std::vector<int64_t> Session::breakpoints() const {
    auto lock = d_->callerLock();
    return {d_->breakpoints.begin(), d_->breakpoints.end()};
}
void Session::clearBreakpoints() {
    auto lock = d_->callerLock();
    d_->breakpoints.clear();
}

int64_t Session::nodeCount() const { return static_cast<int64_t>(d_->states.size()); }
int64_t Session::cursor() const {
    auto lock = d_->callerLock();
    return d_->cursor;
}
int64_t Session::progress() const { return d_->progress.load(); }
bool Session::finished() const { return cursor() >= nodeCount(); }
NodeState Session::state(int64_t node) const {
    auto lock = d_->callerLock();
    return d_->states.at(node);
}
double Session::seconds(int64_t node) const {
    auto lock = d_->callerLock();
    return d_->seconds.at(node);
}
double Session::totalSeconds() const {
    auto lock = d_->callerLock();
    double t = 0;
    for (double s : d_->seconds) t += s;
    return t;
}
std::vector<std::string> Session::diagnostics(int64_t node) const {
    auto lock = d_->callerLock();
    return d_->diagnostics.at(node);
}
std::map<int64_t, std::string> Session::widenedNodes() const {
    auto lock = d_->callerLock();
    return d_->exec.widenedNodes();
}
std::string Session::widenedReason(int64_t node) const {
    auto lock = d_->callerLock();
    const auto& w = d_->exec.widenedNodes();
    auto it = w.find(node);
    return it == w.end() ? std::string() : it->second;
}
int32_t Session::takenSubgraph(int64_t node) const {
    auto lock = d_->callerLock();
    const auto& t = d_->exec.takenBranches();
    auto it = t.find(node);
    return it == t.end() ? -1 : static_cast<int32_t>(it->second);
}
int64_t Session::iterations(int64_t node) const {
    auto lock = d_->callerLock();
    const auto& t = d_->exec.iterations();
    auto it = t.find(node);
    return it == t.end() ? -1 : it->second;
}
std::vector<SubgraphCallInfo> Session::subgraphCalls(int64_t node) const { return subgraphCalls({}, node); }
std::vector<SubgraphCallInfo> Session::subgraphCalls(const std::vector<CallStep>& outer, int64_t node) const {
    auto lock = d_->callerLock();
    std::vector<SubgraphCallInfo> out;
    // Calls to step through are those whose values were kept (a run that
    // frees values records only what each call did).
    if (!d_->exec.recordsCallValues()) return out;
    if (const auto* calls = d_->exec.subgraphCalls(outer, node))
        for (const auto& c : *calls) out.push_back({static_cast<int32_t>(c.subgraph), c.iteration});
    return out;
}
int64_t Session::unrecordedCalls(int64_t node) const {
    auto lock = d_->callerLock();
    return d_->exec.unrecordedCalls(node);
}
bool Session::subgraphValue(int64_t node, size_t call, const std::string& name, at::Tensor& out) const {
    return subgraphValue({}, node, call, name, out);
}
bool Session::subgraphValue(const std::vector<CallStep>& outer, int64_t node, size_t call, const std::string& name,
                            at::Tensor& out) const {
    auto lock = d_->callerLock();
    const auto* calls = d_->exec.subgraphCalls(outer, node);
    if (!calls || call >= calls->size()) return false;
    auto it = (*calls)[call].values.find(name);
    if (it == (*calls)[call].values.end()) return false;
    out = it->second;
    return out.defined();
}
std::optional<NodeError> Session::error() const {
    auto lock = d_->callerLock();
    return d_->error;
}

void Session::setRetention(RetentionPolicy policy) {
    auto lock = d_->callerLock();
    d_->exec.setRetention(policy);
}
RetentionPolicy Session::retention() const {
    auto lock = d_->callerLock();
    return d_->exec.retention();
}
void Session::setPinned(const std::string& name, bool pinned) {
    auto lock = d_->callerLock();
    d_->exec.setPinned(name, pinned);
}
void Session::setSelected(const std::vector<std::string>& names) {
    auto lock = d_->callerLock();
    d_->exec.setSelected(names);
}
size_t Session::bytesHeld() const {
    auto lock = d_->callerLock();
    return d_->exec.bytesHeld();
}

bool Session::hasValue(const std::string& name) const {
    auto lock = d_->callerLock();
    return d_->exec.hasValue(name);
}
bool Session::value(const std::string& name, at::Tensor& out) const {
    auto lock = d_->callerLock();
    out = d_->exec.valueOf(name);
    return out.defined();
}
std::optional<io::TensorSummary> Session::summary(const std::string& name) const {
    at::Tensor t;
    if (!value(name, t)) return std::nullopt;
    return io::summarize(t);
}
bool Session::outputs(io::TensorMap& out, std::string* missing) const {
    auto lock = d_->callerLock();
    return d_->exec.graphOutputs(out, missing);
}
void Session::intermediates(io::TensorMap& out) const {
    auto lock = d_->callerLock();
    const auto& nodes = d_->exec.graph().nodes;
    for (size_t i = 0; i < nodes.size(); ++i) {
        const auto outs = d_->exec.outputsOf(static_cast<int64_t>(i));
        for (size_t k = 0; k < outs.size() && k < nodes[i].outputs.size(); ++k)
            if (outs[k].defined()) out.insert(nodes[i].outputs[k].name, outs[k]);
    }
}

void Session::setOverride(const std::string& tensorName, const at::Tensor& value) {
    auto lock = d_->callerLock();
    const auto producer = d_->exec.index().producerOfTensor(tensorName);
    if (!producer)
        throw std::invalid_argument("'" + tensorName +
                                    "' is not a node's output (a graph input or a weight takes a file instead)");
    const auto [node, output] = *producer;
    const ir::TensorMeta& meta =
        d_->exec.graph().nodes[static_cast<size_t>(node)].outputs.at(static_cast<size_t>(output));
    if (!value.defined()) throw std::invalid_argument("no value for '" + tensorName + "'");
    if (!ir::sizesFit(meta.shape, value.sizes().vec()))
        throw std::invalid_argument("'" + tensorName + "' has shape " + ir::shapeToList(meta.shape) +
                                    "; the value has " + ir::shapeToList(value.sizes().vec()));
    at::Tensor v = value;
    if (const auto st = scalarTypeOfIrDtype(meta.dtype); st && *st != v.scalar_type()) v = v.to(*st);
    d_->exec.setOverride(node, static_cast<size_t>(output), v.contiguous());
    d_->overridden[tensorName] = {node, static_cast<size_t>(output)};
}

void Session::clearOverride(const std::string& tensorName) {
    auto lock = d_->callerLock();
    const auto it = d_->overridden.find(tensorName);
    if (it == d_->overridden.end()) return;
    d_->exec.clearOverride(it->second.first, it->second.second);
    d_->overridden.erase(it);
}

std::vector<std::string> Session::overriddenTensors() const {
    auto lock = d_->callerLock();
    std::vector<std::string> out;
    for (const auto& [name, where] : d_->overridden) out.push_back(name);
    return out;
}

Executor& Session::executor() { return d_->exec; }
const Executor& Session::executor() const { return d_->exec; }

}  // namespace irscope::exec
