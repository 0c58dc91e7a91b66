#pragma once
// The verdict on a run in local-error mode. Each node ran on the reference's
// values of its inputs, so no graph output was computed from the graph's own
// values, and "outputs match" would be a claim about the reference fed
// forward. This verdict speaks of nodes wrong by themselves, and says how
// they were measured: "local error: node 'mul_4' is wrong by itself (max abs
// diff 0.5; tolerance float32 default (...)); each node against the
// reference, fed the reference's inputs". Empty when nothing was measured.
#include <string>
#include <vector>

#include "core/exec/numerics/error_report.h"

namespace irscope::exec {

std::string describeLocalVerdict(const std::vector<OutputError>& rows);

}  // namespace irscope::exec
