#pragma once
// Cutting a torch.export program (.pt2) down to some of its top-level nodes,
// as a .pt2 of its own that torch.export.load and irscope both run. A torch_ir
// JSON cannot hold what a higher-order op runs (cond's branches, a loop's
// body, nested to any depth) nor the program's other facts (arguments by
// name, sizes as values), so a repro of a cut that holds one is a program:
// the kept nodes are copied from the archive's own serialized graph with
// everything in them, their subgraphs included; values entering the cut from
// dropped nodes become user inputs; the values leaving it become its
// outputs; only the weights and constants the kept nodes read remain.
#include <ATen/ATen.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/io/tensor_map.h"
#include "core/ir/graph_index.h"
#include "core/ir/subgraph.h"

namespace irscope::exec {

struct ProgramCutRequest {
    std::string archive;  // the .pt2 ("model.pt2#program" chooses one of several)
    // The serialized top-level nodes kept, by name. irscope's getitem nodes
    // are implied by the node whose tuple they read and are ignored here.
    std::vector<std::string> nodes;
    // The cut's inputs and outputs, as irscope's extract found them
    // (ir::extractSubgraph), by tensor name: the cut's user inputs and
    // outputs, in this order.
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    // The cut's example inputs (the program's data/sample_inputs), one per
    // entry of `inputs`; torch.export.load reads them back.
    std::vector<at::Tensor> sampleInputs;
};

// The selection a program cut keeps (indices into the graph): a node whose
// tuple irscope reads through getitem nodes goes with them (the program has
// no getitem node: its node makes the elements by name), and a size the cut
// reads (sym_size, arithmetic on sizes, item) is computed inside it, from the
// tensor it is the size of, since a program's inputs are tensors.
std::vector<int64_t> programCutSelection(const ir::GraphIndex& index, const std::vector<int64_t>& nodes);

// The cut's example inputs, one per entry of cut.inputs: the values at the
// cut where there are some, else zeros of the inputs' shapes and dtypes.
std::vector<at::Tensor> programCutExamples(const ir::Subgraph& cut, const io::TensorMap& values);

// The values of `expected` the program returns (writeProgramCut's answer),
// for the cut's expected-values file.
io::TensorMap onlyReturned(const io::TensorMap& expected, const std::vector<std::string>& returned);

// Writes the cut program to `outPath` (a .pt2, through a temporary file:
// never half written). Throws std::runtime_error naming the archive and the
// reason: a value the cut reads that is neither a tensor computed outside it
// nor a graph input (a size computed by a dropped node), an archive layout
// older than PyTorch 2.8's. Returns the outputs the program returns: the
// request's tensors (a size or a condition the cut hands on is left out:
// torch.export.load cannot read a program returning a symbolic bool, and a
// repro checks tensors).
std::vector<std::string> writeProgramCut(const ProgramCutRequest& request, const std::string& outPath);

}  // namespace irscope::exec
