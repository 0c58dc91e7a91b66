// Reads the recorded higher-order calls by position (call_paths.h).
#include "core/exec/engine/call_paths.h"

#include "core/io/tensor_map.h"

namespace irscope::exec {
namespace {

using Calls = std::map<int64_t, std::vector<Executor::SubgraphCall>>;

// The frame step of call `c` of op `node` (numbered when the op repeats).
ir::PositionStep stepOf(const ir::OpNode& node, const Executor::SubgraphCall& c) {
    ir::PositionStep s;
    s.node = node.name;
    s.subgraph = c.subgraph < node.subgraphs.size() ? node.subgraphs[c.subgraph].name : "?";
    if (ir::callsRepeatedly(node)) s.call = c.iteration + 1;
    return s;
}

void walk(const ir::Graph& graph, const std::vector<ir::PositionStep>& frames, const Calls& calls,
          const std::map<int64_t, size_t>& branches, const std::map<int64_t, int64_t>& iterations,
          const std::map<int64_t, int64_t>& unrecorded, std::vector<HigherOrderRun>& out) {
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
        const ir::OpNode& node = graph.nodes[i];
        const auto n = static_cast<int64_t>(i);
        const auto b = branches.find(n);
        const auto it = iterations.find(n);
        const auto c = calls.find(n);
        if (b == branches.end() && it == iterations.end() && c == calls.end()) continue;
        HigherOrderRun run;
        run.position.frames = frames;
        run.position.node = node.name;
        run.op = node.opType;
        if (b != branches.end() && b->second < node.subgraphs.size()) run.branch = node.subgraphs[b->second].name;
        if (it != iterations.end()) run.iterations = it->second;
        if (const auto u = unrecorded.find(n); u != unrecorded.end()) run.unrecordedCalls = u->second;
        out.push_back(std::move(run));
        if (c == calls.end()) continue;
        for (const auto& call : c->second) {
            if (call.subgraph >= node.subgraphs.size() || !node.subgraphs[call.subgraph].graph) continue;
            auto inner = frames;
            inner.push_back(stepOf(node, call));
            walk(*node.subgraphs[call.subgraph].graph, inner, call.inner, call.branches, call.iterations,
                 call.unrecorded, out);
        }
    }
}

void collectValues(const ir::Graph& graph, const std::vector<ir::PositionStep>& frames, const Calls& calls,
                   io::TensorMap& out) {
    for (const auto& [n, list] : calls) {
        const ir::OpNode& node = graph.nodes[static_cast<size_t>(n)];
        for (const auto& call : list) {
            if (call.subgraph >= node.subgraphs.size() || !node.subgraphs[call.subgraph].graph) continue;
            const ir::Graph& sub = *node.subgraphs[call.subgraph].graph;
            auto inner = frames;
            inner.push_back(stepOf(node, call));
            ir::ExecutionPosition p;
            p.frames = inner;
            auto add = [&](const std::string& name) {
                const auto v = call.values.find(name);
                if (v == call.values.end() || !v->second.defined()) return;
                p.node = name;
                out.insert(p.text(), v->second);
            };
            for (const auto& in : sub.graphInputs) add(in.name);
            for (const auto& sn : sub.nodes)
                for (const auto& o : sn.outputs) add(o.name);
            collectValues(sub, inner, call.inner, out);
        }
    }
}

}  // namespace

std::vector<HigherOrderRun> higherOrderRuns(const ir::Graph& program, const Executor& executor) {
    std::vector<HigherOrderRun> out;
    std::map<int64_t, int64_t> unrecorded;
    for (const auto& [n, list] : executor.allSubgraphCalls())
        if (const int64_t u = executor.unrecordedCalls(n); u > 0) unrecorded[n] = u;
    walk(program, {}, executor.allSubgraphCalls(), executor.takenBranches(), executor.iterations(), unrecorded, out);
    return out;
}

const Executor::SubgraphCall* callAt(const Executor& executor, const ir::ResolvedPosition& position, std::string& why) {
    const Calls* calls = &executor.allSubgraphCalls();
    const Executor::SubgraphCall* found = nullptr;
    for (const auto& f : position.frames) {
        const ir::OpNode& op = f.graph->nodes[static_cast<size_t>(f.node)];
        const std::string sub = op.subgraphs[static_cast<size_t>(f.subgraph)].name;
        const auto list = calls->find(f.node);
        const int64_t wanted = f.call > 0 ? f.call - 1 : 0;
        found = nullptr;
        int64_t made = 0;
        if (list != calls->end())
            for (const auto& c : list->second)
                if (static_cast<int32_t>(c.subgraph) == f.subgraph) {
                    ++made;
                    if (c.iteration == wanted) found = &c;
                }
        if (!found) {
            why = made == 0 ? "'" + op.name + "' did not run its subgraph '" + sub + "'"
                            : "'" + op.name + "' ran '" + sub + "' " + std::to_string(made) + " time" +
                                  (made == 1 ? "" : "s") + " (recorded), not " + std::to_string(wanted + 1);
            return nullptr;
        }
        calls = &found->inner;
    }
    return found;
}

void recordedCallValues(const ir::Graph& program, const Executor& executor, io::TensorMap& out) {
    collectValues(program, {}, executor.allSubgraphCalls(), out);
}

}  // namespace irscope::exec
