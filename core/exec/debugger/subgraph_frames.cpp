#include "core/exec/debugger/subgraph_frames.h"

#include <algorithm>
#include <climits>
#include <cstdint>

#include <ATen/core/Tensor.h>

#include "core/exec/engine/session.h"

namespace irscope::exec {

namespace {

// Splits a path "a/s/b/t" into its segments.
std::vector<std::string> segments(const std::string& path) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        const size_t slash = path.find('/', start);
        out.push_back(path.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
        if (slash == std::string::npos) return out;
        start = slash + 1;
    }
}

int64_t nodeNamed(const ir::Graph& g, const std::string& name) {
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].name == name) return static_cast<int64_t>(i);
    return -1;
}

}  // namespace

SubgraphFrames::SubgraphFrames(const ir::Graph& graph) : graph_(graph) {
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        if (!graph.nodes[i].subgraphs.empty()) opsWithSubgraphs_.emplace(graph.nodes[i].name, static_cast<int64_t>(i));
}

int64_t SubgraphFrames::subgraphSize(const ir::Graph& in, int64_t node, int32_t subgraph) {
    if (node < 0 || node >= static_cast<int64_t>(in.nodes.size())) return 0;
    const auto& subs = in.nodes[static_cast<size_t>(node)].subgraphs;
    if (subgraph < 0 || subgraph >= static_cast<int32_t>(subs.size()) || !subs[static_cast<size_t>(subgraph)].graph)
        return 0;
    return static_cast<int64_t>(subs[static_cast<size_t>(subgraph)].graph->nodes.size());
}

std::optional<SubgraphFrames::ResolvedPath> SubgraphFrames::resolvePath(const std::string& subgraphPath) const {
    const std::vector<std::string> parts = segments(subgraphPath);
    if (parts.size() < 2 || parts.size() % 2 != 0) return std::nullopt;
    ResolvedPath r;
    const ir::Graph* g = &graph_;
    std::string path;
    for (size_t k = 0; k < parts.size(); k += 2) {
        int64_t op = -1;
        if (k == 0) {
            const auto it = opsWithSubgraphs_.find(parts[0]);
            op = it == opsWithSubgraphs_.end() ? -1 : it->second;
        } else {
            op = nodeNamed(*g, parts[k]);
        }
        if (op < 0) return std::nullopt;
        const auto& subs = g->nodes[static_cast<size_t>(op)].subgraphs;
        int32_t sub = -1;
        for (size_t s = 0; s < subs.size(); ++s)
            if (subs[s].name == parts[k + 1] && subs[s].graph) sub = static_cast<int32_t>(s);
        if (sub < 0) return std::nullopt;
        path = SubgraphFrames::subgraphPath(path, parts[k], parts[k + 1]);
        r.steps.push_back({op, sub, path});
        g = subs[static_cast<size_t>(sub)].graph.get();
    }
    r.graph = g;
    return r;
}

std::optional<SubgraphFrames::Resolved> SubgraphFrames::resolve(const std::string& qualified) const {
    const size_t slash = qualified.rfind('/');
    if (slash == std::string::npos) return std::nullopt;
    auto path = resolvePath(qualified.substr(0, slash));
    if (!path) return std::nullopt;
    Resolved r;
    r.path = std::move(*path);
    r.tensor = qualified.substr(slash + 1);
    const auto& sub = *r.path.graph;
    for (size_t j = 0; j < sub.nodes.size() && r.producer < 0; ++j)
        for (const auto& o : sub.nodes[j].outputs)
            if (o.name == r.tensor) r.producer = static_cast<int64_t>(j);
    return r;
}

std::vector<CallStep> SubgraphFrames::outerOf(size_t level) const {
    std::vector<CallStep> out;
    for (size_t k = 0; k < level && k < stack_.size(); ++k) out.push_back({stack_[k].node, stack_[k].call});
    return out;
}

const ir::Graph* SubgraphFrames::graphOf(const SubgraphFrame& f) const {
    if (f.where.empty()) return &graph_;
    const auto r = resolvePath(f.where);
    return r ? r->graph : nullptr;
}

