#pragma once
// ErrorReport: ErrorMetrics for every node output that the reference has, in
// execution order, and the first that fails: what the Differences dock and
// `irscope run --report` show (issue 12).
//
// Mode "cumulative": each node ran on what irscope computed upstream, so an
// op that is wrong makes everything after it differ too.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/error_metrics.h"

namespace irscope::io {
class TensorMap;
}

namespace irscope::exec {

class Session;

struct OutputError {
    int64_t node = -1;
    std::string nodeName, opType;
    std::string output;  // the tensor's name
    int64_t index = 0;   // its position among the node's outputs
    ErrorMetrics metrics;
};

struct ErrorReport {
    Tolerance tolerance;
    std::string mode = "cumulative";
    std::vector<OutputError> outputs;    // in execution order
    std::optional<size_t> firstFailing;  // index into outputs
    int64_t notInReference = 0;          // computed outputs the reference lacks
    int64_t notComputed = 0;             // reference tensors with no computed value (not run, or freed)
};

// Compares every computed node output with the reference tensor of its name.
ErrorReport errorReport(const Session& session, const io::TensorMap& reference, const Tolerance& tolerance = {});

}  // namespace irscope::exec
