#include "core/exec/numerics/error_metrics.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>

#include "core/io/tensor_dtype.h"
#include "core/ir/tensor_meta.h"

namespace irscope::exec {
namespace {

bool isFloat(const at::Tensor& t) { return at::isFloatingType(t.scalar_type()) || at::isComplexType(t.scalar_type()); }

// Complex tensors compare as their (re, im) pairs.
at::Tensor asDoubles(const at::Tensor& t) {
    at::Tensor x = at::isComplexType(t.scalar_type()) ? at::view_as_real(t.to(at::kComplexDouble)) : t.to(at::kDouble);
    return x.contiguous();
}

// One pass over n elements of both sides, read as T and widened to double.
// Called once per node output in a report over a 100,000-node run, so it
// must not allocate or dispatch: the report's budget is half a plain run.
template <typename T>
void accumulate(const T* pa, const T* pr, int64_t n, const AppliedTolerance& tol, ErrorMetrics& m) {
    bool nanDiff = false;
    double maxAbs = -1, maxRel = 0, sumAbs = 0, sumSq = 0, dot = 0, aa = 0, rr = 0;
    int64_t mismatches = 0, worst = n > 0 ? 0 : -1, nanA = 0, infA = 0, nanR = 0, infR = 0;
    for (int64_t k = 0; k < n; ++k) {
        const auto x = static_cast<double>(pa[k]), y = static_cast<double>(pr[k]);
        const bool finiteX = std::isfinite(x), finiteY = std::isfinite(y);
        if (!finiteX) [[unlikely]] {
            nanA += std::isnan(x);
            infA += std::isinf(x);
        }
        if (!finiteY) [[unlikely]] {
            nanR += std::isnan(y);
            infR += std::isinf(y);
        }
        dot += x * y;
        aa += x * x;
        rr += y * y;
        const double d = x - y;
        const double ad = std::fabs(d);
        // torch.isclose without equal_nan: equal, or a finite error within atol + rtol * |ref|.
        const bool close = x == y || (std::isfinite(ad) && ad <= tol.atol + tol.rtol * std::fabs(y));
        mismatches += !close;
        if (std::isnan(d)) [[unlikely]] {
            if (!nanDiff) worst = k;
            nanDiff = true;
            continue;
        }
        if (ad > maxAbs) {
            maxAbs = ad;
            if (!nanDiff) worst = k;
        }
        sumAbs += ad;
        sumSq += d * d;
        const double rel = ad == 0 ? 0.0 : ad / std::fabs(y);  // x/0 = inf
        maxRel = std::max(maxRel, rel);
    }
    m.nanActual = nanA;
    m.infActual = infA;
    m.nanReference = nanR;
    m.infReference = infR;
    m.mismatches = mismatches;
    m.worstIndex = worst;
    if (worst >= 0) {
        m.worstActual = static_cast<double>(pa[worst]);
        m.worstReference = static_cast<double>(pr[worst]);
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    if (n > 0) {
        m.maxAbs = nanDiff ? nan : maxAbs;
        m.maxRel = nanDiff ? nan : maxRel;
        m.meanAbs = nanDiff ? nan : sumAbs / static_cast<double>(n);
        m.mse = nanDiff ? nan : sumSq / static_cast<double>(n);
        m.sqnrDb = nanDiff ? nan : sumSq == 0 ? inf : 10.0 * std::log10(rr / sumSq);
        m.cosine = aa == 0 && rr == 0 ? 1.0 : aa == 0 || rr == 0 ? 0.0 : dot / std::sqrt(aa * rr);
    }
}

// The in-place pass when both sides are contiguous floats of one dtype.
bool accumulateInPlace(const at::Tensor& a, const at::Tensor& r, const AppliedTolerance& tol, ErrorMetrics& m) {
    if (a.scalar_type() != r.scalar_type() || !a.is_contiguous() || !r.is_contiguous() || !a.device().is_cpu() ||
        !r.device().is_cpu())
        return false;
    const int64_t n = a.numel();
    switch (a.scalar_type()) {
    case at::kFloat: accumulate(a.data_ptr<float>(), r.data_ptr<float>(), n, tol, m); return true;
    case at::kDouble: accumulate(a.data_ptr<double>(), r.data_ptr<double>(), n, tol, m); return true;
    case at::kHalf: accumulate(a.data_ptr<at::Half>(), r.data_ptr<at::Half>(), n, tol, m); return true;
    case at::kBFloat16: accumulate(a.data_ptr<at::BFloat16>(), r.data_ptr<at::BFloat16>(), n, tol, m); return true;
    default: return false;
    }
}

// Quantized and sparse tensors are measured by their values.
at::Tensor plainValues(const at::Tensor& t) {
    if (!t.defined()) return t;
    at::Tensor x = t.is_quantized() ? t.dequantize() : t;
    return x.is_sparse() ? x.to_dense() : x;
}

}  // namespace

ErrorMetrics errorMetrics(const at::Tensor& actualIn, const at::Tensor& referenceIn, const Tolerance& tol) {
    ErrorMetrics m;
    const at::Tensor actual = plainValues(actualIn), reference = plainValues(referenceIn);
    if (!actual.defined() || !reference.defined()) {
        m.problem = actual.defined() ? "no reference value" : "no computed value";
        return m;
    }
    if (!actual.sizes().equals(reference.sizes())) {
        m.problem = "shape " + ir::shapeToList(actual.sizes().vec()) + ", the reference's " +
                    ir::shapeToList(reference.sizes().vec());
        return m;
    }
    if (isFloat(actual) != isFloat(reference)) {
        m.problem = "dtype " + io::scalarTypeName(actual.scalar_type()) + ", the reference's " +
                    io::scalarTypeName(reference.scalar_type());
        return m;
    }
    m.exact = !isFloat(actual);
    m.numel = actual.numel();
    m.tolerance = tol.applied(actualIn.scalar_type(), referenceIn.scalar_type());
    if (!accumulateInPlace(actual, reference, m.tolerance, m)) {
        at::NoGradGuard guard;
        const at::Tensor a = asDoubles(actual), r = asDoubles(reference);
        accumulate(a.data_ptr<double>(), r.data_ptr<double>(), a.numel(), m.tolerance, m);
        if (at::isComplexType(actual.scalar_type()) && m.worstIndex >= 0) {
            // A (re, im) pair: the element is half the flat index; report magnitudes.
            m.worstIndex /= 2;
            m.worstActual = std::abs(actual.reshape(-1)[m.worstIndex].item<c10::complex<double>>());
            m.worstReference = std::abs(reference.reshape(-1)[m.worstIndex].item<c10::complex<double>>());
        }
    }
    if (m.exact) {
        // Integers beyond 2^53 are not exact in float64: count on the originals.
        m.mismatches = m.numel > 0 ? at::ne(actual, reference).sum().item<int64_t>() : 0;
    }
    m.ok = m.mismatches == 0;
    return m;
}

}  // namespace irscope::exec