std::optional<SubgraphFrame> SubgraphFrames::makeFrame(const Session& session, const std::vector<CallStep>& outer,
                                                       const ir::Graph& in, const std::string& where, int64_t node,
                                                       size_t call, int64_t cursor) const {
    if (node < 0 || node >= static_cast<int64_t>(in.nodes.size())) return std::nullopt;
    const auto calls = session.subgraphCalls(outer, node);
    if (call >= calls.size()) return std::nullopt;
    const auto& op = in.nodes[static_cast<size_t>(node)];
    SubgraphFrame f;
    f.node = node;
    f.where = where;
    f.call = call;
    f.calls = calls.size();
    f.subgraph = calls[call].subgraph;
    if (f.subgraph < 0 || static_cast<size_t>(f.subgraph) >= op.subgraphs.size()) return std::nullopt;
    f.path = subgraphPath(where, op.name, op.subgraphs[static_cast<size_t>(f.subgraph)].name);
    f.iteration = calls[call].iteration;
    f.repeats = ir::callsRepeatedly(op);
    for (const auto& c : calls) f.iterationsOfIt += c.subgraph == f.subgraph;
    f.cursor = std::clamp<int64_t>(cursor, 0, subgraphSize(in, node, f.subgraph));
    f.callsBefore.assign(op.subgraphs.size(), 0);
    for (const auto& sub : op.subgraphs) f.subgraphPaths.push_back(subgraphPath(where, op.name, sub.name));
    for (size_t c = 0; c < call; ++c)
        if (calls[c].subgraph >= 0 && static_cast<size_t>(calls[c].subgraph) < f.callsBefore.size())
            ++f.callsBefore[static_cast<size_t>(calls[c].subgraph)];
    return f;
}

std::optional<SubgraphFrame> SubgraphFrames::frame() const {
    std::lock_guard lock(m_);
    if (stack_.empty()) return std::nullopt;
    return stack_.back();
}

std::vector<SubgraphFrame> SubgraphFrames::stack() const {
    std::lock_guard lock(m_);
    return stack_;
}

bool SubgraphFrames::enter(const Session& session, int64_t node, size_t call, int64_t cursor) {
    std::lock_guard lock(m_);
    auto f = makeFrame(session, {}, graph_, "", node, call, cursor);
    if (!f) return false;
    stack_ = {std::move(*f)};
    return true;
}

bool SubgraphFrames::enterInner(const Session& session) {
    std::lock_guard lock(m_);
    if (stack_.empty()) return false;
    SubgraphFrame& top = stack_.back();
    const ir::Graph* in = graphOf(top);
    if (!in) return false;
    const auto& op = in->nodes[static_cast<size_t>(top.node)];
    const auto& sub = op.subgraphs[static_cast<size_t>(top.subgraph)];
    if (!sub.graph || top.cursor >= static_cast<int64_t>(sub.graph->nodes.size())) return false;
    if (sub.graph->nodes[static_cast<size_t>(top.cursor)].subgraphs.empty()) return false;
    auto inner = makeFrame(session, outerOf(stack_.size()), *sub.graph, top.path, top.cursor, 0, 0);
    if (!inner) return false;
    top.viewedCall.reset();
    top.viewedSubgraph = -1;
    top.viewedIteration = -1;
    ++top.cursor;  // the op has run: the frame below stands after it
    stack_.push_back(std::move(*inner));
    return true;
}

bool SubgraphFrames::enterPosition(const Session& session, const ir::ResolvedPosition& position) {
    std::lock_guard lock(m_);
    if (position.frames.empty()) return false;
    std::vector<SubgraphFrame> stack;
    std::vector<CallStep> outer;
    std::string where;
    for (size_t k = 0; k < position.frames.size(); ++k) {
        const ir::ResolvedStep& step = position.frames[k];
        if (!step.graph) return false;
        const auto calls = session.subgraphCalls(outer, step.node);
        const int64_t wanted = step.call > 0 ? step.call - 1 : 0;
        size_t call = calls.size();
        for (size_t c = 0; c < calls.size() && call == calls.size(); ++c)
            if (calls[c].subgraph == step.subgraph && calls[c].iteration == wanted) call = c;
        if (call == calls.size()) return false;
        // Each frame stands after the op of the next one (it has run), the
        // innermost just after the node.
        const int64_t cursor = k + 1 < position.frames.size() ? position.frames[k + 1].node + 1 : position.node + 1;
        auto f = makeFrame(session, outer, *step.graph, where, step.node, call, cursor);
        if (!f) return false;
        where = f->path;
        outer.push_back({step.node, call});
        stack.push_back(std::move(*f));
    }
    stack_ = std::move(stack);
    return true;
}

bool SubgraphFrames::view(const Session& session, size_t call) {
    std::lock_guard lock(m_);
    if (stack_.empty()) return false;
    SubgraphFrame& f = stack_.back();
    const auto calls = session.subgraphCalls(outerOf(stack_.size() - 1), f.node);
    if (call >= calls.size()) return false;
    if (call == f.call) {
        f.viewedCall.reset();
        f.viewedSubgraph = -1;
        f.viewedIteration = -1;
        return true;
    }
    f.viewedCall = call;
    f.viewedSubgraph = calls[call].subgraph;
    f.viewedIteration = calls[call].iteration;
    return true;
}

