#include "core/modules/module_kind.h"

#include <string_view>

#include "core/layout/op_family.h"

namespace irscope::modules {
namespace {

// What the ops directly in a module, and the kinds of its children, contain.
struct Traits {
    bool attention = false, topk = false, stack = false, linear = false, conv = false, embedding = false;
    bool norm = false, activation = false;
    int linearChildren = 0;
};

std::string_view base(std::string_view op) {
    if (op.starts_with("aten.")) op.remove_prefix(5);
    if (auto dot = op.find('.'); dot != std::string_view::npos) op = op.substr(0, dot);
    while (op.starts_with('_')) op.remove_prefix(1);
    return op;
}

void addOp(Traits& t, const std::string& opType) {
    const auto b = base(opType);
    const auto family = layout::classifyOp(opType);
    if (family == layout::OpFamily::Attention || b == "softmax") t.attention = true;
    if (b == "topk") t.topk = true;
    if (b == "stack") t.stack = true;
    if (b.starts_with("conv"))
        t.conv = true;
    else if (b.starts_with("embedding"))
        t.embedding = true;
    else if (family == layout::OpFamily::ConvLinear)
        t.linear = true;
    if (family == layout::OpFamily::Normalization || b == "rsqrt") t.norm = true;
    if (family == layout::OpFamily::Activation && b != "softmax") t.activation = true;
}

}  // namespace

std::vector<std::string> moduleKinds(const ModuleTree& tree, const ir::Graph& graph) {
    const size_t count = tree.size();
    std::vector<Traits> traits(count);
    std::vector<std::string> kinds(count);
    for (size_t m = 0; m < count; ++m)
        for (int64_t n : tree.module(static_cast<ModuleId>(m)).nodes)
            addOp(traits[m], graph.nodes[static_cast<size_t>(n)].opType);
    // Children have larger ids than their parents: a reverse sweep sees them first.
    for (size_t k = count; k-- > 0;) {
        const Module& m = tree.module(static_cast<ModuleId>(k));
        Traits& t = traits[k];
        bool childAttention = false, childMix = false, childNorm = false;
        for (ModuleId c : m.children) {
            const auto& ck = kinds[static_cast<size_t>(c)];
            const Traits& ct = traits[static_cast<size_t>(c)];
            if (ck == "linear") ++t.linearChildren;
            if (ck == "attention") childAttention = true;
            if (ck == "MLP" || ck == "MoE") childMix = true;
            if (ck == "norm") childNorm = true;
            // Fold the subtree's traits in, for the tests below at this level.
            t.attention |= ct.attention;
            t.topk |= ct.topk;
            t.stack |= ct.stack;
            t.conv |= ct.conv;
            t.activation |= ct.activation;
        }
        std::string kind;
        if (m.isList)
            kind = "list";
        else if (childAttention && (childMix || childNorm))
            kind = "layer";
        else if (t.topk && (t.stack || m.children.size() > 1))
            kind = "MoE";
        else if (t.topk && !t.attention)
            kind = "router";
        else if (t.attention)
            kind = "attention";
        else if (m.children.empty() && t.embedding)
            kind = "embedding";
        else if (m.children.empty() && t.conv)
            kind = "conv";
        else if (m.children.empty() && t.linear && m.nodes.size() <= 3)
            kind = "linear";
        else if (m.children.empty() && t.norm && !t.linear)
            kind = "norm";
        else if (t.linearChildren >= 2 && t.activation)
            kind = "MLP";
        else if (t.conv)
            kind = "conv block";
        else
            kind = "module";
        kinds[k] = std::move(kind);
    }
    if (!kinds.empty()) kinds[kRootModule] = "model";
    // A recorded module is what its own code calls it (a .pt2's nn_module_stack).
    for (size_t k = 1; k < count; ++k)
        if (const auto it = graph.moduleClasses.find(tree.module(static_cast<ModuleId>(k)).path);
            it != graph.moduleClasses.end() && !it->second.empty())
            kinds[k] = it->second;
    return kinds;
}

}  // namespace irscope::modules
