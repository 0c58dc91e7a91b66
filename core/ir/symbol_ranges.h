#pragma once
// Whether an input fits a dynamic-shape program. torch.export records, for
// each symbolic dim, the range the program holds for (range_constraints:
// Dim("seq", min=2, max=256)), and specializes every other dim to the
// example's size; one symbol stands for one size in every input. An input
// outside that is refused before the run, naming the symbol, its range and
// the input, as torch.export's own guards refuse it.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace irscope::ir {

// "" when `sizes` fit graph input `input`; otherwise why not. `seen` carries
// the sizes the symbols took in the inputs checked before (pass the same map
// for every input of one run). A program without symbols accepts anything
// here (a static program's shapes are checked as its nodes run).
std::string inputShapeRefusal(const Graph& graph, const TensorMeta& input, const std::vector<int64_t>& sizes,
                              std::map<std::string, int64_t>& seen);

// "s27 ∈ [2, 256]" (∞ for an unbounded max).
std::string formatSymbolRange(const SymbolRange& range);

// A symbolic value of the program as Properties shows it: its expression and
// the range of every symbol in it ("4*s77, s77 ∈ [1, 8]"); "" for a value
// the program gives no expression for.
std::string symbolicValueText(const Graph& graph, const std::string& value);

}  // namespace irscope::ir
