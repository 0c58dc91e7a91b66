#pragma once
// Binds a tensor file to a Graph's weights: each placeholder is resolved
// through weight_name_mapping to its state_dict key, and every disagreement
// is reported with both names and both shapes. The GUI and `run` use it.
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "core/io/tensor_map.h"
#include "core/ir/graph.h"

namespace irscope::io {

struct WeightProblem {
    enum class Kind { Missing, Unexpected, ShapeMismatch, DTypeMismatch };
    Kind kind;
    std::string placeholder;         // "p_fc1_weight"; the first of several, "" when none maps to the key
    std::string key;                 // state_dict key / original name ("fc1.weight")
    ir::Shape irShape;               // empty for Unexpected
    std::vector<int64_t> fileShape;  // empty for Missing
    std::string irDType, fileDType;
    std::string source;   // file the tensor came from (Unexpected, mismatches)
    std::string message;  // one line a user can act on, naming all of the above
};

struct BoundWeight {
    std::string key;                        // original name, as in Graph::weights
    std::vector<std::string> placeholders;  // every placeholder mapping to it (may be empty)
    at::Tensor tensor;
    std::string source;
};

struct WeightBinding {
    std::vector<BoundWeight> bound;          // Graph::weights order; includes mismatched ones
    std::vector<WeightProblem> problems;     // missing (weights order), mismatches, then unexpected (file order)
    std::vector<std::string> fromConstants;  // weights the file lacks but the IR's `constants` supply

    // No missing weight and no shape or dtype mismatch (unexpected keys are allowed).
    bool complete() const;
    size_t count(WeightProblem::Kind kind) const;
};

// Looks each weight up by its original name, then by any of its placeholder
// names (some users save by placeholder).
WeightBinding bindWeights(const ir::Graph& graph, const TensorMap& tensors);

const char* weightProblemKindName(WeightProblem::Kind kind);  // "missing", "unexpected", ...

}  // namespace irscope::io
