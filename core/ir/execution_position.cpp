// Reads, writes and resolves execution positions (execution_position.h).
#include "core/ir/execution_position.h"

#include <charconv>

namespace irscope::ir {

std::string ExecutionPosition::text() const {
    std::string out;
    for (const auto& f : frames) {
        out += f.node;
        out += '/';
        out += f.subgraph;
        if (f.call > 0) {
            out += '#';
            out += std::to_string(f.call);
        }
        out += '/';
    }
    out += node;
    return out;
}

namespace {
// Built by appending: GCC 12 at -O2 warns (-Wrestrict, a false positive) on
// `"'" + std::string(...)`, and CI builds with -Werror.
std::string quoted(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '\'';
    out += text;
    out += '\'';
    return out;
}
}  // namespace

std::optional<ExecutionPosition> parsePosition(std::string_view text, std::string& why) {
    std::vector<std::string_view> parts;
    for (size_t start = 0;;) {
        const size_t slash = text.find('/', start);
        parts.push_back(text.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
        if (slash == std::string_view::npos) break;
        start = slash + 1;
    }
    for (const auto& p : parts)
        if (p.empty()) {
            why = quoted(text) + " has an empty step (a position reads op/subgraph/.../node)";
            return std::nullopt;
        }
    if (parts.size() % 2 == 0) {
        why = quoted(text) + " ends in a subgraph, not a node (a position reads op/subgraph[#call]/.../node)";
        return std::nullopt;
    }
    ExecutionPosition p;
    for (size_t k = 0; k + 1 < parts.size(); k += 2) {
        PositionStep step;
        step.node = std::string(parts[k]);
        std::string_view sub = parts[k + 1];
        if (const size_t hash = sub.find('#'); hash != std::string_view::npos) {
            const std::string_view number = sub.substr(hash + 1);
            int64_t call = 0;
            const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), call);
            if (ec != std::errc() || end != number.data() + number.size() || call < 1) {
                why = quoted(sub) + " in " + quoted(text) + ": the call after '#' is a number from 1 (the first call)";
                return std::nullopt;
            }
            step.call = call;
            sub = sub.substr(0, hash);
        }
        step.subgraph = std::string(sub);
        p.frames.push_back(std::move(step));
    }
    p.node = std::string(parts.back());
    return p;
}

bool callsRepeatedly(const OpNode& op) {
    return op.opType == "while_loop" || op.opType == "scan" || op.opType == "map_impl" || op.opType == "map";
}

namespace {

// A node by its name, or by the name of a tensor it makes.
std::optional<int64_t> nodeNamed(const Graph& graph, const std::string& name) {
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        if (graph.nodes[i].name == name) return static_cast<int64_t>(i);
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        for (const auto& o : graph.nodes[i].outputs)
            if (o.name == name) return static_cast<int64_t>(i);
    return std::nullopt;
}

std::string where(const std::vector<ResolvedStep>& frames) {
    if (frames.empty()) return "the program";
    const ResolvedStep& f = frames.back();
    const OpNode& op = f.graph->nodes[static_cast<size_t>(f.node)];
    return "subgraph '" + op.subgraphs[static_cast<size_t>(f.subgraph)].name + "' of '" + op.name + "'";
}

}  // namespace

std::optional<ResolvedPosition> resolvePosition(const Graph& program, const ExecutionPosition& position,
                                                std::string& why) {
    ResolvedPosition r;
    const Graph* graph = &program;
    for (const auto& step : position.frames) {
        const auto op = nodeNamed(*graph, step.node);
        if (!op) {
            why = "no node '" + step.node + "' in " + where(r.frames);
            return std::nullopt;
        }
        const OpNode& node = graph->nodes[static_cast<size_t>(*op)];
        if (node.subgraphs.empty()) {
            why = "'" + step.node + "' (" + node.opType + ") in " + where(r.frames) +
                  " is not a higher-order op: it has no subgraph to step into";
            return std::nullopt;
        }
        int32_t sub = -1;
        std::string names;
        for (size_t k = 0; k < node.subgraphs.size(); ++k) {
            if (node.subgraphs[k].name == step.subgraph) sub = static_cast<int32_t>(k);
            names += (k ? ", " : "") + node.subgraphs[k].name;
        }
        if (sub < 0 || !node.subgraphs[static_cast<size_t>(sub)].graph) {
            why = "'" + step.node + "' has no subgraph '" + step.subgraph + "' (it has " + names + ")";
            return std::nullopt;
        }
        r.frames.push_back({graph, *op, sub, step.call});
        graph = node.subgraphs[static_cast<size_t>(sub)].graph.get();
    }
    const auto node = nodeNamed(*graph, position.node);
    if (!node) {
        why = "no node '" + position.node + "' in " + where(r.frames);
        return std::nullopt;
    }
    r.graph = graph;
    r.node = *node;
    return r;
}

const Graph* subgraphAtPath(const Graph& program, std::string_view path) {
    const Graph* g = &program;
    size_t at = 0;
    while (g && at <= path.size()) {
        const size_t a = path.find('/', at);
        if (a == std::string_view::npos) return nullptr;
        const size_t b = path.find('/', a + 1);
        const std::string_view op = path.substr(at, a - at);
        const std::string_view sub =
            path.substr(a + 1, b == std::string_view::npos ? std::string_view::npos : b - a - 1);
        const Graph* next = nullptr;
        for (const auto& n : g->nodes) {
            if (n.name != op) continue;
            for (const auto& s : n.subgraphs)
                if (s.name == sub) next = s.graph.get();
            break;
        }
        g = next;
        if (b == std::string_view::npos) return g;
        at = b + 1;
    }
    return nullptr;
}

bool splitSubgraphPath(std::string_view path, std::string& enclosing, std::string& op) {
    const size_t sub = path.rfind('/');
    if (sub == std::string_view::npos || sub == 0) return false;
    const size_t opStart = path.rfind('/', sub - 1);
    if (opStart == std::string_view::npos) {
        enclosing.clear();
        op = std::string(path.substr(0, sub));
        return true;
    }
    enclosing = std::string(path.substr(0, opStart));
    op = std::string(path.substr(opStart + 1, sub - opStart - 1));
    return true;
}

}  // namespace irscope::ir