bool SubgraphFrames::viewAt(const Session& session, size_t level, size_t call) {
    {
        std::lock_guard lock(m_);
        if (level >= stack_.size()) return false;
        if (call >= session.subgraphCalls(outerOf(level), stack_[level].node).size()) return false;
        stack_.resize(level + 1);
    }
    return view(session, call);
}

void SubgraphFrames::leave() {
    std::lock_guard lock(m_);
    if (!stack_.empty()) stack_.pop_back();
}

void SubgraphFrames::leaveAll() {
    std::lock_guard lock(m_);
    stack_.clear();
}

bool SubgraphFrames::step(const Session& session) {
    std::lock_guard lock(m_);
    if (stack_.empty()) return false;
    SubgraphFrame& f = stack_.back();
    f.viewedCall.reset();  // a step looks where the run stands again
    f.viewedSubgraph = -1;
    f.viewedIteration = -1;
    const ir::Graph* in = graphOf(f);
    if (in && f.cursor < subgraphSize(*in, f.node, f.subgraph)) {
        ++f.cursor;
        return true;
    }
    if (in && f.call + 1 < f.calls) {
        if (auto next = makeFrame(session, outerOf(stack_.size() - 1), *in, f.where, f.node, f.call + 1, 0)) {
            f = std::move(*next);
            return true;
        }
    }
    stack_.pop_back();
    return !stack_.empty();
}

bool SubgraphFrames::findBreakpoint(const Session& session, std::vector<SubgraphFrame>& stack, const ir::Graph& in,
                                    const std::string& where, int64_t node, size_t startCall, int64_t from) const {
    std::vector<CallStep> outer;
    for (const auto& f : stack) outer.push_back({f.node, f.call});
    const size_t calls = session.subgraphCalls(outer, node).size();
    for (size_t c = startCall; c < calls; ++c) {
        auto f = makeFrame(session, outer, in, where, node, c, 0);
        if (!f) continue;
        const auto& sub = *in.nodes[static_cast<size_t>(node)].subgraphs[static_cast<size_t>(f->subgraph)].graph;
        for (int64_t j = c == startCall ? from : 0; j < static_cast<int64_t>(sub.nodes.size()); ++j) {
            if (breakpoints_.count({f->path, j})) {
                f->cursor = j;
                stack.push_back(std::move(*f));
                return true;
            }
            if (sub.nodes[static_cast<size_t>(j)].subgraphs.empty()) continue;
            const auto prefix = f->path + "/" + sub.nodes[static_cast<size_t>(j)].name + "/";
            const auto b = breakpoints_.lower_bound({prefix, INT64_MIN});
            if (b == breakpoints_.end() || b->subgraph.compare(0, prefix.size(), prefix) != 0) continue;
            f->cursor = j + 1;  // inside the op at j: this frame stands after it
            stack.push_back(*f);
            if (findBreakpoint(session, stack, sub, f->path, j, 0, 0)) return true;
            stack.pop_back();
        }
    }
    return false;
}

bool SubgraphFrames::runToBreakpoint(const Session& session, int64_t node) {
    std::lock_guard lock(m_);
    if (!stack_.empty() && stack_.front().node == node) {
        // From where the frames stand: the rest of the innermost call (the
        // node at its cursor runs first), then of each call below it.
        for (size_t level = stack_.size(); level-- > 0;) {
            const SubgraphFrame f = stack_[level];
            const ir::Graph* in = graphOf(f);
            std::vector<SubgraphFrame> found(stack_.begin(), stack_.begin() + static_cast<std::ptrdiff_t>(level));
            const int64_t from = level + 1 == stack_.size() ? f.cursor + 1 : f.cursor;
            if (in && findBreakpoint(session, found, *in, f.where, f.node, f.call, from)) {
                stack_ = std::move(found);
                return true;
            }
        }
    } else {
        std::vector<SubgraphFrame> found;
        if (findBreakpoint(session, found, graph_, "", node, 0, 0)) {
            stack_ = std::move(found);
            return true;
        }
    }
    stack_.clear();
    return false;
}

std::vector<SubgraphCallInfo> SubgraphFrames::innermostCalls(const Session& session) const {
    std::lock_guard lock(m_);
    if (stack_.empty()) return {};
    return session.subgraphCalls(outerOf(stack_.size() - 1), stack_.back().node);
}

