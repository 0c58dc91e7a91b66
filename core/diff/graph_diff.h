#pragma once
// GraphDiff: what changed from graph A to graph B, given which node is which
// (graph_match.h). Pure and torch-free: `irscope diff` prints it, the window's
// Compare view colours nodes and fills its Changes dock from it.
//
// A matched pair is "changed" when its op, its attrs, its inputs (shape,
// dtype, or where the value comes from, through the match) or its outputs
// differ; a pair that differs only by name is "renamed", which FX does to
// every later node of an op when one is inserted. Weights pair by original
// state_dict name, graph inputs by name (a moved one says so), graph outputs
// by their matched producer, then by position.
#include <cstdint>
#include <string>
#include <vector>

#include "core/diff/graph_match.h"
#include "core/ir/graph_index.h"

namespace irscope::diff {

struct NodeChange {
    int64_t a = -1;                    // node index in A
    int64_t b = -1;                    // node index in B
    std::vector<std::string> what;     // "op_type", "attrs", "inputs", "outputs", in that order
    std::vector<std::string> details;  // one line per difference: "negative_slope: 0.1 -> 0.2"
};

// A graph input, graph output or weight present on both sides that differs.
struct TensorChange {
    int64_t a = -1;  // index in A's graphInputs / graphOutputs / weights
    int64_t b = -1;
    std::vector<std::string> what;  // "shape", "dtype", "value", "name", "producer", "position"
    std::string detail;
};

struct TensorDiff {
    std::vector<int64_t> added;    // indices in B
    std::vector<int64_t> removed;  // indices in A
    std::vector<TensorChange> changed;
    bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
};

struct GraphDiff {
    NodeMatch match;
    std::vector<int64_t> addedNodes;                        // B indices, execution order
    std::vector<int64_t> removedNodes;                      // A indices, execution order
    std::vector<NodeChange> changedNodes;                   // B execution order
    std::vector<std::pair<int64_t, int64_t>> renamedNodes;  // (a, b) same in all but the name
    TensorDiff weights;
    TensorDiff graphInputs;
    TensorDiff graphOutputs;

    bool identical() const {
        return addedNodes.empty() && removedNodes.empty() && changedNodes.empty() && renamedNodes.empty() &&
               weights.empty() && graphInputs.empty() && graphOutputs.empty();
    }
};

// How a change is shown per node, for colouring both sides of a view.
enum class NodeDiffState : uint8_t { Unchanged, Renamed, Changed, Added, Removed };

GraphDiff diffGraphs(const ir::GraphIndex& a, const ir::GraphIndex& b, MatchMode mode = MatchMode::Auto);

// Per node of A (removed, changed, renamed, unchanged) and of B (added, ...).
std::vector<NodeDiffState> nodeStatesA(const GraphDiff& diff);
std::vector<NodeDiffState> nodeStatesB(const GraphDiff& diff);

}  // namespace irscope::diff
