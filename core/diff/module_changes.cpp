#include "core/diff/module_changes.h"

#include <algorithm>
#include <map>

namespace irscope::diff {

std::vector<ModuleChanges> changesByModule(const GraphDiff& diff, const modules::ModuleTree& treeA,
                                           const modules::ModuleTree& treeB) {
    std::map<std::string, ModuleChanges> byPath;
    std::map<std::string, int64_t> firstNode;  // where the module's first change is, for execution order
    auto entry = [&](const modules::ModuleTree& tree, int64_t node) -> ModuleChanges& {
        const auto& nodeModules = tree.nodeModules();
        std::string path;
        if (node >= 0 && static_cast<size_t>(node) < nodeModules.size() && nodeModules[static_cast<size_t>(node)] >= 0)
            path = tree.module(nodeModules[static_cast<size_t>(node)]).path;
        auto& m = byPath[path];
        m.path = path;
        auto [it, fresh] = firstNode.emplace(path, node);
        if (!fresh) it->second = std::min(it->second, node);
        return m;
    };
    for (size_t i = 0; i < diff.changedNodes.size(); ++i) {
        auto& m = entry(treeB, diff.changedNodes[i].b);
        ++m.changed;
        m.changedNodes.push_back(static_cast<int64_t>(i));
    }
    for (int64_t b : diff.addedNodes) {
        auto& m = entry(treeB, b);
        ++m.added;
        m.addedNodes.push_back(b);
    }
    for (int64_t a : diff.removedNodes) {
        auto& m = entry(treeA, a);
        ++m.removed;
        m.removedNodes.push_back(a);
    }
    for (size_t i = 0; i < diff.renamedNodes.size(); ++i) {
        auto& m = entry(treeB, diff.renamedNodes[i].second);
        ++m.renamed;
        m.renamedNodes.push_back(static_cast<int64_t>(i));
    }
    std::vector<ModuleChanges> out;
    out.reserve(byPath.size());
    for (auto& [path, m] : byPath) out.push_back(std::move(m));
    // Execution order, as the graph reads; a removed node's A index stands in
    // for a position in B, close enough to place a module that only lost nodes.
    std::stable_sort(out.begin(), out.end(), [&](const ModuleChanges& x, const ModuleChanges& y) {
        return firstNode[x.path] < firstNode[y.path];
    });
    return out;
}

}  // namespace irscope::diff
