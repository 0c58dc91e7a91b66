#include "core/ir/validate.h"

#include <unordered_map>
#include <unordered_set>

#include "core/ir/dtype.h"
#include "core/ir/higher_order_ops.h"
#include "core/ir/op_schema_table.h"
#include "core/ir/optional_tensor_readings.h"
#include "core/ir/python_defined_ops.h"
#include "core/ir/symbolic_ops.h"

namespace irscope::ir {
namespace {

class Validator {
public:
    Validator(const Graph& graph, const GraphIndex& index) : g_(graph), index_(index) {}

    std::vector<Diagnostic> run() {
        out_ = g_.loadDiagnostics;
        checkTensorList(g_.graphInputs, "graph_inputs");
        checkTensorList(g_.graphOutputs, "graph_outputs");
        checkTensorList(g_.weights, "weights");
        checkMapping();
        checkConstants();
        checkNodes();
        checkGraphOutputs();
        checkMissingConstants();
        checkUnusedWeights();
        return std::move(out_);
    }

private:
    void add(Severity severity, std::string code, std::string node, std::string tensor, std::string path,
             std::string message) {
        out_.push_back(
            {severity, std::move(code), std::move(node), std::move(tensor), std::move(path), std::move(message)});
    }

    static std::string describe(const TensorMeta& meta) {
        return (meta.hasDtype() ? meta.dtype : std::string("(no dtype)")) + " " + shapeToList(meta.shape);
    }

    void checkMeta(const TensorMeta& meta, const std::string& node, const std::string& path) {
        // Unreadable dims were reported by the loader; symbols are sized at run time.
        bool validDims = true;
        for (size_t d = 0; d < meta.shape.size(); ++d) {
            const auto dim = meta.shape[d].size();
            validDims = validDims && dim && *dim >= 0;
            if (dim && *dim < 0)
                add(Severity::Error, "negative-dim", node, meta.name, path + ".shape[" + std::to_string(d) + "]",
                    "tensor '" + meta.name + "' has a negative dimension (" + std::to_string(*dim) + ") in shape " +
                        shapeToList(meta.shape) + "; shapes must be static and non-negative");
        }
        if (validDims && !elementCount(meta.shape))
            add(Severity::Error, "shape-overflow", node, meta.name, path + ".shape",
                "tensor '" + meta.name + "' has shape " + shapeToList(meta.shape) +
                    " whose element count does not fit in 64 bits");
        if (meta.hasDtype() && !isTorchDTypeName(meta.dtype))
            add(Severity::Error, "unknown-dtype", node, meta.name, path + ".dtype",
                "tensor '" + meta.name + "' has unknown dtype '" + meta.dtype +
                    "'; expected a torch dtype such as float32, float16, bfloat16, int64 or bool");
    }

    void checkTensorList(const std::vector<TensorMeta>& list, const std::string& key) {
        std::unordered_set<std::string> seen;
        for (size_t i = 0; i < list.size(); ++i) {
            const std::string path = key + "[" + std::to_string(i) + "]";
            checkMeta(list[i], "", path);
            if (key != "graph_outputs" && !seen.insert(list[i].name).second)
                add(Severity::Error, "duplicate-name", "", list[i].name, path,
                    key + " lists '" + list[i].name + "' more than once");
        }
    }

    void checkMapping() {
        for (const auto& [placeholder, original] : g_.weightNameMapping) {
            if (!index_.weightIndex(original) && !index_.constant(original))
                add(Severity::Error, "mapping-target-missing", "", placeholder, "weight_name_mapping." + placeholder,
                    "weight_name_mapping maps '" + placeholder + "' to '" + original +
                        "', which is not in 'weights'; add its shape and dtype to 'weights' or fix the mapping");
        }
    }

