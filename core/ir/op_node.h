#pragma once
// OpNode: one ATen call (or getitem) of the graph, in execution order.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ir/tensor_meta.h"

namespace irscope::ir {

struct Graph;

// A graph a higher-order op runs (cond's true_graph_0, a loop's body), read
// from the .pt2 that holds it inline. Immutable, shared by copies of the node.
struct NamedSubgraph {
    std::string name;
    std::shared_ptr<const Graph> graph;
};

// attrs keep the JSON exactly as written (key order, numbers' int/float kind,
// NaN/Infinity), for display and for the executor's conversion to schema types.
using AttrMap = nlohmann::ordered_json;

inline constexpr const char* kGetitemOp = "<built-in function getitem>";

// What a .pt2 records of a node beyond the op it computes. torch_ir JSON
// holds none of it (a node read from JSON has no such facts); never written
// back to JSON.
struct ExportedNodeFacts {
    // The Python traceback torch.export recorded. ir/stack_trace.h reads it.
    std::string stackTrace;
    // The module that called the op (the last entry of nn_module_stack:
    // "layers.0.self_attn", "" for the model itself); unset when the node
    // records none. Without it modules are inferred, as for JSON.
    std::optional<std::string> modulePath;
    // The Tensor? arguments the program passes None, by schema name. A .pt2
    // spells each (clamp(x, min=None, max=t)); torch_ir JSON drops them, so
    // there the reading may be ambiguous (ir/optional_tensor_readings.h).
    std::vector<std::string> noneArguments;
    // The node of the earlier program this one was made from (the oldest
    // name of the node's from_node chain: a quantized program's conv2d says
    // it is the float program's conv2d).
    std::string origin;
};

struct OpNode {
    std::string name;
    std::string opType;  // "aten.conv2d.default" or "<built-in function getitem>"
    std::vector<TensorMeta> inputs;
    std::vector<TensorMeta> outputs;
    AttrMap attrs = AttrMap::object();  // absent in the file = empty, as torch_ir reads it
    // Set for a node read from a .pt2.
    std::optional<ExportedNodeFacts> exported;
    // A higher-order op read from a .pt2 (torch.cond, while_loop, scan,
    // map_impl, wrap_with_autocast, wrap_with_set_grad_enabled): its
    // subgraphs in argument order, how many of `inputs` each tensor argument
    // took (cond: the predicate, then the operands), and its other positional
    // arguments as attrs would hold them. Empty in torch_ir JSON, which has
    // no subgraphs; never written back.
    std::vector<NamedSubgraph> subgraphs;
    std::vector<int32_t> inputGroups;
    std::vector<AttrMap> higherOrderArgs;

    bool isGetitem() const { return opType == kGetitemOp; }
    // The recorded module path, if the node has one (ExportedNodeFacts::modulePath).
    const std::optional<std::string>& recordedModule() const {
        static const std::optional<std::string> none;
        return exported ? exported->modulePath : none;
    }
    // "conv2d", "mul.Tensor": op_type without a leading "aten." and a trailing ".default".
    std::string shortOpName() const;
};

}  // namespace irscope::ir
