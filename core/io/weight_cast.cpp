#include "core/io/weight_cast.h"

#include <string_view>
#include <unordered_map>

#include <ATen/ATen.h>

#include "core/io/tensor_dtype.h"

namespace irscope::io {

CastWeights castToIrDtypes(const ir::Graph& graph, const TensorMap& weights) {
    // The IR's dtype by every name an entry may be saved under.
    std::unordered_map<std::string_view, c10::ScalarType> irType;
    for (const auto& w : graph.weights)
        if (auto t = scalarTypeFromName(w.dtype)) irType.emplace(w.name, *t);
    for (const auto& [placeholder, original] : graph.weightNameMapping)
        if (auto it = irType.find(original); it != irType.end()) irType.emplace(placeholder, it->second);

    CastWeights out;
    for (const auto& e : weights) {
        auto it = irType.find(e.name);
        if (it == irType.end() || !e.tensor.defined() || e.tensor.scalar_type() == it->second) {
            out.tensors.insert(e.name, e.tensor, e.source);
            continue;
        }
        std::string source = e.source;
        source += source.empty() ? "(cast from " : " (cast from ";
        source += scalarTypeName(e.tensor.scalar_type());
        source += ")";
        out.tensors.insert(e.name, e.tensor.to(it->second), std::move(source));
        ++out.cast;
    }
    return out;
}

}  // namespace irscope::io
