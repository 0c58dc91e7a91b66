#pragma once
// NodeSelection: which nodes of a graph a repro keeps, chosen the
// ways people point at a failing region: by name, by the nodes on the paths
// from one node to another, by the neighbourhood of a node, or (in
// core/modules) by module. Each returns node indices in execution order and
// throws std::invalid_argument naming what does not exist or selects
// nothing. Pure functions over the graph and its index; torch-free.
#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/graph_index.h"

namespace irscope::ir {

// "linear_3,mul_4": every name must be a node. Duplicates are fine.
std::vector<int64_t> selectNodesByName(const GraphIndex& index, const std::vector<std::string>& names);

// Every node on a data path from `from` to `to` (both included): what `to`
// depends on that depends on `from`. Throws when `to` does not depend on it.
std::vector<int64_t> selectNodesBetween(const GraphIndex& index, const std::string& from, const std::string& to);

// `center` and the nodes at most `radius` data edges away from it, either
// way (producers and consumers; weights are not hops).
std::vector<int64_t> selectNodesAround(const GraphIndex& index, const std::string& center, int radius);

// "a,b , c" -> {"a", "b", "c"} (empty parts dropped).
std::vector<std::string> splitNames(const std::string& commaSeparated);

}  // namespace irscope::ir
