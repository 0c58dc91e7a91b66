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

// A cut planned: written as a program (a .pt2 archive, and a .pt2 asked
// for or a higher-order op in the cut, whose subgraphs a torch_ir JSON
// cannot hold) or as JSON; where (SUB.json becomes SUB.pt2 for a program);
// and the nodes it keeps. A program keeps a node whose tuple irscope reads
// through getitem nodes together with them (the program has no getitem
// node), and computes the sizes it reads (sym_size, arithmetic on sizes,
// item) inside it, from the tensors they are sizes of: a program's inputs
// are tensors.
struct CutPlan {
    bool program = false;
    std::string path;
    std::vector<int64_t> nodes;
};
CutPlan planCut(const ir::GraphIndex& index, std::vector<int64_t> nodes, const std::string& archive,
                const std::string& requestedPath);

// Writes `cut` (ir::extractSubgraph of plan.nodes) at plan.path, as the plan
// says, with the values entering it as a program's example inputs (zeros of
// their shapes where there are none). Returns `expected` narrowed to what
// the written cut returns.
io::TensorMap writeCut(const CutPlan& plan, const std::string& archive, const ir::Subgraph& cut,
                       const io::TensorMap& inputs, const io::TensorMap& expected);

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
