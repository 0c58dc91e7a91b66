#pragma once
// Why a run stopped, in a sentence for the status bar and the CLI: "finished:
// 12/12 nodes ran", "breakpoint: stopped before 'mul'", "node 'x' (aten.y)
// failed: ...". Torch-free.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/engine/exec_types.h"
#include "core/exec/numerics/error_report.h"
#include "core/ir/graph.h"

namespace irscope::exec {

struct RunStatus {
    StopReason reason = StopReason::Finished;
    int64_t lastNode = -1;
    std::string message;
    bool failed = false;
    std::optional<MissingValue> missing;  // StopReason::MissingValue: what to supply
};

// `cursor`: the next node to run after the stop.
RunStatus describeStop(const ir::Graph& graph, const RunResult& result, int64_t cursor);

// The verdict on a finished run from the rows measured against the reference
// (error_report.h), naming the tolerance that judged: "outputs match (max
// abs diff 2.4e-07; tolerance float32 default (rtol 1.3e-06, atol 1e-05))",
// or "output 'x' differs (max abs diff 0.5; tolerance ...); first divergence
// at node 'mul_4'". Empty when no graph output was measured (no expected
// outputs, no reference).
std::string describeVerdict(const ir::Graph& graph, const std::vector<OutputError>& rows);
// Against the float program a quantized one was made from (a Program
// reference): the difference is what quantization costs, said as the first
// output's SQNR, never as an output that "differs".
std::string describeQuantizedVerdict(const ir::Graph& graph, const std::vector<OutputError>& rows);

}  // namespace irscope::exec
