#include "core/exec/numerics/error_report.h"

#include <ATen/core/Tensor.h>

#include "core/exec/engine/session.h"
#include "core/io/tensor_map.h"

namespace irscope::exec {

const char* errorModeName(ErrorMode mode) { return mode == ErrorMode::Local ? "local" : "cumulative"; }

OutputError measureOutput(const ir::OpNode& node, int64_t i, size_t k, const at::Tensor& actual,
                          const at::Tensor& reference, const Tolerance& tolerance, bool dtypeMayDiffer) {
    OutputError row;
    row.node = i;
    row.nodeName = node.name;
    row.opType = node.opType;
    row.output = k < node.outputs.size() ? node.outputs[k].name : std::string();
    row.index = static_cast<int64_t>(k);
    if (actual.defined()) row.shape = actual.sizes().vec();
    row.metrics = errorMetrics(actual, reference, tolerance);
    row.dtypeDiffers = actual.defined() && reference.defined() && actual.scalar_type() != reference.scalar_type();
    row.failing = !row.metrics.ok || (row.dtypeDiffers && !dtypeMayDiffer);
    return row;
}

ErrorReport errorReport(const Session& session, const io::TensorMap& reference, const Tolerance& tolerance) {
    ErrorReport report;
    report.tolerance = tolerance;
    const auto& nodes = session.graph().nodes;
    const ReferenceWalk walk = forEachReferencedOutput(
        session, reference, [&](int64_t i, size_t k, const at::Tensor& actual, const at::Tensor& ref) {
            OutputError row = measureOutput(nodes[static_cast<size_t>(i)], i, k, actual, ref, tolerance);
            if (row.failing && !report.firstFailing) report.firstFailing = report.outputs.size();
            report.outputs.push_back(std::move(row));
        });
    report.notInReference = walk.notInReference;
    report.notComputed = walk.notComputed;
    return report;
}

}  // namespace irscope::exec
