#pragma once
// Whether a torch.export archive still holds what its program needs: the
// weights config (2.8 on) or the pickled state_dict (2.1-2.7) when the
// program has weights, a stored value for every weight, and every storage
// file a config names. An archive with a weight file or a config removed
// otherwise opens as a program whose values "are missing", as if the user
// had to load a state_dict; this says instead which entry is missing or
// broken, and the graph carries it as an error (code "pt2-damaged").
#include <optional>
#include <string>

#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/ir/graph.h"

namespace irscope::io {

// A sentence naming the missing or broken entry, or nullopt when the archive is whole.
std::optional<std::string> pt2Damage(const ZipReader& zip, const Pt2Program& program, const ir::Graph& graph);

}  // namespace irscope::io
