#pragma once
// Finds the tensors in an unpickled object tree: a state_dict, or a
// checkpoint that nests one ({"state_dict": {...}, "epoch": 3}). Nested
// names are joined with dots, list items by index; values that are not
// tensors (epoch, hyper-parameters) are left out. A tensor subclass is
// listed under its name, then its inner tensors under the name and their
// attribute ("w", "w.qdata", "w.scale").
#include <cstdint>
#include <string>
#include <vector>

#include "core/io/catalog/pickle_value.h"

namespace irscope::io {

struct PickleTensorRef {
    std::string name;
    uint32_t tensor;  // arena index of a Tensor object, or of a Subclass one
};

// select: dotted path of the sub-tree to expose ("" = all). A root that is a
// single tensor is named rootName. Throws FormatError when select names
// nothing (listing the keys there are) or the tree nests deeper than 64.
std::vector<PickleTensorRef> collectTensors(const PickleArena& arena, const PickleValue& root,
                                            const std::string& select, const std::string& rootName);

}  // namespace irscope::io
