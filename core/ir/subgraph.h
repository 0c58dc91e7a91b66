#pragma once
// Subgraph: the nodes a repro keeps, cut out as a torch_ir IR of its own
// (`irscope extract`). A value that enters the selection from
// outside (a node output, a graph input) becomes a graph input with the same
// name, shape and dtype; a value the selection makes that is used outside it,
// or that was a graph output, becomes a graph output. Only the weights,
// name mappings and constants the kept nodes read remain. Node names, their
// order and their attrs are unchanged, so the cut runs exactly as the same
// nodes ran in the whole graph when fed the same boundary values.
// Pure and torch-free.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/graph_index.h"

namespace irscope::ir {

struct Subgraph {
    Graph graph;
    // The whole graph's tensors at the cut, by name: what feeds the selection
    // (graph inputs of the cut, in order) and what it hands on (its graph outputs).
    std::vector<std::string> inputs, outputs;
};

// The selection's results are used by nothing: there is no output to check.
struct NothingToCompare : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// A kept node runs subgraphs (cond, while_loop, scan, map, a no_grad or
// autocast region of a .pt2): a torch_ir JSON holds no subgraph, so a cut
// with it would write a repro that cannot run.
struct HoldsSubgraphs : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// `nodes`: indices into index.graph().nodes (any order, duplicates fine).
// Throws std::invalid_argument: an empty selection, a kept node reading a
// value its producer does not list (naming both); NothingToCompare;
// HoldsSubgraphs unless `withSubgraphs` (the cut is written as a program,
// exec/repro/program_cut.h, which holds them; its JSON graph is then only
// the cut's boundary and values, never written).
// An input the IR resolves only by name at run time (no producer field,
// nothing in the file by that name: a state_dict key) stays such a lookup.
Subgraph extractSubgraph(const GraphIndex& index, std::vector<int64_t> nodes, bool withSubgraphs = false);

// Where a cut's values go beside its IR: "sub.json" (or "sub.pt2") -> "sub.inputs.pt",
// "sub.expected.pt" (extract, reduce and the window name them alike).
struct CutFiles {
    std::string inputs, expected;
};
CutFiles cutFilesBeside(const std::string& irPath);

}  // namespace irscope::ir
