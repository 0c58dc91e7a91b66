#include "core/modules/module_tree.h"

#include <algorithm>
#include <cctype>

namespace irscope::modules {

std::string_view weightModulePath(std::string_view originalName) {
    const auto dot = originalName.rfind('.');
    return dot == std::string_view::npos ? std::string_view{} : originalName.substr(0, dot);
}

ModuleTree::ModuleTree() {
    modules_.push_back(Module{});
    byPath_.emplace("", kRootModule);
}

ModuleId ModuleTree::find(std::string_view path) const {
    auto it = byPath_.find(path);
    return it == byPath_.end() ? kNoModule : it->second;
}

ModuleId ModuleTree::ensure(std::string_view path) {
    if (auto it = byPath_.find(path); it != byPath_.end()) return it->second;
    const auto dot = path.rfind('.');
    const ModuleId parent = dot == std::string_view::npos ? kRootModule : ensure(path.substr(0, dot));
    Module m;
    m.path = std::string(path);
    m.name = std::string(dot == std::string_view::npos ? path : path.substr(dot + 1));
    m.parent = parent;
    m.depth = modules_[static_cast<size_t>(parent)].depth + 1;
    const auto id = static_cast<ModuleId>(modules_.size());
    modules_.push_back(std::move(m));
    modules_[static_cast<size_t>(parent)].children.push_back(id);
    byPath_.emplace(std::string(path), id);
    return id;
}

bool ModuleTree::isAncestorOrSelf(ModuleId ancestor, ModuleId m) const {
    while (m != kNoModule && module(m).depth > module(ancestor).depth) m = module(m).parent;
    return m == ancestor;
}

ModuleId ModuleTree::commonAncestor(ModuleId a, ModuleId b) const {
    if (a == kNoModule) return b;
    if (b == kNoModule) return a;
    while (module(a).depth > module(b).depth) a = module(a).parent;
    while (module(b).depth > module(a).depth) b = module(b).parent;
    while (a != b) {
        a = module(a).parent;
        b = module(b).parent;
    }
    return a;
}

ModuleId ModuleTree::childToward(ModuleId ancestor, ModuleId m) const {
    if (m == kNoModule || module(m).depth <= module(ancestor).depth) return kNoModule;
    while (module(m).depth > module(ancestor).depth + 1) m = module(m).parent;
    return module(m).parent == ancestor ? m : kNoModule;
}

std::vector<ModuleId> ModuleTree::pathFromRoot(ModuleId m) const {
    std::vector<ModuleId> chain;
    for (; m != kNoModule; m = module(m).parent) chain.push_back(m);
    std::reverse(chain.begin(), chain.end());
    return chain;
}

void ModuleTree::finish(const std::vector<std::pair<ModuleId, int64_t>>& weightOwners) {
    for (auto& m : modules_) {
        m.nodes.clear();
        m.opCount = m.weightCount = m.parameterCount = 0;
        m.firstNode = m.lastNode = -1;
    }
    for (size_t n = 0; n < nodeModule_.size(); ++n) {
        const ModuleId id = nodeModule_[n] == kNoModule ? kRootModule : nodeModule_[n];
        nodeModule_[n] = id;
        modules_[static_cast<size_t>(id)].nodes.push_back(static_cast<int64_t>(n));
    }
    for (auto [owner, elements] : weightOwners) {
        if (owner == kNoModule) continue;
        modules_[static_cast<size_t>(owner)].weightCount += 1;
        modules_[static_cast<size_t>(owner)].parameterCount += elements;
    }
    // Children were created after their parents, so a reverse sweep sums bottom-up.
    for (size_t k = modules_.size(); k-- > 0;) {
        Module& m = modules_[k];
        m.opCount += static_cast<int64_t>(m.nodes.size());
        if (!m.nodes.empty()) {
            m.firstNode = m.firstNode < 0 ? m.nodes.front() : std::min(m.firstNode, m.nodes.front());
            m.lastNode = std::max(m.lastNode, m.nodes.back());
        }
        if (m.parent == kNoModule) continue;
        Module& p = modules_[static_cast<size_t>(m.parent)];
        p.opCount += m.opCount;
        p.weightCount += m.weightCount;
        p.parameterCount += m.parameterCount;
        if (m.firstNode >= 0) {
            p.firstNode = p.firstNode < 0 ? m.firstNode : std::min(p.firstNode, m.firstNode);
            p.lastNode = std::max(p.lastNode, m.lastNode);
        }
    }
    for (auto& m : modules_) {
        std::stable_sort(m.children.begin(), m.children.end(), [this](ModuleId a, ModuleId b) {
            const Module& x = module(a);
            const Module& y = module(b);
            if ((x.firstNode < 0) != (y.firstNode < 0)) return x.firstNode >= 0;
            if (x.firstNode >= 0 && x.firstNode != y.firstNode) return x.firstNode < y.firstNode;
            return naturalLess(x.name, y.name);
        });
    }
    markLists();
}

void ModuleTree::markLists() {
    for (auto& m : modules_) {
        m.isList = !m.children.empty() && std::all_of(m.children.begin(), m.children.end(), [this](ModuleId c) {
            const auto& n = module(c).name;
            return !n.empty() && std::all_of(n.begin(), n.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
        });
    }
}

}  // namespace irscope::modules