    void checkConstants() {
        for (const auto& [name, value] : g_.constants) {
            const std::string path = "constants." + name;
            if (!value.usable()) {
                add(Severity::Error, "bad-constant", "", name, path + ".data",
                    "constant '" + name + "' cannot be read: " + value.problem);
                continue;
            }
            const auto weightIdx = index_.weightIndex(name);
            if (!weightIdx) {
                add(Severity::Warning, "constant-without-weight", "", name, path,
                    "constant '" + name + "' has no entry in 'weights', so no placeholder can refer to it");
                continue;
            }
            const TensorMeta& weight = g_.weights[static_cast<size_t>(*weightIdx)];
            if (staticSizes(weight.shape) != value.shape)
                add(Severity::Error, "constant-mismatch", "", name, path,
                    "constant '" + name + "' holds data of shape " + shapeToList(value.shape) +
                        " but 'weights' declares " + shapeToList(weight.shape));
            if (weight.hasDtype() && parseDType(weight.dtype) != parseDType(value.dtype))
                add(Severity::Error, "constant-mismatch", "", name, path + ".dtype",
                    "constant '" + name + "' holds " + value.dtype + " data but 'weights' declares " + weight.dtype);
        }
    }

    void checkNodes() {
        std::unordered_map<std::string, size_t> firstByName;
        for (size_t n = 0; n < g_.nodes.size(); ++n) {
            const OpNode& node = g_.nodes[n];
            const std::string path = "nodes[" + std::to_string(n) + "]";
            if (auto [it, fresh] = firstByName.emplace(node.name, n); !fresh)
                add(Severity::Error, "duplicate-node", node.name, "", path + ".name",
                    "node name '" + node.name + "' is used by nodes[" + std::to_string(it->second) + "] and " + path +
                        "; node names must be unique");
            if (auto why = higherOrderOpExplanation(node.opType)) {
                // A .pt2 holds the subgraphs, and irscope runs them.
                if (node.subgraphs.empty())
                    add(Severity::Warning, "higher-order-op", node.name, "", path + ".op_type", *why);
            } else if (!isKnownOpType(node.opType) && pythonDefinedOpExplanation(node.opType))
                add(Severity::Warning, "unknown-op", node.name, "", path + ".op_type",
                    *pythonDefinedOpExplanation(node.opType));
            else if (!isKnownOpType(node.opType) && unknownSymbolicOpExplanation(node.opType))
                add(Severity::Warning, "unknown-op", node.name, "", path + ".op_type",
                    *unknownSymbolicOpExplanation(node.opType) + "; it can be drawn but not run");
            else if (!isKnownOpType(node.opType)) {
                const std::string ns = node.opType.substr(0, node.opType.find('.'));
                const bool custom = node.opType.find('.') != std::string::npos && ns != "aten" && ns != "prims" &&
                                    ns != "quantized" && ns != "_quantized";
                add(Severity::Warning, "unknown-op", node.name, "", path + ".op_type",
                    custom
                        ? "op_type '" + node.opType + "' is a custom op (namespace '" + ns +
                              "', registered by the model's own code); it can be drawn but not run"
                        : "op_type '" + node.opType + "' is not an ATen op irscope knows; it can be drawn but not run");
            } else if (const OpSchema* schema = findOpSchema(node.opType)) {
                // The reading a run would report, before any run (optional_tensor_readings.h).
                if (auto plan = planOptionalTensors(schema->args, node); plan.ambiguous())
                    add(Severity::Warning, "ambiguous-inputs", node.name, "", path + ".inputs", plan.explanation());
            }
            if (node.isGetitem()) checkGetitem(node, path);
            for (size_t i = 0; i < node.inputs.size(); ++i)
                checkInput(n, i, path + ".inputs[" + std::to_string(i) + "]");
            for (size_t o = 0; o < node.outputs.size(); ++o)
                checkMeta(node.outputs[o], node.name, path + ".outputs[" + std::to_string(o) + "]");
        }
    }

