#include "core/exec/numerics/verify.h"
#include "core/exec/engine/uninitialized_ops.h"

#include <cmath>
#include <limits>

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include "core/exec/engine/executor.h"
#include "core/exec/engine/session.h"
#include "core/exec/numerics/error_metrics.h"
#include "core/io/tensor_dtype.h"
#include "core/io/tensor_map.h"

namespace irscope::exec {

std::string dtypeNameOf(const at::Tensor& t) { return t.defined() ? io::scalarTypeName(t.scalar_type()) : "?"; }

std::string indexText(const std::vector<int64_t>& index) {
    std::string s = "[";
    for (size_t i = 0; i < index.size(); ++i) s += (i ? ", " : "") + std::to_string(index[i]);
    return s + "]";
}

namespace {

std::vector<int64_t> unravel(int64_t flat, c10::IntArrayRef sizes) {
    std::vector<int64_t> idx(sizes.size(), 0);
    for (size_t d = sizes.size(); d-- > 0;) {
        if (sizes[d] == 0) break;
        idx[d] = flat % sizes[d];
        flat /= sizes[d];
    }
    return idx;
}

}  // namespace

Comparison compareTensors(const std::string& name, const at::Tensor& actual, const at::Tensor& expected,
                          const Tolerance& tol) {
    Comparison c;
    c.name = name;
    if (!actual.defined()) {
        c.problem = "no computed value";
        return c;
    }
    if (!expected.defined()) {
        c.problem = "no reference value";
        return c;
    }
    if (!actual.sizes().equals(expected.sizes())) {
        std::string a = indexText(actual.sizes().vec()), e = indexText(expected.sizes().vec());
        c.problem = "shape " + a + " differs from the reference's " + e;
        return c;
    }
    at::NoGradGuard guard;
    c.numel = actual.numel();
    const bool exactKind = !at::isFloatingType(expected.scalar_type()) && !at::isComplexType(expected.scalar_type()) &&
                           !at::isFloatingType(actual.scalar_type()) && !at::isComplexType(actual.scalar_type());
    c.exact = exactKind;
    c.tolerance = tol.applied(actual.scalar_type(), expected.scalar_type());
    if (actual.scalar_type() != expected.scalar_type())
        c.problem = "dtype " + dtypeNameOf(actual) + " differs from the reference's " + dtypeNameOf(expected);
    if (c.numel == 0) {
        c.matched = c.problem.empty();
        return c;
    }
    at::Tensor a, e;
    if (at::isComplexType(actual.scalar_type()) || at::isComplexType(expected.scalar_type())) {
        a = actual.to(at::kComplexDouble).contiguous();
        e = expected.to(at::kComplexDouble).contiguous();
    } else {
        a = actual.to(at::kDouble).contiguous();
        e = expected.to(at::kDouble).contiguous();
    }
    at::Tensor diff = (a - e).abs();
    at::Tensor eAbs = e.abs();
    at::Tensor ok;
    if (exactKind) {
        ok = a == e;
    } else {
        // Same infinities are equal (torch.allclose does the same); NaN never is.
        at::Tensor sameInf = at::logical_and(a.isinf(), a == e);
        ok = at::logical_or(diff <= c.tolerance.atol + c.tolerance.rtol * eAbs, sameInf);
    }
    // A NaN or a differing infinity makes the difference infinite for reporting.
    at::Tensor bad = at::logical_or(diff.isnan(), at::logical_and(diff.isinf(), ok.logical_not()));
    at::Tensor d = at::where(bad, at::full({}, std::numeric_limits<double>::infinity(), diff.options()), diff);
    d = at::where(ok, at::where(d.isnan(), at::zeros({}, d.options()), d), d);
    at::Tensor dflat = d.reshape(-1);
    c.mismatches = c.numel - ok.sum().item<int64_t>();
    int64_t worst = dflat.argmax().item<int64_t>();
    c.maxAbsDiff = dflat[worst].item<double>();
    at::Tensor rel = d / eAbs;  // x/0 = inf, 0/0 = nan
    rel = at::where(d == 0, at::zeros({}, rel.options()), rel);
    c.maxRelDiff = rel.max().item<double>();
    c.worstIndex = unravel(worst, actual.sizes());
    auto aflat = a.reshape(-1), eflat = e.reshape(-1);
    if (a.is_complex()) {
        c.worstActual = aflat[worst].abs().item<double>();
        c.worstExpected = eflat[worst].abs().item<double>();
    } else {
        c.worstActual = aflat[worst].item<double>();
        c.worstExpected = eflat[worst].item<double>();
    }
    c.matched = c.problem.empty() && c.mismatches == 0;
    return c;
}

std::vector<Comparison> compareOutputs(const Session& session, const io::TensorMap& expected, const Tolerance& tol) {
    std::vector<Comparison> out;
    for (const auto& meta : session.graph().graphOutputs) {
        at::Tensor actual;
        session.value(meta.name, actual);
        const at::Tensor* e = expected.find(meta.name);
        out.push_back(compareTensors(meta.name, actual, e ? *e : at::Tensor(), tol));
    }
    return out;
}

ReferenceWalk forEachReferencedOutput(
    const Session& session, const io::TensorMap& reference,
    const std::function<void(int64_t node, size_t output, const at::Tensor& actual, const at::Tensor& ref)>& visit) {
    ReferenceWalk walk;
    const auto& nodes = session.graph().nodes;
    const Executor& exec = session.executor();
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (producesUninitialized(nodes[i].opType)) continue;  // nothing to compare (uninitialized_ops.h)
        const auto outs = exec.outputsOf(static_cast<int64_t>(i));
        for (size_t k = 0; k < nodes[i].outputs.size(); ++k) {
            const at::Tensor* ref = reference.find(nodes[i].outputs[k].name);
            const at::Tensor actual = k < outs.size() ? outs[k] : at::Tensor();
            if (exec.producedUninitialized(static_cast<int64_t>(i), k)) continue;  // nothing to compare
            if (!ref)
                walk.notInReference += actual.defined() ? 1 : 0;
            else if (!actual.defined())
                ++walk.notComputed;
            else
                visit(static_cast<int64_t>(i), k, actual, *ref);
        }
    }
    return walk;
}

IntermediateReport compareIntermediates(const Session& session, const io::TensorMap& reference, const Tolerance& tol) {
    IntermediateReport r;
    const auto& nodes = session.graph().nodes;
    const ReferenceWalk walk = forEachReferencedOutput(
        session, reference, [&](int64_t i, size_t k, const at::Tensor& actual, const at::Tensor& ref) {
            ++r.compared;
            if (r.first) return;
            // errorMetrics reads both in place; the full Comparison (worst
            // index, values) is worked out for the one that fails.
            const ErrorMetrics m = errorMetrics(actual, ref, tol);
            const bool sameDtype = actual.scalar_type() == ref.scalar_type();
            if (m.ok && m.comparable() && sameDtype) return;
            const auto& node = nodes[static_cast<size_t>(i)];
            Comparison c = compareTensors(node.outputs[k].name, actual, ref, tol);
            if (!c.matched) r.first = Divergence{i, node.name, node.opType, c};
        });
    r.notInReference = walk.notInReference;
    r.notComputed = walk.notComputed;
    return r;
}

}  // namespace irscope::exec