void SubgraphFrames::countCalls(const Session& session, std::vector<CallStep>& outer, const ir::Graph& in,
                                const std::string& where, int64_t node, size_t level,
                                std::map<std::string, int64_t>& out) const {
    const auto& op = in.nodes[static_cast<size_t>(node)];
    // On the frames' path: only the calls made up to the frame's own.
    const SubgraphFrame* f = level < stack_.size() && stack_[level].node == node ? &stack_[level] : nullptr;
    const auto calls = session.subgraphCalls(outer, node);
    const size_t last = f ? std::min(calls.size(), f->call + 1) : calls.size();
    for (size_t c = 0; c < last; ++c) {
        const int32_t s = calls[c].subgraph;
        if (s < 0 || static_cast<size_t>(s) >= op.subgraphs.size() || !op.subgraphs[static_cast<size_t>(s)].graph)
            continue;
        const std::string path = subgraphPath(where, op.name, op.subgraphs[static_cast<size_t>(s)].name);
        const bool own = f && c == f->call;
        if (!own) ++out[path];  // the frame's own call is under way: counted by the frame
        const auto& sub = *op.subgraphs[static_cast<size_t>(s)].graph;
        const int64_t upTo = own ? f->cursor : static_cast<int64_t>(sub.nodes.size());
        outer.push_back({node, c});
        for (int64_t j = 0; j < static_cast<int64_t>(sub.nodes.size()); ++j) {
            if (sub.nodes[static_cast<size_t>(j)].subgraphs.empty()) continue;
            // In the frame's own call: the ops it passed, and the one it stands in.
            const bool inner = own && level + 1 < stack_.size() && stack_[level + 1].node == j;
            if (own && j >= upTo && !inner) continue;
            countCalls(session, outer, sub, path, j, own ? level + 1 : stack_.size(), out);
        }
        outer.pop_back();
    }
}

std::map<std::string, int64_t> SubgraphFrames::callCounts(const Session& session) const {
    std::lock_guard lock(m_);
    std::map<std::string, int64_t> out;
    std::vector<CallStep> outer;
    for (const auto& [name, node] : opsWithSubgraphs_) countCalls(session, outer, graph_, "", node, 0, out);
    return out;
}

void SubgraphFrames::setBreakpoint(const SubgraphBreakpoint& b, bool on) {
    std::lock_guard lock(m_);
    if (on)
        breakpoints_.insert(b);
    else
        breakpoints_.erase(b);
}

bool SubgraphFrames::hasBreakpoint(const SubgraphBreakpoint& b) const {
    std::lock_guard lock(m_);
    return breakpoints_.count(b) != 0;
}

std::vector<SubgraphBreakpoint> SubgraphFrames::breakpoints() const {
    std::lock_guard lock(m_);
    return {breakpoints_.begin(), breakpoints_.end()};
}

bool SubgraphFrames::hasBreakpointsIn(int64_t node) const {
    if (node < 0 || node >= static_cast<int64_t>(graph_.nodes.size())) return false;
    const std::string prefix = graph_.nodes[static_cast<size_t>(node)].name + "/";
    std::lock_guard lock(m_);
    auto it = breakpoints_.lower_bound({prefix, INT64_MIN});
    return it != breakpoints_.end() && it->subgraph.compare(0, prefix.size(), prefix) == 0;
}

bool SubgraphFrames::value(const Session& session, const std::string& qualified, at::Tensor& out) const {
    const auto r = resolve(qualified);
    if (!r) return false;
    std::vector<CallStep> outer;
    {
        std::lock_guard lock(m_);
        // Level by level, the call whose values are meant.
        bool onFrames = true;  // every level so far is a call a frame stands in
        for (size_t k = 0; k < r->path.steps.size(); ++k) {
            const PathStep& step = r->path.steps[k];
            const bool last = k + 1 == r->path.steps.size();
            const SubgraphFrame* f =
                onFrames && k < stack_.size() && stack_[k].node == step.node ? &stack_[k] : nullptr;
            // The op is a node of the call the frame below stands in: not
            // reached there yet, it has no call to show.
            if (onFrames && k > 0 && !f && step.node >= stack_[k - 1].cursor) return false;
            size_t call = SIZE_MAX, before = SIZE_MAX;
            if (f && f->viewedCall && f->viewedSubgraph == step.subgraph) {
                call = *f->viewedCall;  // a call looked at: every value of it
                onFrames = false;
            } else if (f && f->subgraph == step.subgraph) {
                if (last && r->producer >= f->cursor) return false;  // not reached yet
                call = f->call;
            } else if (f) {
                // Another subgraph of the op: its calls so far only.
                before = f->viewedCall.value_or(f->call);
                onFrames = false;
            } else {
                onFrames = false;
            }
            if (call == SIZE_MAX) {
                const auto calls = session.subgraphCalls(outer, step.node);
                for (size_t c = std::min(calls.size(), before); c-- > 0;)
                    if (calls[c].subgraph == step.subgraph) {
                        call = c;
                        break;
                    }
                if (call == SIZE_MAX) return false;
            }
            outer.push_back({step.node, call});
        }
    }
    const CallStep innermost = outer.back();
    outer.pop_back();
    return session.subgraphValue(outer, innermost.node, innermost.call, r->tensor, out);
}

}  // namespace irscope::exec
