#pragma once
// The quantization debugger: a quantized program (PT2E, torchao) measured
// node by node against its float program, on the same inputs
// (program_pairing.h says which tensor stands for which). For each paired
// tensor: SQNR, MSE, max abs and cosine, the float value as the signal
// (SQNR = 10·log10(Σref² / Σ(ref−q)²), what PyTorch's compute_sqnr gives as
// 20·log10 of the norms). Then what to keep in float: for each activation's
// quantize/dequantize pair, the output's SQNR when that one tensor stays in
// float and all else stays quantized (sensitivity, best first); and for each
// quantized weight, the SQNR of the weight read back against the float one,
// overall and per channel, with the channels far worse than the rest named.
#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/reference/program_pairing.h"
#include "core/ir/graph.h"

namespace irscope::io {
class TensorMap;
}

namespace irscope::exec {

struct PairedError {
    int64_t node = -1;
    std::string nodeName, output, referenceNode, referenceTensor;
    double sqnrDb = 0, mse = 0, maxAbs = 0, cosine = 1;
};

struct Sensitivity {
    std::string quantize;  // the quantize node left out
    std::string tensor;    // the activation that stays in float
    double outputSqnrDb = 0;
};

struct WeightError {
    std::string weight, referenceWeight;
    double sqnrDb = 0;
    int64_t axis = -1;                     // the channel axis (-1: per tensor, no channels)
    std::vector<double> channelSqnrDb;     // per channel along `axis`
    std::vector<int64_t> outlierChannels;  // error (MSE) over 10x the weight's median channel
};

struct QuantizationComparison {
    ProgramPairing pairing;
    std::vector<PairedError> nodes;        // the quantized program's order
    double outputSqnrDb = 0;               // its first output against the float program's
    std::vector<Sensitivity> sensitivity;  // best first
    std::vector<WeightError> weights;
    std::string problem;  // why it could not run ("" when it did)
};

struct QuantizationCompareOptions {
    bool sensitivity = true;
};

// Runs both programs on `inputs` (by graph input name) with their weights.
QuantizationComparison compareQuantized(const ir::Graph& quantized, const io::TensorMap& quantizedWeights,
                                        const ir::Graph& reference, const io::TensorMap& referenceWeights,
                                        const io::TensorMap& inputs, const QuantizationCompareOptions& options = {});

// A whole run of `program` on `inputs` (by graph input name): every node
// output by tensor name, and the graph outputs as "output:0", "output:1"...
// (only those when `everyNode` is false: the run keeps nothing else).
// `problem` says why it could not run ("the float program lacks ...").
io::TensorMap runProgram(const ir::Graph& program, const io::TensorMap& weights, const io::TensorMap& inputs,
                         const char* which, std::string& problem, bool everyNode = true);

// The quantized program with the readers of `activation`'s dequantize
// nodes reading its float input instead (that one tensor kept in float).
ir::Graph keepInFloat(const ir::Graph& quantized, const ActivationQuantizer& activation);

}  // namespace irscope::exec
