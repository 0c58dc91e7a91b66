#include "core/ir/same_model.h"

#include <unordered_set>

namespace irscope::ir {

bool isSameModel(const Graph& before, const Graph& after) {
    std::unordered_set<std::string> old;
    for (const auto& w : before.weights) old.insert(w.name);
    for (const auto& i : before.graphInputs) old.insert(i.name);
    size_t keys = 0, shared = 0;
    for (const auto& w : after.weights) {
        ++keys;
        shared += old.count(w.name);
    }
    if (keys > 0 && !before.weights.empty()) {
        for (const auto& i : after.graphInputs) {
            ++keys;
            shared += old.count(i.name);
        }
        return 2 * shared >= keys;
    }
    if (!after.weights.empty() || !before.weights.empty()) return false;  // one has weights, the other none
    if (after.modelName != before.modelName || after.graphInputs.size() != before.graphInputs.size()) return false;
    for (const auto& i : after.graphInputs)
        if (!old.count(i.name)) return false;
    return true;
}

}  // namespace irscope::ir
