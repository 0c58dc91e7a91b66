// Building the ModuleTree from recorded module paths (recorded_modules.h).
#include "core/modules/recorded_modules.h"

namespace irscope::modules {

bool hasRecordedModules(const ir::Graph& graph) {
    for (const auto& node : graph.nodes)
        if (node.modulePath) return true;
    return false;
}

ModuleTree recordedModuleTree(const ir::Graph& graph) {
    ModuleTree tree;
    std::vector<std::pair<ModuleId, int64_t>> weightOwners;
    weightOwners.reserve(graph.weights.size());
    for (const auto& w : graph.weights)
        weightOwners.emplace_back(tree.ensure(weightModulePath(w.name)), ir::elementCount(w.shape).value_or(0));
    tree.setNodeCount(graph.nodes.size());
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
        const auto& path = graph.nodes[n].modulePath;
        tree.assignNode(static_cast<int64_t>(n), path && !path->empty() ? tree.ensure(*path) : kRootModule);
    }
    tree.finish(weightOwners);
    return tree;
}

}  // namespace irscope::modules
