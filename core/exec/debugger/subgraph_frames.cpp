#include "core/exec/debugger/subgraph_frames.h"

#include <algorithm>
#include <climits>
#include <cstdint>

#include <ATen/core/Tensor.h>

#include "core/exec/engine/session.h"

namespace irscope::exec {

SubgraphFrames::SubgraphFrames(const ir::Graph& graph) : graph_(graph) {
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        if (!graph.nodes[i].subgraphs.empty()) opsWithSubgraphs_.emplace(graph.nodes[i].name, static_cast<int64_t>(i));
}

int64_t SubgraphFrames::subgraphSize(int64_t node, int32_t subgraph) const {
    if (node < 0 || node >= static_cast<int64_t>(graph_.nodes.size())) return 0;
    const auto& subs = graph_.nodes[static_cast<size_t>(node)].subgraphs;
    if (subgraph < 0 || subgraph >= static_cast<int32_t>(subs.size()) || !subs[static_cast<size_t>(subgraph)].graph)
        return 0;
    return static_cast<int64_t>(subs[static_cast<size_t>(subgraph)].graph->nodes.size());
}

std::optional<SubgraphFrame> SubgraphFrames::frame() const {
    std::lock_guard lock(m_);
    return frame_;
}

bool SubgraphFrames::enterLocked(const Session& session, int64_t node, size_t call, int64_t cursor) {
    const auto calls = session.subgraphCalls(node);
    if (call >= calls.size()) return false;
    SubgraphFrame f;
    f.node = node;
    f.call = call;
    f.calls = calls.size();
    f.subgraph = calls[call].subgraph;
    f.iteration = calls[call].iteration;
    for (const auto& c : calls) f.iterationsOfIt += c.subgraph == f.subgraph;
    f.cursor = std::clamp<int64_t>(cursor, 0, subgraphSize(node, f.subgraph));
    f.callsBefore.assign(graph_.nodes[static_cast<size_t>(node)].subgraphs.size(), 0);
    for (size_t c = 0; c < call; ++c)
        if (calls[c].subgraph >= 0 && static_cast<size_t>(calls[c].subgraph) < f.callsBefore.size())
            ++f.callsBefore[static_cast<size_t>(calls[c].subgraph)];
    frame_ = f;
    return true;
}

bool SubgraphFrames::enter(const Session& session, int64_t node, size_t call, int64_t cursor) {
    std::lock_guard lock(m_);
    return enterLocked(session, node, call, cursor);
}

bool SubgraphFrames::view(const Session& session, size_t call) {
    std::lock_guard lock(m_);
    if (!frame_) return false;
    const auto calls = session.subgraphCalls(frame_->node);
    if (call >= calls.size()) return false;
    if (call == frame_->call) {
        frame_->viewedCall.reset();
        frame_->viewedSubgraph = -1;
        frame_->viewedIteration = -1;
        return true;
    }
    frame_->viewedCall = call;
    frame_->viewedSubgraph = calls[call].subgraph;
    frame_->viewedIteration = calls[call].iteration;
    return true;
}

void SubgraphFrames::leave() {
    std::lock_guard lock(m_);
    frame_.reset();
}

bool SubgraphFrames::step(const Session& session) {
    std::lock_guard lock(m_);
    if (!frame_) return false;
    frame_->viewedCall.reset();  // a step looks where the run stands again
    frame_->viewedSubgraph = -1;
    frame_->viewedIteration = -1;
    if (frame_->cursor < subgraphSize(frame_->node, frame_->subgraph)) {
        ++frame_->cursor;
        return true;
    }
    if (frame_->call + 1 < frame_->calls && enterLocked(session, frame_->node, frame_->call + 1, 0)) return true;
    frame_.reset();
    return false;
}

bool SubgraphFrames::runToBreakpoint(const Session& session, int64_t node) {
    std::lock_guard lock(m_);
    size_t startCall = 0;
    int64_t from = 0;
    if (frame_ && frame_->node == node) {
        startCall = frame_->call;
        from = frame_->cursor + 1;  // the node at the cursor runs first
    }
    const auto calls = session.subgraphCalls(node);
    for (size_t c = startCall; c < calls.size(); ++c) {
        const int32_t s = calls[c].subgraph;
        const int64_t size = subgraphSize(node, s);
        for (int64_t j = c == startCall ? from : 0; j < size; ++j)
            if (breakpoints_.count({node, s, j})) return enterLocked(session, node, c, j);
    }
    frame_.reset();
    return false;
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
    std::lock_guard lock(m_);
    auto it = breakpoints_.lower_bound({node, INT32_MIN, INT64_MIN});
    return it != breakpoints_.end() && it->node == node;
}

std::string SubgraphFrames::qualifiedName(const std::string& node, const std::string& subgraph,
                                          const std::string& tensor) {
    return node + "/" + subgraph + "/" + tensor;
}

std::optional<SubgraphFrames::Resolved> SubgraphFrames::resolve(const std::string& qualified) const {
    const size_t a = qualified.find('/');
    const size_t b = a == std::string::npos ? a : qualified.find('/', a + 1);
    if (b == std::string::npos) return std::nullopt;
    auto op = opsWithSubgraphs_.find(qualified.substr(0, a));
    if (op == opsWithSubgraphs_.end()) return std::nullopt;
    const std::string subName = qualified.substr(a + 1, b - a - 1);
    Resolved r;
    r.node = op->second;
    r.tensor = qualified.substr(b + 1);
    const auto& subs = graph_.nodes[static_cast<size_t>(r.node)].subgraphs;
    for (size_t s = 0; s < subs.size(); ++s)
        if (subs[s].name == subName && subs[s].graph) r.subgraph = static_cast<int32_t>(s);
    if (r.subgraph < 0) return std::nullopt;
    const auto& sub = *subs[static_cast<size_t>(r.subgraph)].graph;
    for (size_t j = 0; j < sub.nodes.size() && r.producer < 0; ++j)
        for (const auto& o : sub.nodes[j].outputs)
            if (o.name == r.tensor) r.producer = static_cast<int64_t>(j);
    return r;
}

bool SubgraphFrames::value(const Session& session, const std::string& qualified, at::Tensor& out) const {
    const auto r = resolve(qualified);
    if (!r) return false;
    size_t call = SIZE_MAX, before = SIZE_MAX;
    {
        std::lock_guard lock(m_);
        if (frame_ && frame_->node == r->node && frame_->viewedCall && frame_->viewedSubgraph == r->subgraph) {
            call = *frame_->viewedCall;  // a call looked at: every value of it
        } else if (frame_ && frame_->node == r->node && frame_->subgraph == r->subgraph) {
            if (r->producer >= frame_->cursor) return false;  // not reached yet
            call = frame_->call;
        } else if (frame_ && frame_->node == r->node) {
            before = frame_->viewedCall.value_or(frame_->call);  // another subgraph of the op: its calls so far only
        }
    }
    if (call == SIZE_MAX) {
        const auto calls = session.subgraphCalls(r->node);
        for (size_t c = std::min(calls.size(), before); c-- > 0;)
            if (calls[c].subgraph == r->subgraph) {
                call = c;
                break;
            }
        if (call == SIZE_MAX) return false;
    }
    return session.subgraphValue(r->node, call, r->tensor, out);
}

}  // namespace irscope::exec
