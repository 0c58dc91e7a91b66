#include "core/exec/numerics/tensor_probes.h"
#include "core/io/tensor_dtype.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace irscope::exec {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Floating copy for statistics: float for <= 32-bit floats, double otherwise.
at::Tensor statsView(const at::Tensor& t) {
    at::Tensor x = realPart(t);
    if (x.scalar_type() == at::kFloat || x.scalar_type() == at::kDouble) return x;
    if (at::isFloatingType(x.scalar_type())) return x.to(at::kFloat);
    return x.to(at::kDouble);
}

}  // namespace

at::Tensor sliceView(const at::Tensor& t, const std::vector<int64_t>& lead) {
    at::Tensor x = t;
    if (x.dim() == 0) return x.reshape({1, 1});
    if (x.dim() == 1) return x.unsqueeze(1);
    size_t k = 0;
    while (x.dim() > 2) {
        const int64_t size = x.size(0);
        if (size == 0) return x.reshape({0, 0});
        const int64_t i = k < lead.size() ? lead[k] : 0;
        x = x.select(0, std::clamp<int64_t>(i, 0, size - 1));
        ++k;
    }
    return x;
}

at::Tensor realPart(const at::Tensor& t) { return t.is_complex() ? t.abs() : t; }

at::Tensor difference(const at::Tensor& a, const at::Tensor& r) {
    if (!a.defined() || !r.defined() || !a.sizes().equals(r.sizes())) return {};
    at::NoGradGuard g;
    return realPart(a).to(at::kDouble) - realPart(r).to(at::kDouble);
}

SliceGeometry sliceGeometry(const at::Tensor& t, bool isDifference) {
    SliceGeometry g;
    g.shape = t.sizes().vec();
    if (isDifference) {
        g.dtype = "float64";
    } else {
        g.dtype = io::scalarTypeName(t.scalar_type());
        g.integral = at::isIntegralType(t.scalar_type(), true);
    }
    const int64_t nd = t.dim();
    if (nd == 0) {
        g.rows = g.cols = 1;
    } else if (nd == 1) {
        g.rows = g.shape[0];
        g.cols = 1;
    } else {
        g.lead.assign(g.shape.begin(), g.shape.end() - 2);
        g.rows = g.shape[nd - 2];
        g.cols = g.shape[nd - 1];
    }
    return g;
}

at::Tensor cutBlock(const at::Tensor& s, int64_t row0, int64_t col0, int64_t nrows, int64_t ncols) {
    const int64_t R = s.size(0), C = s.size(1);
    const int64_t r0 = std::clamp<int64_t>(row0, 0, R), c0 = std::clamp<int64_t>(col0, 0, C);
    return s.narrow(0, r0, std::clamp<int64_t>(nrows, 0, R - r0)).narrow(1, c0, std::clamp<int64_t>(ncols, 0, C - c0));
}

std::vector<double> blockValues(const at::Tensor& block) {
    if (!block.defined() || block.numel() == 0) return {};
    at::NoGradGuard g;
    at::Tensor b = realPart(block).to(at::kDouble).contiguous();
    const double* p = b.data_ptr<double>();
    return std::vector<double>(p, p + b.numel());
}

Histogram histogramOf(const at::Tensor& t, int bins) {
    at::NoGradGuard g;
    bins = std::max(bins, 1);
    Histogram h;
    at::Tensor x = statsView(t).reshape({-1});
    at::Tensor fin = x;
    if (at::isFloatingType(x.scalar_type())) {
        h.nans = x.isnan().sum().item<int64_t>();
        h.posInfs = x.eq(kInf).sum().item<int64_t>();
        h.negInfs = x.eq(-kInf).sum().item<int64_t>();
        if (h.nans + h.posInfs + h.negInfs) fin = x.masked_select(x.isfinite());
    }
    h.finite = fin.numel();
    h.counts.assign(bins, 0);
    if (h.finite == 0) return h;
    if (!at::isFloatingType(fin.scalar_type())) fin = fin.to(at::kDouble);
    h.lo = fin.min().item<double>();
    h.hi = fin.max().item<double>();
    if (h.hi <= h.lo) {  // one value: a bin of width 1 around it
        h.lo -= 0.5;
        h.hi += 0.5;
    }
    at::Tensor c = at::histc(fin, bins, h.lo, h.hi).to(at::kLong).contiguous();
    const int64_t* p = c.data_ptr<int64_t>();
    for (int i = 0; i < bins; ++i) h.counts[i] = p[i];
    return h;
}

at::Tensor cutHeatmap(const at::Tensor& s, int64_t maxSide, Heatmap& h) {
    maxSide = std::max<int64_t>(maxSide, 1);
    h.sliceRows = s.size(0);
    h.sliceCols = s.size(1);
    const int64_t big = std::max(h.sliceRows, h.sliceCols);
    h.stride = std::max<int64_t>(1, (big + maxSide - 1) / maxSide);
    return h.stride > 1 ? s.slice(0, 0, h.sliceRows, h.stride).slice(1, 0, h.sliceCols, h.stride) : s;
}

void fillHeatmap(const at::Tensor& cut, Heatmap& h) {
    at::NoGradGuard g;
    at::Tensor sub = realPart(cut).to(at::kFloat).contiguous();
    h.rows = sub.size(0);
    h.cols = sub.size(1);
    const float* p = sub.data_ptr<float>();
    h.values.assign(p, p + sub.numel());
    bool any = false;
    for (float v : h.values) {
        if (!std::isfinite(v)) continue;
        if (!any) h.min = h.max = v;
        h.min = std::min<double>(h.min, v);
        h.max = std::max<double>(h.max, v);
        any = true;
    }
}

OutputStats outputStats(c10::ArrayRef<at::Tensor> outputs) {
    OutputStats s{std::numeric_limits<double>::quiet_NaN()};
    auto take = [&](double v) { s.maxAbs = std::isnan(s.maxAbs) ? v : std::max(s.maxAbs, v); };
    at::NoGradGuard g;
    for (const auto& o : outputs) {
        if (!o.defined() || o.numel() == 0) continue;
        at::Tensor x = realPart(o);
        if (x.scalar_type() == at::kBool) x = x.to(at::kByte);
        if (!at::isFloatingType(x.scalar_type())) {
            take(x.abs().max().item<double>());
            continue;
        }
        if (!x.isfinite().all().item<bool>()) s.nanOrInf = true;
        at::Tensor a = x.abs();
        at::Tensor finite = s.nanOrInf ? a.masked_select(a.isfinite()) : a;
        if (finite.numel()) take(finite.max().item<double>());
    }
    return s;
}

}  // namespace irscope::exec
