#include "core/exec/engine/value_precedence.h"

#include <unordered_map>

#include "core/exec/engine/exec_error.h"
#include "core/exec/engine/executor.h"

namespace irscope::exec {

EffectiveConstants effectiveConstants(const ir::Graph& graph, const io::TensorMap& userConstants) {
    EffectiveConstants out;
    std::unordered_map<std::string, size_t> at;
    for (const auto& [name, value] : graph.constants) {
        try {
            at[name] = out.values.size();
            out.values.push_back({name, constantToTensor(name, value), ValueOrigin::IrConstant, "IR constants"});
        } catch (const ExecError& e) {
            // Left out: pre-flight reports its placeholder as missing unless the user supplies it.
            at.erase(name);
            out.unusable.emplace_back(name, e.reason());
        }
    }
    for (const auto& e : userConstants) {
        const ValueOrigin origin = e.source == kEnteredSource ? ValueOrigin::Entered : ValueOrigin::ConstantsFile;
        EffectiveConstant c{e.name, e.tensor, origin, e.source};
        if (auto it = at.find(e.name); it != at.end()) {
            out.values[it->second] = std::move(c);
        } else {
            at[e.name] = out.values.size();
            out.values.push_back(std::move(c));
        }
    }
    return out;
}

io::TensorMap mergeUserConstants(const io::TensorMap& constantsFile,
                                 const std::vector<std::pair<std::string, at::Tensor>>& entered) {
    io::TensorMap merged;
    for (const auto& e : constantsFile) merged.insert(e.name, e.tensor, e.source);
    for (const auto& [name, tensor] : entered) merged.insert(name, tensor, kEnteredSource);
    return merged;
}

}  // namespace irscope::exec
