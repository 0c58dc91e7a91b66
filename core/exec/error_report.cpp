#include "core/exec/error_report.h"

#include <ATen/core/Tensor.h>

#include "core/exec/executor.h"
#include "core/exec/session.h"
#include "core/io/tensor_map.h"

namespace irscope::exec {

ErrorReport errorReport(const Session& session, const io::TensorMap& reference, const Tolerance& tolerance) {
    ErrorReport report;
    report.tolerance = tolerance;
    const auto& nodes = session.graph().nodes;
    const Executor& exec = session.executor();
    for (size_t i = 0; i < nodes.size(); ++i) {
        const auto outs = exec.outputsOf(static_cast<int64_t>(i));
        for (size_t k = 0; k < nodes[i].outputs.size(); ++k) {
            const std::string& name = nodes[i].outputs[k].name;
            const at::Tensor* ref = reference.find(name);
            const at::Tensor actual = k < outs.size() ? outs[k] : at::Tensor();
            if (!ref) {
                if (actual.defined()) ++report.notInReference;
                continue;
            }
            if (!actual.defined()) {
                ++report.notComputed;
                continue;
            }
            OutputError row;
            row.node = static_cast<int64_t>(i);
            row.nodeName = nodes[i].name;
            row.opType = nodes[i].opType;
            row.output = name;
            row.index = static_cast<int64_t>(k);
            row.metrics = errorMetrics(actual, *ref, tolerance);
            if (!row.metrics.ok && !report.firstFailing) report.firstFailing = report.outputs.size();
            report.outputs.push_back(std::move(row));
        }
    }
    return report;
}

}  // namespace irscope::exec
