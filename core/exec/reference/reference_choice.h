#pragma once
// ReferenceChoice: what the debugger's run is checked against.
// Either the tensor files loaded as the reference (reference intermediates,
// expected outputs), or a second run of the same graph: with other weights
// ("did the conversion change this op?") or with every floating value cast
// to another dtype ("what does bfloat16 do to my model, node by node?"), or
// a run of another program: the float program of a quantized one ("which
// tensor's quantization hurts?", exec/reference/program_pairing.h).
// Torch-free: the Differences dock offers these choices.
#include <string>

namespace irscope::exec {

struct ReferenceChoice {
    enum class Kind { Files, Weights, Dtype, Program };
    Kind kind = Kind::Files;
    std::string weightsPath;  // Kind::Weights; Kind::Program: its weights ("" for a .pt2's own)
    std::string dtype;        // Kind::Dtype: "float64", "float32", "float16", "bfloat16"
    std::string programPath;  // Kind::Program: the float program (.pt2 or pytorch-ir JSON)

    // A second run of the same graph (not a program of its own).
    bool isRun() const { return kind == Kind::Weights || kind == Kind::Dtype; }
    friend bool operator==(const ReferenceChoice&, const ReferenceChoice&) = default;
};

// "the reference files", "a second run with weights 'w2.pt'", "a second run in bfloat16".
inline std::string describeReference(const ReferenceChoice& c) {
    switch (c.kind) {
    case ReferenceChoice::Kind::Weights: return "a second run with weights '" + c.weightsPath + "'";
    case ReferenceChoice::Kind::Dtype: return "a second run in " + c.dtype;
    case ReferenceChoice::Kind::Program: return "the program '" + c.programPath + "'";
    default: return "the reference files";
    }
}

}  // namespace irscope::exec
