#pragma once
// Why a run stopped, in a sentence for the status bar and the CLI: "finished:
// 12/12 nodes ran", "breakpoint: stopped before 'mul'", "node 'x' (aten.y)
// failed: ...". Torch-free.
#include <cstdint>
#include <string>

#include "core/exec/exec_types.h"
#include "core/ir/graph.h"

namespace irscope::exec {

struct RunStatus {
    StopReason reason = StopReason::Finished;
    int64_t lastNode = -1;
    std::string message;
    bool failed = false;
};

// `cursor`: the next node to run after the stop.
RunStatus describeStop(const ir::Graph& graph, const RunResult& result, int64_t cursor);

}  // namespace irscope::exec
