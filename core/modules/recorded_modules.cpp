// Building the ModuleTree from recorded module paths (recorded_modules.h).
#include "core/modules/recorded_modules.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace irscope::modules {

bool hasRecordedModules(const ir::Graph& graph) {
    for (const auto& node : graph.nodes)
        if (node.recordedModule()) return true;
    return false;
}

namespace {

constexpr int64_t kNone = -1;

// A ModuleList element's position ("layers.3" -> 3).
int64_t elementPosition(const Module& element) {
    int64_t v = 0;
    const auto* first = element.name.data();
    const auto [end, ec] = std::from_chars(first, first + element.name.size(), v);
    return ec == std::errc() && end == first + element.name.size() ? v : kNone;
}

// Ops the list's parent records between and beside its elements go where
// they run (recorded_modules.h): for each ModuleList L and its parent P,
// every op directly in P is measured by the elements it reads from and
// feeds, through other such ops (`up`: the latest element upstream, `down`:
// the first and last element downstream).
void adoptElementOps(ModuleTree& tree, const ir::Graph& graph, const ir::GraphIndex& index) {
    const auto n = static_cast<int64_t>(graph.nodes.size());
    // The ops directly in each module, kept as ops move (into elements).
    std::vector<std::vector<int64_t>> opsIn(tree.size());
    for (int64_t v = 0; v < n; ++v) opsIn[static_cast<size_t>(tree.moduleOfNode(v))].push_back(v);
    // Outer lists first: an op a model's forward runs for layer 3 joins
    // layer 3, and from there whatever list layer 3 holds.
    std::vector<ModuleId> lists;
    for (ModuleId m = 0; m < static_cast<ModuleId>(tree.size()); ++m)
        if (tree.module(m).isList && tree.module(m).parent != kNoModule) lists.push_back(m);
    auto depth = [&](ModuleId m) { return std::count(tree.module(m).path.begin(), tree.module(m).path.end(), '.'); };
    std::stable_sort(lists.begin(), lists.end(), [&](ModuleId a, ModuleId b) { return depth(a) < depth(b); });

    std::vector<int64_t> up(static_cast<size_t>(n)), downFirst(static_cast<size_t>(n)),
        downLast(static_cast<size_t>(n));
    for (const ModuleId list : lists) {
        const Module& l = tree.module(list);
        const ModuleId parent = l.parent;
        auto& ops = opsIn[static_cast<size_t>(parent)];
        if (ops.empty()) continue;
        std::sort(ops.begin(), ops.end());
        std::vector<ModuleId> elementAt;  // position -> element module
        for (const ModuleId child : l.children) {
            const int64_t pos = elementPosition(tree.module(child));
            if (pos < 0) continue;
            if (static_cast<size_t>(pos) >= elementAt.size()) elementAt.resize(static_cast<size_t>(pos) + 1, kNoModule);
            elementAt[static_cast<size_t>(pos)] = child;
        }
        // The element a node runs in (kNone: not inside the list).
        auto elementOfNode = [&](int64_t node) -> int64_t {
            const ModuleId c = tree.childToward(list, tree.moduleOfNode(node));
            return c == kNoModule ? kNone : elementPosition(tree.module(c));
        };
        auto inParent = [&](int64_t node) { return tree.moduleOfNode(node) == parent; };
        for (const int64_t v : ops) {  // upstream, in execution order
            int64_t& u = up[static_cast<size_t>(v)];
            u = kNone;
            for (const int64_t p : index.producerNodes(v))
                u = std::max(u, inParent(p) ? up[static_cast<size_t>(p)] : elementOfNode(p));
        }
        for (auto it = ops.rbegin(); it != ops.rend(); ++it) {  // downstream, against it
            const int64_t v = *it;
            int64_t& first = downFirst[static_cast<size_t>(v)];
            int64_t& last = downLast[static_cast<size_t>(v)];
            first = std::numeric_limits<int64_t>::max();
            last = kNone;
            for (const int64_t c : index.consumerNodes(v)) {
                int64_t f = kNone, l2 = kNone;
                if (inParent(c)) {
                    f = downFirst[static_cast<size_t>(c)];
                    l2 = downLast[static_cast<size_t>(c)];
                } else {
                    f = l2 = elementOfNode(c);
                }
                if (l2 == kNone) continue;
                first = std::min(first, f);
                last = std::max(last, l2);
            }
        }
        std::vector<int64_t> stay;
        for (const int64_t v : ops) {
            const int64_t from = up[static_cast<size_t>(v)], first = downFirst[static_cast<size_t>(v)],
                          last = downLast[static_cast<size_t>(v)];
            int64_t to = kNone;
            if (from != kNone && last != kNone && first >= from)
                to = from;  // within or between elements: the side that made it (the residual add ending layer 3)
            else if (from == kNone && last != kNone && first == last)
                to = first;  // made for one element only (its rotary table, its cache concatenation)
            const ModuleId into = to != kNone && static_cast<size_t>(to) < elementAt.size()
                                      ? elementAt[static_cast<size_t>(to)]
                                      : kNoModule;
            if (into == kNoModule) {
                stay.push_back(v);
                continue;
            }
            tree.assignNode(v, into);
            opsIn[static_cast<size_t>(into)].push_back(v);
        }
        ops = std::move(stay);
    }
}

}  // namespace

ModuleTree recordedModuleTree(const ir::Graph& graph, const ir::GraphIndex& index) {
    ModuleTree tree;
    std::vector<std::pair<ModuleId, int64_t>> weightOwners;
    weightOwners.reserve(graph.weights.size());
    for (const auto& w : graph.weights)
        weightOwners.emplace_back(tree.ensure(weightModulePath(w.name)), ir::elementCount(w.shape).value_or(0));
    tree.setNodeCount(graph.nodes.size());
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
        const auto& path = graph.nodes[n].recordedModule();
        tree.assignNode(static_cast<int64_t>(n), path && !path->empty() ? tree.ensure(*path) : kRootModule);
    }
    tree.markLists();
    adoptElementOps(tree, graph, index);
    tree.finish(weightOwners);
    return tree;
}

}  // namespace irscope::modules
