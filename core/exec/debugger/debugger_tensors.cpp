// DebuggerTensors (debugger_tensors.h): one tensor by name, read under the
// core's locks and computed outside them.
#include "core/exec/debugger/debugger_tensors.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include "core/exec/debugger/debugger_impl.h"
#include "core/exec/numerics/tensor_probes.h"
#include "core/io/tensor_file.h"
#include "core/io/tensor_map.h"

namespace irscope::exec {

bool DebuggerTensors::hasValue(const std::string& t) const { return core_.actual(t).defined(); }
bool DebuggerTensors::hasReference(const std::string& t) const { return core_.reference(t).defined(); }

std::string DebuggerTensors::describe(const std::string& name) const {
    const auto& idx = core_.index();
    if (auto p = idx.producerOfTensor(name)) {
        const auto& n = core_.graph.nodes[p->first];
        return "output " + std::to_string(p->second) + " of node '" + n.name + "' (" + n.opType + ")";
    }
    if (idx.graphInputIndex(name)) return "graph input";
    auto kind = idx.kindOf(name);
    if (!ir::isWeightKind(kind)) return {};
    std::string s = tensorKindName(kind);
    if (const std::string* o = idx.originalName(name)) s += " '" + *o + "'";
    return s;
}

std::optional<TensorSummary> DebuggerTensors::summary(const std::string& name, ValueSide side) const {
    at::Tensor t = core_.get(name, side);
    if (!t.defined()) return std::nullopt;
    return io::summarize(t);
}

std::optional<SliceGeometry> DebuggerTensors::geometry(const std::string& name, ValueSide side) const {
    // Shape and dtype only: a Difference is not computed here.
    at::Tensor t = core_.get(name, side == ValueSide::Difference ? ValueSide::Actual : side);
    if (!t.defined()) return std::nullopt;
    if (side == ValueSide::Difference) {
        at::Tensor r = core_.reference(name);
        if (!r.defined() || !r.sizes().equals(t.sizes())) return std::nullopt;
    }
    return sliceGeometry(t, side == ValueSide::Difference);
}

std::vector<double> DebuggerTensors::block(const std::string& name, const std::vector<int64_t>& lead, int64_t row0,
                                           int64_t col0, int64_t nrows, int64_t ncols, ValueSide side) const {
    at::NoGradGuard g;
    return blockValues(
        core_.slice(name, side, lead, [&](const at::Tensor& s) { return cutBlock(s, row0, col0, nrows, ncols); }));
}

std::optional<Histogram> DebuggerTensors::histogram(const std::string& name, int bins, ValueSide side) const {
    at::Tensor t = core_.get(name, side);
    if (!t.defined()) return std::nullopt;
    return histogramOf(t, bins);
}

std::optional<Heatmap> DebuggerTensors::heatmap(const std::string& name, const std::vector<int64_t>& lead,
                                                int64_t maxSide, ValueSide side) const {
    at::NoGradGuard g;
    Heatmap h;
    at::Tensor cut = core_.slice(name, side, lead, [&](const at::Tensor& s) { return cutHeatmap(s, maxSide, h); });
    if (!cut.defined()) return std::nullopt;
    fillHeatmap(cut, h);
    return h;
}

Comparison DebuggerTensors::compare(const std::string& name) const {
    at::Tensor actual = core_.actual(name), reference = core_.reference(name);
    // A reference run in another dtype differs in dtype by design: compare the values, in float64.
    if (core_.checks.runsReference() && actual.defined() && reference.defined() &&
        actual.scalar_type() != reference.scalar_type() && at::isFloatingType(actual.scalar_type()) &&
        at::isFloatingType(reference.scalar_type())) {
        at::NoGradGuard guard;
        actual = actual.to(at::kDouble);
        reference = reference.to(at::kDouble);
    }
    return compareWithReference(name, actual, reference, core_.currentTolerance());
}

void DebuggerTensors::exportTensor(const std::string& name, const std::string& path, ValueSide side) const {
    at::Tensor t = core_.get(name, side);
    if (!t.defined()) throw std::runtime_error("'" + name + "' has no value to export");
    io::TensorMap m;
    m.insert(name, t.contiguous());
    writeTensorsOrThrow(m, path);
}

}  // namespace irscope::exec
