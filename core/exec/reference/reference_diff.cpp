#include "core/exec/reference/reference_diff.h"

#include <ATen/core/Tensor.h>

#include <cstdio>

#include "core/io/tensor_map.h"

namespace irscope::exec {

Comparison compareWithReference(const std::string& name, const at::Tensor& actual, const at::Tensor& reference,
                                const Tolerance& tolerance) {
    if (!reference.defined()) {
        Comparison c;
        c.name = name;
        c.problem = "no reference value for '" + name + "'";
        return c;
    }
    if (!actual.defined()) {
        Comparison c;
        c.name = name;
        c.problem = "'" + name + "' has no value yet";
        return c;
    }
    return compareTensors(name, actual, reference, tolerance);
}

DivergenceInfo firstDivergence(const Session& session, const io::TensorMap& references, const Tolerance& tolerance) {
    DivergenceInfo info;
    if (references.empty()) {
        info.message = "no reference loaded (expected outputs or reference intermediates)";
        return info;
    }
    const IntermediateReport report = compareIntermediates(session, references, tolerance);
    info.compared = report.compared;
    if (!report.first) {
        info.message =
            report.compared == 0
                ? "nothing compared yet: no computed tensor has a reference value (run the graph)"
                : "no node diverges: " + std::to_string(report.compared) + " computed tensors match the reference";
        return info;
    }
    info.found = true;
    info.node = report.first->node;
    info.nodeName = report.first->nodeName;
    info.opType = report.first->opType;
    info.tensor = report.first->comparison.name;
    info.diff = report.first->comparison;
    char buf[96];
    std::snprintf(buf, sizeof buf, "max abs diff %.3g, max rel diff %.3g", info.diff.maxAbsDiff, info.diff.maxRelDiff);
    info.message = "first divergence at node '" + info.nodeName + "' (" + info.opType + "), tensor '" + info.tensor +
                   "': " + (info.diff.problem.empty() ? std::string(buf) : info.diff.problem);
    return info;
}

}  // namespace irscope::exec
