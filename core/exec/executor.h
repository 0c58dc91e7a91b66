#pragma once
// Executor: torch_ir's IRExecutor on libtorch, one node at a time.
//
// It owns the registry (state_dict entries under their keys and their
// placeholders, effective constants under their original names and every
// placeholder mapped to them, graph inputs by name) and the values the nodes
// produce. It also applies the retention policy, because only the owner of
// the values can tell whether an in-place op may write into its input or must
// work on a copy so that what the user sees for other nodes stays as produced.
// Session (session.h) adds the cursor, states, timings and breakpoints.
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <ATen/core/Tensor.h>

#include "core/exec/exec_types.h"
#include "core/exec/op_binding.h"
#include "core/io/tensor_map.h"
#include "core/ir/graph.h"
#include "core/ir/graph_index.h"

namespace irscope::exec {

// Converts an IR constant (packed little-endian bytes) to a tensor; throws
// ExecError when the constant is unusable.
at::Tensor constantToTensor(const std::string& name, const ir::ConstantValue& value);

class Executor {
public:
    // `graph` must outlive the executor.
    explicit Executor(const ir::Graph& graph);

    const ir::Graph& graph() const { return graph_; }
    const ir::GraphIndex& index() const { return index_; }

    // Replace the tensors of that kind and rebuild the registry. Inputs are
    // matched to graph inputs by name. Tensors handed in are never modified.
    void setWeights(const io::TensorMap& stateDict);
    void setConstants(const io::TensorMap& constants);  // by original name; override the IR's
    void setInputs(const io::TensorMap& inputs);

    // Every placeholder or graph input without a value, with the nodes that need it.
    std::vector<MissingValue> preflight() const;

    // Drops every computed value.
    void reset();

    // Runs node `i` (its inputs must have been computed). Throws ExecError
    // naming the node, its op and the reason. Returns the differences between
    // the results and the node's output TensorMeta (empty when they agree).
    std::vector<std::string> runNode(int64_t i);

    // Values.
    const std::vector<at::Tensor>& outputsOf(int64_t node) const { return outputs_[node]; }
    // A node output, graph input or registry entry by tensor name; undefined when none.
    at::Tensor valueOf(const std::string& tensorName) const;
    bool hasValue(const std::string& tensorName) const { return valueOf(tensorName).defined(); }
    // Graph outputs by name, in order; `missing` gets the first one without a value.
    bool graphOutputs(io::TensorMap& out, std::string* missing = nullptr) const;

    // Retention.
    void setRetention(RetentionPolicy policy) { policy_ = policy; }
    RetentionPolicy retention() const { return policy_; }
    void setPinned(const std::string& tensorName, bool pinned);
    void setSelected(const std::vector<std::string>& tensorNames);
    // Bytes of the distinct storages held by computed values (not weights or inputs).
    size_t bytesHeld() const;

private:
    struct Source {
        enum class Kind { GraphInput, NodeOutput, Registry } kind = Kind::Registry;
        int64_t a = -1, b = 0;  // graph input index | node, output index
        std::string name;       // registry name
    };
    struct Expected {
        std::vector<int64_t> shape;
        bool shapeKnown = false;
        std::optional<c10::ScalarType> dtype;
    };

    at::Tensor resolve(int64_t node, size_t input) const;
    bool kept(int64_t node, int64_t output) const;
    void rebuildRegistry();
    void releaseAfter(int64_t node);

    const ir::Graph& graph_;
    ir::GraphIndex index_;
    std::vector<std::vector<Source>> sources_;   // per node, per input
    std::vector<std::vector<int64_t>> lastUse_;  // per node output: last consuming node (-1: none)
    std::vector<std::vector<Expected>> expected_;
    std::vector<std::unique_ptr<BoundOp>> bound_;  // bound on first run
    std::vector<std::vector<uint8_t>> protected_;  // graph output / pinned / selected

    io::TensorMap weights_, constants_, inputs_;
    std::unordered_map<std::string, at::Tensor> registry_;
    std::vector<at::Tensor> graphInputValues_;
    std::vector<std::vector<at::Tensor>> outputs_;

    RetentionPolicy policy_ = RetentionPolicy::KeepAll;
    std::set<std::string> pinned_, selected_;
    void refreshProtected();

    // Scratch reused across nodes (no allocation per node in steady state).
    std::vector<at::Tensor> inputScratch_;
    torch::jit::Stack stack_;
};

}  // namespace irscope::exec
