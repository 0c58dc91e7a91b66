#pragma once
// torch.export reads the inner tensors of a tensor-subclass weight (torchao's
// Int8Tensor: qdata, scale, zero_point) with export.access_subclass_inner_tensor
// (weight, "qdata"). The weight is stored as its parts (catalog/tensor_subclass.h:
// "a.weight.qdata"), so the accessor is a read of a stored value by name, not
// a computation: the execution plan binds the node to that name and forwards
// it. Torch-free.
#include <cstdint>
#include <optional>
#include <string>

#include "core/ir/graph.h"
#include "core/ir/graph_index.h"

namespace irscope::ir {

bool isSubclassAccess(const OpNode& node);

// The stored name of the inner tensor `node` reads ("a.weight.qdata", through
// a placeholder's original name; nested accessors join their attributes), or
// nullopt when it reads a value the graph computes or names no attribute.
std::optional<std::string> subclassPartName(const Graph& graph, const GraphIndex& index, int64_t node);

}  // namespace irscope::ir