    void checkGetitem(const OpNode& node, const std::string& path) {
        const auto it = node.attrs.find("index");
        if (it == node.attrs.end() || !it->is_number_integer()) {
            add(Severity::Error, "getitem-index", node.name, "", path + ".attrs",
                "getitem has no integer 'index' attr, so it is unknown which output it selects");
            return;
        }
        const auto selected = it->get<int64_t>();
        if (selected < 0 || selected >= static_cast<int64_t>(node.inputs.size()))
            add(Severity::Error, "getitem-index", node.name, "", path + ".attrs.index",
                "getitem selects item " + std::to_string(selected) + " but its producer has " +
                    std::to_string(node.inputs.size()) + " outputs");
    }

    void checkInput(size_t n, size_t i, const std::string& path) {
        const OpNode& node = g_.nodes[n];
        const TensorMeta& input = node.inputs[i];
        checkMeta(input, node.name, path);
        const auto nodeId = static_cast<int64_t>(n);
        const ValueSource& src = index_.source(nodeId, static_cast<int64_t>(i));
        if (input.producerNode) {
            const std::string& producer = *input.producerNode;
            if (src.kind == ValueSource::Kind::Missing) {
                const auto producerIdx = index_.nodeIndex(producer);
                if (!producerIdx)
                    add(Severity::Error, "unknown-producer", node.name, input.name, path + ".producer_node",
                        "input '" + input.name + "' names producer '" + producer +
                            "', which is neither a node nor a graph input");
                else
                    add(Severity::Error, "order-violation", node.name, input.name, path + ".producer_node",
                        "input '" + input.name + "' is produced by '" + producer + "' (nodes[" +
                            std::to_string(*producerIdx) + "]), which comes " +
                            (*producerIdx == nodeId ? "at the same place" : "later") +
                            " in the file; nodes must be in execution order");
                return;
            }
            if (src.kind == ValueSource::Kind::GraphInput && input.producerOutputIdx != 0) {
                add(Severity::Error, "output-index", node.name, input.name, path + ".producer_output_idx",
                    "input '" + input.name + "' takes output " + std::to_string(input.producerOutputIdx) +
                        " of graph input '" + producer + "', which has only output 0");
                return;
            }
        }
        switch (src.kind) {
        case ValueSource::Kind::NodeOutput: {
            const OpNode& producer = g_.nodes[static_cast<size_t>(src.index)];
            if (src.outputIndex < 0 || src.outputIndex >= static_cast<int64_t>(producer.outputs.size())) {
                add(Severity::Error, "output-index", node.name, input.name, path + ".producer_output_idx",
                    "input '" + input.name + "' takes output " + std::to_string(src.outputIndex) + " of '" +
                        producer.name + "', which has " + std::to_string(producer.outputs.size()) + " output(s)");
                return;
            }
            compareMeta(node, input, producer.outputs[static_cast<size_t>(src.outputIndex)],
                        "its producer '" + producer.name + "'", path);
            return;
        }
        case ValueSource::Kind::GraphInput:
            compareMeta(node, input, g_.graphInputs[static_cast<size_t>(src.index)], "graph input", path);
            return;
        case ValueSource::Kind::Weight:
            if (src.index >= 0)
                compareMeta(node, input, g_.weights[static_cast<size_t>(src.index)], "its 'weights' entry", path);
            return;
        case ValueSource::Kind::Missing: break;
        }
        const std::string_view prefix = std::string_view(input.name).substr(0, 2);
        if (prefix == "p_" || prefix == "b_" || prefix == "c_")
            add(Severity::Error, "unmapped-placeholder", node.name, input.name, path,
                "placeholder '" + input.name +
                    "' is not in weight_name_mapping, so no state_dict key or constant "
                    "can feed it; add '" +
                    input.name + "' -> original name to weight_name_mapping");
        else
            add(Severity::Error, "unresolved-input", node.name, input.name, path,
                "input '" + input.name +
                    "' has no producer_node and is not the name of a graph input, an earlier "
                    "node's output, or a weight");
    }

