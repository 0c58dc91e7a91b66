#pragma once
// ExecutionPlan: the graph flattened for the run loop.
//
// Running a node must cost libtorch's call and little else (the target:
// within 1.1x of a bare loop of the same at:: calls, bench/run_executor.sh).
// What made irscope slower was not instructions but memory: per node it
// read the OpNode (names, attrs JSON), five small heap vectors (sources,
// last uses, expected metas, protection flags, outputs) and a std::string
// per input, all cold on a 30,000-node graph. The plan keeps what the loop
// needs in a few flat arrays read front to back: one 32-byte Step per node,
// the inputs as value slots, the slots to free after each node, and the
// IR's output metas.
//
// Every value the run reads or writes has a slot in one array (the
// executor's values): graph inputs first, then the registry names the nodes
// read (weights, buffers, constants by placeholder), then every node output.
// Torch-free and pure: built once from the graph and its index.
#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/graph_index.h"

namespace irscope::exec {

struct ExecutionPlan {
    struct Step {
        uint32_t inputBegin = 0;  // into inputSlots
        uint32_t inputCount = 0;
        uint32_t outputBegin = 0;    // value slot of output 0
        uint32_t outputCount = 0;    // the IR's outputs, and any output index a consumer names beyond them
        uint32_t listedOutputs = 0;  // the IR's outputs
        uint32_t releaseBegin = 0;   // into releaseSlots
        uint32_t releaseCount = 0;
        // getitem: the input it forwards; kNotGetitem for an op; kBadGetitem
        // when the node has no integer 'index' attr, kEmptyGetitem when it
        // has no inputs (errors at run time, like torch_ir).
        int32_t getitemInput = kNotGetitem;
    };
    static constexpr int32_t kNotGetitem = -1;
    static constexpr int32_t kBadGetitem = -2;
    static constexpr int32_t kEmptyGetitem = -3;

    // The IR's TensorMeta of a node output, to compare the result with.
    struct OutputCheck {
        uint32_t dimsBegin = 0;  // into dims
        int16_t rank = -1;       // -1: shape unknown (a dynamic dimension)
        int8_t dtype = -1;       // c10::ScalarType, -1 when libtorch 1.13 has none for the IR's dtype
    };

    std::vector<Step> steps;          // one per node, in execution order
    std::vector<int32_t> inputSlots;  // per node input, its value slot
    // Per node, the slots FreeAfterLastUse may drop once it has run: inputs
    // whose last reader it is and its own outputs nobody reads. Protection
    // (graph outputs, pinned, selected) is checked when releasing.
    std::vector<int32_t> releaseSlots;

    // Slot layout.
    int32_t registryBase = 0;    // == number of graph inputs
    int32_t nodeOutputBase = 0;  // == registryBase + registryNames.size()
    int32_t slotCount = 0;
    std::vector<std::string> registryNames;  // slot registryBase + k

    // Per slot: the last node that reads it (-1: none); and for node-output
    // slots the node that makes it (-1 for the other slots).
    std::vector<int32_t> lastUse;
    std::vector<int32_t> producer;

    // Per node-output slot (index slot - nodeOutputBase).
    std::vector<OutputCheck> checks;
    std::vector<int64_t> dims;

    bool isNodeOutput(int32_t slot) const { return slot >= nodeOutputBase; }
    bool isRegistry(int32_t slot) const { return slot >= registryBase && slot < nodeOutputBase; }
    // The slot of output `k` of `node`, or -1 past its outputs.
    int32_t outputSlot(int64_t node, int64_t k) const;
    // The slot holding a tensor by name (node output or graph input), or -1.
    int32_t slotOfTensor(const ir::GraphIndex& index, std::string_view name) const;
};

// Resolves every node input the way torch_ir's executor does
// (docs/ir-format.md §5.2): producer_node/producer_output_idx when present and the
// producer runs earlier, else a graph input of that node name; without a
// producer (older files) the node output of that name, else a graph input,
// else the registry. `dtypeOf` maps an IR dtype to c10::ScalarType or -1.
ExecutionPlan buildExecutionPlan(const ir::Graph& graph, const ir::GraphIndex& index,
                                 int8_t (*dtypeOf)(const std::string& irDtype));

}  // namespace irscope::exec
