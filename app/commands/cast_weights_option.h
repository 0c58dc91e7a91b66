#pragma once
// --cast-weights, shared by `run`, `extract` and `reduce`: the state_dict
// cast to the IR's dtypes (io/weight_cast.h), said on stderr, and the hint a
// pre-flight report gives when some value is only in the wrong dtype.
#include <string>
#include <vector>

#include "core/exec/engine/exec_types.h"
#include "core/io/tensor_map.h"
#include "core/ir/graph.h"

namespace irscope::cli {

inline constexpr const char* kCastWeightsFlag = "--cast-weights";

// `weights` cast when `cast`; "irscope run: cast 17 weights to the IR's dtypes" unless quiet.
io::TensorMap castWeightsIfAsked(const ir::Graph& graph, io::TensorMap weights, bool cast, const std::string& command,
                                 bool quiet);

// "(pass --cast-weights to cast the 17 weights in another dtype to the IR's)"; "" when none is.
std::string castWeightsHint(const std::vector<exec::MissingValue>& missing);

}  // namespace irscope::cli
