#pragma once
// The rows of the window's Changes dock, one per difference, in the order the
// graph runs: what F8 / Shift+F8 step through. Computed here (torch-free, Qt-
// free) so the dock only displays them.
#include <cstdint>
#include <string>
#include <vector>

#include "core/diff/graph_diff.h"
#include "core/modules/module_tree.h"

namespace irscope::diff {

struct ChangeRow {
    enum class Kind { NodeChanged, NodeAdded, NodeRemoved, NodeRenamed, Weight, GraphInput, GraphOutput };
    enum class Change { Changed, Added, Removed, Renamed };
    Kind kind = Kind::NodeChanged;
    Change change = Change::Changed;
    int64_t a = -1;  // node / weights[] / graph input / graph output index in A (-1: none)
    int64_t b = -1;  // the same in B
    std::string nameA, nameB;
    std::string opType;  // B's (A's for a removed node)
    std::string module;  // the node's module path ("" = the model)
    std::string what;    // "op_type, attrs" / "shape" / ""
    std::string detail;  // the lines of the change, joined by "; "

    bool isNode() const { return kind <= Kind::NodeRenamed; }
};

// Node rows in execution order (a removed node where its neighbours are in
// B), then weights, graph inputs and graph outputs. Renamed-only nodes are
// included (the dock can hide them); treeA / treeB may be null (no modules).
std::vector<ChangeRow> changeRows(const GraphDiff& diff, const ir::GraphIndex& a, const ir::GraphIndex& b,
                                  const modules::ModuleTree* treeA, const modules::ModuleTree* treeB);

// Per module of each side: how many changed, added (B) or removed (A) nodes
// lie in it or below it, for "contains changes" on collapsed module boxes.
std::vector<int32_t> changesInsideModules(const std::vector<NodeDiffState>& states, const modules::ModuleTree& tree);

// Per module: which kinds of change lie in it or below (bits below), so that a
// collapsed box whose changes are all additions reads green and all removals
// red, like its nodes, and only a mix (or an edit) reads amber.
enum ModuleChangeKind : uint8_t { kModuleHasChanged = 1, kModuleHasAdded = 2, kModuleHasRemoved = 4 };
std::vector<uint8_t> changeKindsInsideModules(const std::vector<NodeDiffState>& states,
                                              const modules::ModuleTree& tree);

}  // namespace irscope::diff
