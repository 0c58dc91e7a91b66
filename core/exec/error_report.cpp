#include "core/exec/error_report.h"

#include <ATen/core/Tensor.h>

#include "core/exec/session.h"
#include "core/io/tensor_map.h"

namespace irscope::exec {

ErrorReport errorReport(const Session& session, const io::TensorMap& reference, const Tolerance& tolerance) {
    ErrorReport report;
    report.tolerance = tolerance;
    const auto& nodes = session.graph().nodes;
    const ReferenceWalk walk = forEachReferencedOutput(
        session, reference, [&](int64_t i, size_t k, const at::Tensor& actual, const at::Tensor& ref) {
            const auto& node = nodes[static_cast<size_t>(i)];
            OutputError row;
            row.node = i;
            row.nodeName = node.name;
            row.opType = node.opType;
            row.output = node.outputs[k].name;
            row.index = static_cast<int64_t>(k);
            row.metrics = errorMetrics(actual, ref, tolerance);
            if (!row.metrics.ok && !report.firstFailing) report.firstFailing = report.outputs.size();
            report.outputs.push_back(std::move(row));
        });
    report.notInReference = walk.notInReference;
    report.notComputed = walk.notComputed;
    return report;
}

}  // namespace irscope::exec
