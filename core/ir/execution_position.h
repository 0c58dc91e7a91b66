#pragma once
// A place of execution at any depth: the path from the top-level program,
// through higher-order ops and the subgraph each ran, to a node. Each step
// names the op, the subgraph taken and, for a loop, scan or map, which call
// of that subgraph (1-based); written the way a user types and reads it,
//   cond/true_graph_0/while_loop/while_loop_body_graph_0#2/tanh
// (FX names hold neither '/' nor '#'). One type for `run --until`, `--dump`
// keys, `run --json`'s higher-order calls and the debugger's position.
// Torch-free.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"

namespace irscope::ir {

struct PositionStep {
    std::string node;      // a higher-order op of the enclosing graph
    std::string subgraph;  // the subgraph it ran ("true_graph_0", "while_loop_body_graph_0")
    int64_t call = 0;      // which call of that subgraph, 1-based; 0: unnamed (a branch runs once)
    bool operator==(const PositionStep&) const = default;
};

struct ExecutionPosition {
    std::vector<PositionStep> frames;  // outermost first; empty: a node of the program itself
    std::string node;                  // the node (or a tensor it makes) in the innermost graph
    bool operator==(const ExecutionPosition&) const = default;

    bool topLevel() const { return frames.empty(); }
    // "while_loop/while_loop_body_graph_0#2/tanh"; a step's call is written when set.
    std::string text() const;
};

// Reads the text form. nullopt, with `why`, for an empty segment, an even
// number of segments (a path must end in a node) or a call that is not a
// positive number.
std::optional<ExecutionPosition> parsePosition(std::string_view text, std::string& why);

// Whether an op's subgraphs are called again and again (while_loop, scan,
// map): their calls are numbered in a position.
bool callsRepeatedly(const OpNode& op);

// A position against a program: node and subgraph indices at every level.
struct ResolvedStep {
    const Graph* graph = nullptr;  // the graph the op is a node of
    int64_t node = -1;
    int32_t subgraph = -1;
    int64_t call = 0;  // as written (1-based, 0: unnamed)
};
struct ResolvedPosition {
    std::vector<ResolvedStep> frames;
    const Graph* graph = nullptr;  // the innermost graph
    int64_t node = -1;             // in it: the node named, or the node making the tensor named
};
// nullopt, with `why` naming the first step that does not exist there and
// what does ("'while_loop' has subgraphs while_loop_cond_graph_0,
// while_loop_body_graph_0").
std::optional<ResolvedPosition> resolvePosition(const Graph& program, const ExecutionPosition& position,
                                                std::string& why);

// A subgraph named by its path of "op/subgraph" steps, without calls
// ("while_loop/while_loop_body_graph_0/cond/true_graph_0"), as the drawing
// and the debugger's frames name it: its graph in `program`, or nullptr.
const Graph* subgraphAtPath(const Graph& program, std::string_view path);
// The path's enclosing subgraph and op: "a/s/b/t" is op "b" of "a/s"
// ("" for a one-step path: an op of the program). False for a malformed path.
bool splitSubgraphPath(std::string_view path, std::string& enclosing, std::string& op);

}  // namespace irscope::ir
