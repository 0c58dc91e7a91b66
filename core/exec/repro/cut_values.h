#pragma once
// The values at a cut: what enters a subgraph and what it must
// produce, taken from a run of the whole graph, so that the cut run alone
// on those inputs can be checked against those outputs. Shared by
// `irscope extract` and the window's "Extract as runnable IR…". Torch-free
// header; the maps hold tensors made contiguous (a view of a bigger buffer is
// written as just its elements).
#include <string>
#include <vector>

#include "core/ir/subgraph.h"

namespace irscope::io {
class TensorMap;
}

namespace irscope::exec {

class Session;

// Pins every tensor at the cut in `session`, so a run under FreeAfterLastUse keeps them.
void pinCut(Session& session, const ir::Subgraph& cut);
// The cut's inputs and outputs from what `session` holds. Throws
// std::runtime_error naming the first tensor without a value (not run yet,
// or freed) and what it is.
void cutValues(const Session& session, const ir::Subgraph& cut, io::TensorMap& inputs, io::TensorMap& expected);

}  // namespace irscope::exec
