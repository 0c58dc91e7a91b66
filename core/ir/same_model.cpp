#include "core/ir/same_model.h"

#include <unordered_map>

namespace irscope::ir {

bool isSameModel(const Graph& before, const Graph& after) {
    // A key is shared when the name and the shape agree: "linear.weight" is
    // in half the small models there are, with a different shape in most.
    std::unordered_map<std::string, const Shape*> old;
    for (const auto& w : before.weights) old.emplace(w.name, &w.shape);
    for (const auto& i : before.graphInputs) old.emplace(i.name, nullptr);  // inputs: the name (a batch may change)
    size_t keys = 0, shared = 0;
    for (const auto& w : after.weights) {
        ++keys;
        const auto it = old.find(w.name);
        shared += it != old.end() && it->second && shapesAgree(*it->second, w.shape);
    }
    if (keys > 0 && !before.weights.empty()) {
        for (const auto& i : after.graphInputs) {
            ++keys;
            shared += old.count(i.name);
        }
        // The same class (a reload, a new export, the meta twin, an edit of a
        // few layers): half its keys. A renamed class: nearly all of them.
        return after.modelName == before.modelName ? 2 * shared >= keys : 10 * shared >= 9 * keys;
    }
    if (!after.weights.empty() || !before.weights.empty()) return false;  // one has weights, the other none
    if (after.modelName != before.modelName || after.graphInputs.size() != before.graphInputs.size()) return false;
    for (const auto& i : after.graphInputs)
        if (!old.count(i.name)) return false;
    return true;
}

}  // namespace irscope::ir
