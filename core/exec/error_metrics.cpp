#include "core/exec/error_metrics.h"

#include <ATen/ATen.h>

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

}  // namespace

ErrorMetrics errorMetrics(const at::Tensor& actual, const at::Tensor& reference, const Tolerance& tol) {
    ErrorMetrics m;
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

    // One pass over both, in float64.
    const at::Tensor a = asDoubles(actual), r = asDoubles(reference);
    const double* pa = a.data_ptr<double>();
    const double* pr = r.data_ptr<double>();
    const int64_t n = a.numel();
    bool nanDiff = false;
    double maxAbs = 0, maxRel = 0, sumAbs = 0, sumSq = 0, dot = 0, aa = 0, rr = 0;
    int64_t mismatches = 0;
    for (int64_t k = 0; k < n; ++k) {
        const double x = pa[k], y = pr[k];
        m.nanActual += std::isnan(x);
        m.infActual += std::isinf(x);
        m.nanReference += std::isnan(y);
        m.infReference += std::isinf(y);
        dot += x * y;
        aa += x * x;
        rr += y * y;
        const double d = x - y;
        const double ad = std::fabs(d);
        // torch.isclose without equal_nan: equal, or a finite error within atol + rtol * |ref|.
        const bool close = x == y || (std::isfinite(ad) && ad <= tol.atol + tol.rtol * std::fabs(y));
        mismatches += !close;
        if (std::isnan(d)) {
            nanDiff = true;
            continue;
        }
        maxAbs = std::max(maxAbs, ad);
        sumAbs += ad;
        sumSq += d * d;
        const double rel = ad == 0 ? 0.0 : ad / std::fabs(y);  // x/0 = inf
        maxRel = std::max(maxRel, rel);
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
    if (m.exact) {
        // Integers beyond 2^53 are not exact in float64: count on the originals.
        m.mismatches = n > 0 ? at::ne(actual, reference).sum().item<int64_t>() : 0;
    } else {
        m.mismatches = mismatches;
    }
    m.ok = m.mismatches == 0;
    return m;
}

}  // namespace irscope::exec
