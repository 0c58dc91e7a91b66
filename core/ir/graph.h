#pragma once
// Graph: a whole torch_ir file in memory, every field of the format kept.
// Immutable once loaded; lookups go through GraphIndex.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/constant_value.h"
#include "core/ir/diagnostic.h"
#include "core/ir/op_node.h"
#include "core/ir/tensor_meta.h"

namespace irscope::ir {

struct Graph {
    std::string modelName;
    std::string pytorchVersion;
    std::vector<TensorMeta> graphInputs;
    std::vector<TensorMeta> graphOutputs;
    std::vector<TensorMeta> weights;                                     // one per original state_dict / constant name
    std::vector<std::pair<std::string, std::string>> weightNameMapping;  // placeholder -> original, file order
    std::vector<OpNode> nodes;                                           // execution order
    std::vector<std::pair<std::string, ConstantValue>> constants;        // original name -> value, file order
    // The file also holds the inputs the graph was exported with (a .pt2's
    // example inputs): told by the loader, which has read the archive's
    // index already, so no one opens it again to ask.
    bool fileHoldsExampleInputs = false;
    // A torch.export archive: the programs it holds, in name order, and the
    // one this graph is ("model.pt2#NAME" opens another). Empty for JSON.
    std::vector<std::string> archivePrograms;
    std::string archiveProgram;
    // A dynamic-shape program's symbols and the ranges it was exported for
    // (a .pt2's range_constraints), in the file's order. Empty for JSON.
    std::vector<SymbolRange> symbolRanges;
    // A symbolic value's expression over the symbols, by value name ("mul":
    // "4*s77", "pow_1": "float(s27)**-0.5"): what a .pt2's sym_*_values say.
    std::map<std::string, std::string> symbolicExpressions;
    // The class of each module a .pt2's nn_module_stack names, by module
    // path ("layers.0": "LlamaDecoderLayer", "": the model's class): what the
    // model's own code calls it. Empty for JSON, whose modules are inferred.
    std::map<std::string, std::string> moduleClasses;

    // Findings the loader made while reading values it keeps anyway
    // (non-integer dims, ragged constants): validation reports them.
    std::vector<Diagnostic> loadDiagnostics;

    // Original name for a placeholder ("p_fc1_weight" -> "fc1.weight"), or nullptr.
    const std::string* originalName(const std::string& placeholder) const;
    const ConstantValue* constant(const std::string& originalName) const;
    const TensorMeta* weight(const std::string& originalName) const;
};

}  // namespace irscope::ir
