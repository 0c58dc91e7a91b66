#pragma once
// Changes counted per module ("layers.3.mlp: 2 changed, 1 added"), the level
// at which a reader of a diff thinks. A node counts in its own (innermost)
// module: B's module for what B has, A's for what was removed.
#include <cstdint>
#include <string>
#include <vector>

#include "core/diff/graph_diff.h"
#include "core/modules/module_tree.h"

namespace irscope::diff {

struct ModuleChanges {
    std::string path;  // "" = the root module
    int64_t changed = 0;
    int64_t added = 0;
    int64_t removed = 0;
    int64_t renamed = 0;
    // Nodes, for listing under the module: B indices (changed, added, renamed) and A indices (removed).
    std::vector<int64_t> changedNodes;  // indices into GraphDiff::changedNodes
    std::vector<int64_t> addedNodes;
    std::vector<int64_t> removedNodes;
    std::vector<int64_t> renamedNodes;  // indices into GraphDiff::renamedNodes
};

// Only modules with a change, in the order their first change executes.
std::vector<ModuleChanges> changesByModule(const GraphDiff& diff, const modules::ModuleTree& treeA,
                                           const modules::ModuleTree& treeB);

}  // namespace irscope::diff