    void compareMeta(const OpNode& node, const TensorMeta& input, const TensorMeta& source, const std::string& what,
                     const std::string& path) {
        const bool shapeDiffers = input.shape != source.shape;
        const bool dtypeDiffers = input.hasDtype() && source.hasDtype() && input.dtype != source.dtype;
        if (shapeDiffers || dtypeDiffers)
            add(Severity::Warning, "meta-mismatch", node.name, input.name, path,
                "input '" + input.name + "' is declared " + describe(input) + " but " + what + " says " +
                    describe(source));
    }

    void checkGraphOutputs() {
        for (size_t i = 0; i < g_.graphOutputs.size(); ++i) {
            const TensorMeta& output = g_.graphOutputs[i];
            const std::string path = "graph_outputs[" + std::to_string(i) + "]";
            if (auto producer = index_.producerOfTensor(output.name)) {
                const auto& produced =
                    g_.nodes[static_cast<size_t>(producer->first)].outputs[static_cast<size_t>(producer->second)];
                if (produced.shape != output.shape ||
                    (produced.hasDtype() && output.hasDtype() && produced.dtype != output.dtype))
                    add(Severity::Warning, "meta-mismatch", "", output.name, path,
                        "graph output '" + output.name + "' is declared " + describe(output) + " but node '" +
                            g_.nodes[static_cast<size_t>(producer->first)].name + "' produces " + describe(produced));
            } else if (!index_.graphInputIndex(output.name)) {
                add(Severity::Error, "unproduced-output", "", output.name, path,
                    "graph output '" + output.name + "' is not produced by any node (and is not a graph input)");
            }
        }
    }

    void checkMissingConstants() {
        // The classic: torch.export on the meta device drops lifted constants' values.
        for (const auto& [placeholderView, originalView] : index_.constantsWithoutValue()) {
            const std::string placeholder(placeholderView), original(originalView);
            const auto weightIdx = index_.weightIndex(original);
            std::string what = "'" + original + "'";
            if (weightIdx) what += " (" + describe(g_.weights[static_cast<size_t>(*weightIdx)]) + ")";
            std::string users;
            size_t userCount = 0;
            if (weightIdx)
                for (const auto& use : index_.usesOfWeight(*weightIdx)) {
                    if (g_.nodes[static_cast<size_t>(use.node)].inputs[static_cast<size_t>(use.input)].name !=
                        placeholder)
                        continue;
                    if (userCount++ < 3)
                        users += (users.empty() ? "" : ", ") + g_.nodes[static_cast<size_t>(use.node)].name;
                }
            const std::string firstUser = users.substr(0, users.find(','));
            add(Severity::Warning, "missing-constant", firstUser, placeholder, "constants",
                "lifted constant '" + placeholder + "' (original name " + what +
                    ") has no value in 'constants' - the IR was likely extracted on the meta device, which drops "
                    "constant values" +
                    (userCount ? "; needed by " + users + (userCount > 3 ? ", ..." : "") : "") +
                    ". Supply it with `irscope run --constants FILE` (a .pt/.safetensors/.npy mapping '" + original +
                    "' to a tensor) or in the Constants panel");
        }
    }

    void checkUnusedWeights() {
        for (size_t w = 0; w < g_.weights.size(); ++w) {
            if (!index_.usesOfWeight(static_cast<int64_t>(w)).empty()) continue;
            const auto& name = g_.weights[w].name;
            const auto& placeholders = index_.placeholdersOf(name);
            add(Severity::Info, "unused-weight", "", name, "weights[" + std::to_string(w) + "]",
                "weight '" + name + "'" + (placeholders.empty() ? "" : " (" + placeholders.front() + ")") +
                    " is not used by any node");
        }
    }

    const Graph& g_;
    const GraphIndex& index_;
    std::vector<Diagnostic> out_;
};

}  // namespace

std::vector<Diagnostic> validateGraph(const Graph& graph, const GraphIndex& index) {
    return Validator(graph, index).run();
}

}  // namespace irscope::ir
