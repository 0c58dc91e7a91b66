#include "core/ir/graph.h"

namespace irscope::ir {

// Linear scans: convenience for small callers. Anything that looks up per node
// uses GraphIndex instead.
const std::string* Graph::originalName(const std::string& placeholder) const {
    for (const auto& [key, original] : weightNameMapping)
        if (key == placeholder) return &original;
    return nullptr;
}

const ConstantValue* Graph::constant(const std::string& originalName) const {
    for (const auto& [name, value] : constants)
        if (name == originalName) return &value;
    return nullptr;
}

const TensorMeta* Graph::weight(const std::string& originalName) const {
    for (const auto& w : weights)
        if (w.name == originalName) return &w;
    return nullptr;
}

}  // namespace irscope::ir
