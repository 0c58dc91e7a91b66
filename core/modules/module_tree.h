#pragma once
// ModuleTree: the nn.Module hierarchy of a graph, every op node in exactly one
// module. torch_ir files carry no nn_module_stack, so their tree is inferred
// (module_inference.h); a .pt2 records it (recorded_modules.h). This file is
// only the data and its queries, so the
// CLI (`irscope modules`), the collapsed drawing, the Modules dock and the
// debugger's call stack all read one structure.
//
// Module 0 is the root (path ""). A module's path is its dotted state_dict
// prefix ("layers.3.self_attn"); a ModuleList ("layers", "mlp.experts") is a
// module too, flagged isList: its children are named by index and it never
// holds ops itself (a ModuleList has no forward()).
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/natural_order.h"

namespace irscope::modules {

using ModuleId = int32_t;
inline constexpr ModuleId kRootModule = 0;
inline constexpr ModuleId kNoModule = -1;

struct Module {
    std::string path;  // "" for the root
    std::string name;  // last path component ("self_attn", "3"); "" for the root
    ModuleId parent = kNoModule;
    std::vector<ModuleId> children;  // first execution first; modules without ops last, natural order
    int32_t depth = 0;               // root 0
    bool isList = false;             // every child is named by an integer

    std::vector<int64_t> nodes;  // op nodes directly in this module, execution order
    // Over the module and everything below it:
    int64_t opCount = 0;
    int64_t weightCount = 0;     // weights (state_dict / constant names) whose module is here or below
    int64_t parameterCount = 0;  // elements of those weights
    int64_t firstNode = -1;      // smallest / largest node index inside (-1: no ops)
    int64_t lastNode = -1;
};

class ModuleTree {
public:
    ModuleTree();

    const std::vector<Module>& modules() const { return modules_; }
    const Module& module(ModuleId id) const { return modules_[static_cast<size_t>(id)]; }
    size_t size() const { return modules_.size(); }

    // Module of each op node (index = node index).
    const std::vector<ModuleId>& nodeModules() const { return nodeModule_; }
    ModuleId moduleOfNode(int64_t node) const { return nodeModule_[static_cast<size_t>(node)]; }

    ModuleId find(std::string_view path) const;  // kNoModule if absent
    bool isAncestorOrSelf(ModuleId ancestor, ModuleId m) const;
    ModuleId commonAncestor(ModuleId a, ModuleId b) const;
    // The ancestor-or-self of m that is a direct child of `ancestor` (kNoModule
    // when m is not strictly below it).
    ModuleId childToward(ModuleId ancestor, ModuleId m) const;
    // Root-to-module chain, root first ("", "layers", "layers.3", ...).
    std::vector<ModuleId> pathFromRoot(ModuleId m) const;

    // ---- building (module_inference.cpp and tests)
    ModuleId ensure(std::string_view path);  // creates the path and its ancestors
    void setNodeCount(size_t nodes) { nodeModule_.assign(nodes, kNoModule); }
    void assignNode(int64_t node, ModuleId m) { nodeModule_[static_cast<size_t>(node)] = m; }
    // Fills nodes, counts and first/last from nodeModules(); orders children;
    // weightOwners: for each weight, its module and element count.
    void finish(const std::vector<std::pair<ModuleId, int64_t>>& weightOwners);
    // Sets Module::isList from the children's names (finish() calls it too).
    void markLists();

private:
    std::vector<Module> modules_;
    std::vector<ModuleId> nodeModule_;
    struct PathHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, ModuleId, PathHash, std::equal_to<>> byPath_;
};

// The module a weight belongs to: its original name minus the last component
// ("layers.3.self_attn.q_proj.weight" -> "layers.3.self_attn.q_proj"; "scale" -> "").
std::string_view weightModulePath(std::string_view originalName);

// Orders names as people count: "layers.9" before "layers.10" (core/ir/natural_order.h).
using ir::naturalLess;

}  // namespace irscope::modules
