#pragma once
// torch_ir's order of the sources of a weight or constant, lowest first:
//   state_dict < the IR's own `constants` < a constants file < typed by the user.
// The executor's registry and the debugger's weights table both take their
// values from here, so they cannot disagree on which value a node reads.
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "core/io/tensor_map.h"
#include "core/ir/graph.h"

namespace irscope::exec {

// The `source` that marks a user constant as typed rather than from a file.
inline constexpr const char* kEnteredSource = "entered";

enum class ValueOrigin { StateDict, IrConstant, ConstantsFile, Entered };

struct EffectiveConstant {
    std::string name;  // original name
    at::Tensor tensor;
    ValueOrigin origin = ValueOrigin::IrConstant;
    std::string source;  // "IR constants", the constants file, "entered"
};

struct EffectiveConstants {
    std::vector<EffectiveConstant> values;                      // the IR's (in its order), then the user's new names
    std::vector<std::pair<std::string, std::string>> unusable;  // IR constant, why libtorch cannot hold it
};

// The IR's usable constants overridden by `userConstants` (a constants file
// merged with typed values, whose entries carry kEnteredSource).
EffectiveConstants effectiveConstants(const ir::Graph& graph, const io::TensorMap& userConstants);

// A constants file overridden by typed values (by original name, typed order).
io::TensorMap mergeUserConstants(const io::TensorMap& constantsFile,
                                 const std::vector<std::pair<std::string, at::Tensor>>& entered);

}  // namespace irscope::exec
