#pragma once
// The recorded calls of a run's higher-order ops (Executor::SubgraphCall),
// read by execution position (ir/execution_position.h): every call at
// every depth with its path and what it did (a cond's branch, a loop's body
// calls), the call a position's frames name, and the values recorded inside
// calls keyed by position. What `run` reports, stops at and dumps.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/engine/executor.h"
#include "core/ir/execution_position.h"

namespace irscope::exec {

// One run of a higher-order op somewhere in the program.
struct HigherOrderRun {
    ir::ExecutionPosition position;     // the op itself ("while_loop/while_loop_body_graph_0#2/cond")
    std::string op;                     // its op type ("cond")
    std::optional<std::string> branch;  // a cond: the subgraph it took
    std::optional<int64_t> iterations;  // a loop, scan or map: how often it ran its body
    int64_t unrecordedCalls = 0;        // calls beyond those recorded (whose inner ops are not listed)
};

// Every higher-order op that ran, outermost first, each followed by those
// inside its calls in call order (the program's order at every level).
std::vector<HigherOrderRun> higherOrderRuns(const ir::Graph& program, const Executor& executor);

// The recorded call the position's frames name (a step's call 0 is the
// first call of its subgraph); nullptr, with `why`, when the program did not
// make that call or it was not recorded. For a top-level position: nullptr
// and no `why`.
const Executor::SubgraphCall* callAt(const Executor& executor, const ir::ResolvedPosition& position, std::string& why);

// Every value recorded inside calls, by position ("while_loop/
// while_loop_body_graph_0#2/tanh", each loop call numbered), appended to
// `out` in the order the calls ran.
void recordedCallValues(const ir::Graph& program, const Executor& executor, io::TensorMap& out);

}  // namespace irscope::exec
