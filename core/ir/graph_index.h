#pragma once
// GraphIndex: the lookups every consumer of a Graph needs (node by name, where
// each input comes from, who consumes each output, what kind a placeholder is),
// built once in linear time. Holds a reference: the Graph must outlive it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/graph.h"

namespace irscope::ir {

enum class TensorKind {
    Activation,  // output of a node
    GraphInput,
    Parameter,    // p_ placeholder
    Buffer,       // b_ placeholder
    Constant,     // c_ placeholder (lifted tensor constant)
    OtherWeight,  // a weight_name_mapping key without a known prefix, or a weight's original name
    Unknown,      // nothing in the file defines it
};
const char* tensorKindName(TensorKind kind);  // "activation", "input", "parameter", ...
bool isWeightKind(TensorKind kind);           // Parameter, Buffer, Constant, OtherWeight

// Where the value of one node input comes from.
struct ValueSource {
    enum class Kind { GraphInput, NodeOutput, Weight, Missing } kind = Kind::Missing;
    int64_t index = -1;       // graph input index, producing node index, or weights[] index (-1 if unmapped)
    int64_t outputIndex = 0;  // for NodeOutput
    std::string placeholder;  // for Weight: the name used by the node (p_x or original)
};

struct Use {
    int64_t node;   // consuming node
    int64_t input;  // which of its inputs
};

class GraphIndex {
public:
    explicit GraphIndex(const Graph& graph);

    const Graph& graph() const { return graph_; }

    std::optional<int64_t> nodeIndex(std::string_view name) const;
    std::optional<int64_t> graphInputIndex(std::string_view name) const;
    // weights[] index for a placeholder (through weight_name_mapping) or an original name.
    std::optional<int64_t> weightIndex(std::string_view placeholderOrOriginal) const;
    // Original state_dict / constant name for a placeholder, or nullptr.
    const std::string* originalName(std::string_view placeholder) const;
    // Every placeholder that maps to an original name (file order).
    const std::vector<std::string>& placeholdersOf(std::string_view originalName) const;
    const ConstantValue* constant(std::string_view originalName) const;

    TensorKind kindOf(std::string_view tensorName) const;
    // The lifted constants (c_ placeholders) the IR carries no value for, as
    // (placeholder, original name), in file order: what meta-device
    // extraction drops. Views of the graph's own strings.
    const std::vector<std::pair<std::string_view, std::string_view>>& constantsWithoutValue() const {
        return constantsWithoutValue_;
    }

    // Inputs resolved as the executor does: producer_node/producer_output_idx
    // when present, else by name among graph inputs, node outputs and weights.
    const ValueSource& source(int64_t node, int64_t input) const;
    // Nodes that read output `output` of `node`.
    const std::vector<Use>& consumersOf(int64_t node, int64_t output) const;
    // Nodes that read graph input `input`.
    const std::vector<Use>& consumersOfGraphInput(int64_t input) const;
    // Distinct producing nodes / consuming nodes, in ascending order.
    std::vector<int64_t> producerNodes(int64_t node) const;
    std::vector<int64_t> consumerNodes(int64_t node) const;
    // Node and output index that produce a tensor name, if a node does.
    std::optional<std::pair<int64_t, int64_t>> producerOfTensor(std::string_view tensorName) const;
    // Nodes that read a weight (by weights[] index), in order.
    const std::vector<Use>& usesOfWeight(int64_t weightIndex) const;

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    // Keys are views of the Graph's own strings (it outlives the index and never
    // changes): a 70,000-weight model would otherwise copy ~280,000 names here.
    template <typename V>
    using NameMap = std::unordered_map<std::string_view, V, Hash, std::equal_to<>>;

    // The constructor's steps, in order: the name maps, then room for the
    // per-slot tables, then each node's inputs resolved and recorded as uses.
    void indexNames();
    void reserveSlots();
    // Where `input` of node nodeId comes from, given the nodes before it.
    ValueSource resolveInput(const TensorMeta& input, int64_t nodeId) const;
    void recordUse(const ValueSource& src, Use use);

    const Graph& graph_;
    NameMap<int64_t> nodeByName_;
    NameMap<int64_t> graphInputByName_;
    NameMap<int64_t> weightByOriginal_;
    NameMap<const std::string*> originalByPlaceholder_;
    NameMap<std::vector<std::string>> placeholdersByOriginal_;
    NameMap<int64_t> constantByName_;
    NameMap<std::pair<int64_t, int64_t>> producerByTensor_;
    std::vector<std::pair<std::string_view, std::string_view>> constantsWithoutValue_;
    std::vector<int64_t> inputOffset_;  // node -> first slot in sources_
    std::vector<ValueSource> sources_;
    std::vector<int64_t> outputOffset_;  // node -> first slot in consumers_
    std::vector<std::vector<Use>> consumers_;
    std::vector<std::vector<Use>> graphInputConsumers_;
    std::vector<std::vector<Use>> weightUses_;
};

}  // namespace irscope::ir
