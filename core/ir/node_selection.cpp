#include "core/ir/node_selection.h"

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace irscope::ir {

namespace {

int64_t nodeNamed(const GraphIndex& index, const std::string& name, const char* role) {
    if (auto i = index.nodeIndex(name)) return *i;
    throw std::invalid_argument(std::string(role) + ": no node named '" + name + "'");
}

std::vector<int64_t> sorted(std::vector<int64_t> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

}  // namespace

std::vector<std::string> splitNames(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(',', start);
        if (end == std::string::npos) end = text.size();
        std::string part = text.substr(start, end - start);
        const auto first = part.find_first_not_of(" \t");
        const auto last = part.find_last_not_of(" \t");
        if (first != std::string::npos) out.push_back(part.substr(first, last - first + 1));
        start = end + 1;
    }
    return out;
}

std::vector<int64_t> selectNodesByName(const GraphIndex& index, const std::vector<std::string>& names) {
    if (names.empty()) throw std::invalid_argument("--nodes: no node names given");
    std::vector<int64_t> out;
    for (const auto& n : names) out.push_back(nodeNamed(index, n, "--nodes"));
    return sorted(std::move(out));
}

std::vector<int64_t> selectNodesBetween(const GraphIndex& index, const std::string& from, const std::string& to) {
    const int64_t a = nodeNamed(index, from, "--from"), b = nodeNamed(index, to, "--to");
    const size_t n = index.graph().nodes.size();
    // Forward from a (execution order is topological), then back from b.
    std::vector<char> reached(n, 0), needed(n, 0);
    reached[static_cast<size_t>(a)] = 1;
    for (int64_t i = a + 1; i <= b; ++i)
        for (int64_t p : index.producerNodes(i))
            if (reached[static_cast<size_t>(p)]) {
                reached[static_cast<size_t>(i)] = 1;
                break;
            }
    needed[static_cast<size_t>(b)] = 1;
    std::vector<int64_t> out;
    for (int64_t i = b; i >= a; --i) {
        if (!needed[static_cast<size_t>(i)]) continue;
        for (int64_t p : index.producerNodes(i)) needed[static_cast<size_t>(p)] = 1;
        if (reached[static_cast<size_t>(i)]) out.push_back(i);
    }
    if (out.empty() || !reached[static_cast<size_t>(b)])
        throw std::invalid_argument("--from/--to: '" + to + "' does not depend on '" + from + "'" +
                                    (b < a ? " (it runs before it)" : ""));
    return sorted(std::move(out));
}

std::vector<int64_t> selectNodesAround(const GraphIndex& index, const std::string& center, int radius) {
    if (radius < 0) throw std::invalid_argument("--radius: must be 0 or more");
    const int64_t c = nodeNamed(index, center, "--around");
    std::vector<int> dist(index.graph().nodes.size(), -1);
    std::deque<int64_t> queue{c};
    dist[static_cast<size_t>(c)] = 0;
    std::vector<int64_t> out;
    while (!queue.empty()) {
        const int64_t i = queue.front();
        queue.pop_front();
        out.push_back(i);
        const int d = dist[static_cast<size_t>(i)];
        if (d == radius) continue;
        for (const auto& next : {index.producerNodes(i), index.consumerNodes(i)})
            for (int64_t j : next)
                if (dist[static_cast<size_t>(j)] < 0) {
                    dist[static_cast<size_t>(j)] = d + 1;
                    queue.push_back(j);
                }
    }
    return sorted(std::move(out));
}

}  // namespace irscope::ir
