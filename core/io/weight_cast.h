#pragma once
// Casts a state_dict to the dtypes the IR declares for its weights: the fix
// for the most common mismatch there is, a bfloat16 or float16 checkpoint
// for an IR extracted in float32. Each cast entry says so in its source
// ("model.safetensors (cast from bfloat16)"), so that wherever the value is
// shown its provenance is not lost. Entries the IR does not know, or whose
// dtype already agrees, are shared with the input, not copied.
#include <cstddef>

#include "core/io/tensor_map.h"
#include "core/ir/graph.h"

namespace irscope::io {

struct CastWeights {
    TensorMap tensors;
    size_t cast = 0;  // entries whose dtype changed
};

// Looks each entry up as bindWeights does: by original name, else by placeholder.
CastWeights castToIrDtypes(const ir::Graph& graph, const TensorMap& weights);

}  // namespace irscope::io
