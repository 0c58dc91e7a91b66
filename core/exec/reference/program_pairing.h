#pragma once
// Which tensor of a quantized program stands for which tensor of its float
// program, for the quantization debugger (quantization_compare.h): what
// torchao's PT2E numeric debugger pairs with numeric debug handles, paired
// here by what a PT2E program keeps of the float one.
//
// prepare_pt2e / convert_pt2e work on the float program's own graph: its
// compute nodes keep their names, and quantization only inserts nodes
// around them. So:
//   - a compute node pairs with the float node of the same name and op;
//   - quantize and choose_qparams nodes pair with nothing (their values are
//     integers or parameters, not the float tensor);
//   - a dequantize node reading an activation's quantize node pairs with
//     that activation's float tensor: the comparison is after dequantize;
//   - a dequantize node reading a weight is that weight read back, compared
//     with the float weight its consumer reads (weights below).
// Graph inputs pair by name. A module's last op pairs with the same module's
// last op in the float program (torchao's quantize_ replaces a Linear's
// linear by several ops), and a tensor-subclass weight with the float weight
// of its name. Every other node is listed with the reason it has no pair.
// Torch-free.
#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace irscope::exec {

// The role of a node in a quantized program.
enum class QuantRole { Compute, Quantize, Dequantize, QParams };
QuantRole quantRole(const ir::OpNode& node);

struct PairedOutput {
    int64_t node = -1;            // in the quantized program
    size_t output = 0;            // its output index
    std::string tensor;           // its name there
    std::string referenceTensor;  // the float program's tensor it stands for
    std::string referenceNode;    // the float node that makes it ("" for a graph input)
};

struct UnpairedNode {
    int64_t node = -1;
    std::string reason;  // "quantize: its value is an integer tensor; compared after dequantize"
};

// An activation's quantization: quantize(x) then dequantize, whose readers
// would read x itself if that tensor stayed in float (sensitivity).
struct ActivationQuantizer {
    int64_t quantize = -1;            // the quantize node
    std::string input;                // x, the float tensor it quantizes
    std::vector<int64_t> dequantize;  // the dequantize nodes reading it
};

// A quantized weight and the float weight it stands for.
struct PairedWeight {
    std::string placeholder;  // the quantized program's (an int8 buffer, or a tensor subclass)
    // The node reading it back to float; -1 for a tensor-subclass weight
    // (torchao's quantize_), whose value is rebuilt from its parts.
    int64_t dequantize = -1;
    std::string referencePlaceholder;  // the float program's weight the paired consumer reads
    // The float program's batch norm folded into that consumer (-1: none): the
    // quantized weight is the float weight scaled by the norm, per channel.
    int64_t foldedNorm = -1;
};

struct ProgramPairing {
    std::vector<PairedOutput> outputs;  // in the quantized program's order
    std::vector<UnpairedNode> unpaired;
    std::vector<ActivationQuantizer> activations;
    std::vector<PairedWeight> weights;
};

ProgramPairing pairPrograms(const ir::Graph& quantized, const ir::Graph& reference);

}  // namespace irscope::exec
