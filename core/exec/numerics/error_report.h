#pragma once
// ErrorReport: ErrorMetrics for every node output that the reference has, in
// execution order, and the first that fails: what the Differences dock and
// `irscope run --report` show.
//
// Mode "cumulative": each node ran on what irscope computed upstream, so an
// op that is wrong makes everything after it differ too. Mode "local": each
// node ran on the reference values of its inputs (reference_check.h), so
// only an op that is wrong by itself fails; the culprit is the first node
// that fails locally.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/numerics/error_metrics.h"
#include "core/ir/graph.h"

namespace irscope::io {
class TensorMap;
}

namespace irscope::exec {

class Session;

enum class ErrorMode { Cumulative, Local };
const char* errorModeName(ErrorMode mode);  // "cumulative", "local"

struct OutputError {
    int64_t node = -1;
    std::string nodeName, opType;
    std::string output;  // the tensor's name
    int64_t index = 0;   // its position among the node's outputs
    std::vector<int64_t> shape;
    bool dtypeDiffers = false;  // the run's dtype is not the reference's
    bool failing = false;       // !metrics.ok, or a dtype difference the reference does not allow
    ErrorMetrics metrics;
    std::string referenceNote;  // how the reference got this value, when unusual (ReferenceSource::noteOf)
};

struct ErrorReport {
    Tolerance tolerance;
    std::string mode = "cumulative";
    std::vector<OutputError> outputs;    // in execution order
    std::optional<size_t> firstFailing;  // index into outputs
    int64_t notInReference = 0;          // computed outputs the reference lacks
    int64_t notComputed = 0;             // reference tensors with no computed value (not run, or freed)
};

// One row: output `k` of node `i` against its reference. A dtype difference
// fails unless `dtypeMayDiffer` (a reference run in another dtype).
OutputError measureOutput(const ir::OpNode& node, int64_t i, size_t k, const at::Tensor& actual,
                          const at::Tensor& reference, const Tolerance& tolerance, bool dtypeMayDiffer = false);

// After the run: compares every kept node output with the reference tensor
// of its name (the inline check, reference_check.h, needs no kept values).
ErrorReport errorReport(const Session& session, const io::TensorMap& reference, const Tolerance& tolerance = {});

}  // namespace irscope::exec
