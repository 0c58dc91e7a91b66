#include "core/exec/engine/alias_classes.h"
#include "core/exec/engine/uninitialized_ops.h"

#include <limits>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace irscope::exec {
namespace {

using Sets = std::unordered_set<c10::Symbol>;

// The alias sets an argument or return names, its list elements' included
// (`Tensor(a)[]`). The wildcard (`Tensor(*)`) names no set in particular:
// nothing can be concluded from it.
void collectSets(const c10::AliasInfo* info, Sets& out) {
    if (!info) return;
    for (const auto& s : info->beforeSets())
        if (s != c10::AliasInfo::wildcardSet()) out.insert(s);
    for (const auto& inner : info->containedTypes()) collectSets(&inner, out);
}

bool intersects(const Sets& a, const Sets& b) {
    for (const auto& s : a)
        if (b.count(s)) return true;
    return false;
}

struct UnionFind {
    std::vector<int32_t> parent;
    explicit UnionFind(int32_t n) : parent(static_cast<size_t>(n)) { std::iota(parent.begin(), parent.end(), 0); }
    int32_t find(int32_t x) {
        while (parent[static_cast<size_t>(x)] != x) {
            parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
            x = parent[static_cast<size_t>(x)];
        }
        return x;
    }
    // The smaller slot stays the representative: a root's set is named by it.
    void unite(int32_t a, int32_t b) {
        a = find(a);
        b = find(b);
        if (a == b) return;
        if (b < a) std::swap(a, b);
        parent[static_cast<size_t>(b)] = a;
    }
};

}  // namespace

AliasClasses computeAliasClasses(const ExecutionPlan& plan, const std::vector<std::unique_ptr<BoundOp>>& bound) {
    UnionFind uf(plan.slotCount);
    std::vector<std::pair<int32_t, int32_t>> writes;  // (slot, node) of every write
    std::vector<int32_t> uninitializedOutputs;        // output slots of empty / new_empty
    for (size_t i = 0; i < plan.steps.size(); ++i) {
        const auto& step = plan.steps[i];
        auto inputSlot = [&](int32_t k) { return plan.inputSlots[step.inputBegin + static_cast<uint32_t>(k)]; };
        if (step.getitemInput >= 0) {
            if (step.outputCount > 0 && static_cast<uint32_t>(step.getitemInput) < step.inputCount)
                uf.unite(static_cast<int32_t>(step.outputBegin), inputSlot(step.getitemInput));
            continue;
        }
        const BoundOp* op = i < bound.size() ? bound[i].get() : nullptr;
        if (!op || !op->schema) continue;
        if (producesUninitialized(op->opType))
            for (uint32_t o = 0; o < step.outputCount; ++o)
                uninitializedOutputs.push_back(static_cast<int32_t>(step.outputBegin + o));
        const auto& args = op->schema->arguments();
        const auto& returns = op->schema->returns();
        // Which node inputs each argument took (a Tensor or a list's elements).
        for (size_t j = 0; j < args.size() && j < op->slots.size(); ++j) {
            const ArgSlot& slot = op->slots[j];
            int32_t first = 0, count = 0;
            if (slot.kind == ArgSlot::Kind::Tensor) {
                first = slot.first;
                count = 1;
            } else if (slot.kind == ArgSlot::Kind::TensorList || slot.kind == ArgSlot::Kind::OptionalTensorList) {
                first = slot.first;
                count = slot.count;
            }
            if (count == 0) continue;
            Sets argSets;
            collectSets(args[j].alias_info(), argSets);
            if (argSets.empty()) continue;
            const bool isWrite = args[j].alias_info() && args[j].alias_info()->isWrite();
            for (int32_t k = first; k < first + count && static_cast<uint32_t>(k) < step.inputCount; ++k) {
                if (isWrite) writes.emplace_back(inputSlot(k), static_cast<int32_t>(i));
                // Every output whose return shares a set with this argument.
                for (size_t r = 0; r < returns.size(); ++r) {
                    Sets retSets;
                    collectSets(returns[r].alias_info(), retSets);
                    if (!intersects(argSets, retSets)) continue;
                    // A list return (`Tensor(a)[]`) is flattened into the node's
                    // outputs; any other return is output r.
                    const bool list = returns[r].type()->kind() == c10::TypeKind::ListType;
                    const uint32_t begin = list ? 0 : static_cast<uint32_t>(r);
                    const uint32_t end = list ? step.outputCount : std::min<uint32_t>(begin + 1, step.outputCount);
                    for (uint32_t o = begin; o < end; ++o)
                        uf.unite(static_cast<int32_t>(step.outputBegin + o), inputSlot(k));
                }
            }
        }
    }

    AliasClasses out;
    const auto n = static_cast<size_t>(plan.slotCount);
    out.rep.resize(n);
    out.written.assign(n, 0);
    for (size_t s = 0; s < n; ++s) out.rep[s] = uf.find(static_cast<int32_t>(s));
    std::vector<uint8_t> repWritten(n, 0);
    for (const auto& [s, node] : writes) repWritten[static_cast<size_t>(out.rep[static_cast<size_t>(s)])] = 1;
    // A set made by empty / new_empty is being filled until its last write:
    // what its views hold before then is partly memory nobody wrote.
    out.uninitialized.assign(n, 0);
    if (!uninitializedOutputs.empty()) {
        std::unordered_map<int32_t, int32_t> lastWrite;  // representative -> node
        for (int32_t s : uninitializedOutputs) lastWrite.emplace(out.rep[static_cast<size_t>(s)], INT32_MAX);
        for (const auto& [s, node] : writes)
            if (auto it = lastWrite.find(out.rep[static_cast<size_t>(s)]); it != lastWrite.end())
                it->second = it->second == INT32_MAX ? node : std::max(it->second, node);
        for (size_t s = static_cast<size_t>(plan.nodeOutputBase); s < n; ++s)
            if (auto it = lastWrite.find(out.rep[s]); it != lastWrite.end() && plan.producer[s] < it->second)
                out.uninitialized[s] = 1;
    }
    for (size_t s = 0; s < n; ++s) {
        const int32_t r = out.rep[s];
        if (!repWritten[static_cast<size_t>(r)]) continue;
        out.written[s] = 1;
        if (plan.isNodeOutput(static_cast<int32_t>(s)))
            out.members[r].push_back(static_cast<int32_t>(s));
        else
            out.writtenRoots.push_back(static_cast<int32_t>(s));
    }
    return out;
}

}  // namespace irscope::exec
