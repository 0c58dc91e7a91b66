#include "core/io/tensor_stats.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/io/catalog/stats_kernel.h"
#include "core/io/tensor_dtype.h"

namespace irscope::io {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kBlock = 1 << 20;

// Running moments over the finite values, blocks combined as Chan et al.'s
// parallel variance does (exact for one block: the two-pass formula).
struct Moments {
    int64_t n = 0;
    double sum = 0, mean = 0, m2 = 0, lo = kInf, hi = -kInf;

    void add(const at::Tensor& finite) {
        const int64_t nb = finite.numel();
        if (nb == 0) return;
        const double sumB = finite.sum().item<double>();
        const double meanB = sumB / static_cast<double>(nb);
        const double m2B = (finite - meanB).pow(2).sum().item<double>();
        lo = std::min(lo, finite.min().item<double>());
        hi = std::max(hi, finite.max().item<double>());
        const int64_t total = n + nb;
        const double delta = meanB - mean;
        mean += delta * static_cast<double>(nb) / static_cast<double>(total);
        m2 += m2B + delta * delta * static_cast<double>(n) * static_cast<double>(nb) / static_cast<double>(total);
        sum += sumB;
        n = total;
    }
};

void addBlock(const at::Tensor& block, TensorSummary& s, Moments& m) {
    at::Tensor x = block.to(at::kDouble);
    s.zeros += x.eq(0).sum().item<int64_t>();
    const int64_t nans = x.isnan().sum().item<int64_t>();
    const int64_t pos = x.eq(kInf).sum().item<int64_t>();
    const int64_t neg = x.eq(-kInf).sum().item<int64_t>();
    s.nans += nans;
    s.posInfs += pos;
    s.negInfs += neg;
    m.add(nans + pos + neg ? x.masked_select(x.isfinite()) : x);
}

// The raw-memory kernel's element type for a dtype it handles.
std::optional<StatsElement> kernelElement(at::ScalarType type) {
    switch (type) {
    case at::kFloat: return StatsElement::Float32;
    case at::kDouble: return StatsElement::Float64;
    case at::kHalf: return StatsElement::Float16;
    case at::kBFloat16: return StatsElement::BFloat16;
    default: return std::nullopt;
    }
}

}  // namespace

TensorSummary summarize(const at::Tensor& tensor) {
    TensorSummary s;
    if (!tensor.defined()) return s;
    s.shape = tensor.sizes().vec();
    s.dtype = scalarTypeName(tensor.scalar_type());
    s.numel = tensor.numel();
    s.bytes = static_cast<size_t>(s.numel) * tensor.element_size();
    if (s.numel == 0) return s;
    at::NoGradGuard guard;
    if (auto element = kernelElement(tensor.scalar_type())) {
        const at::Tensor dense = tensor.contiguous();
        StatsAccumulator acc;
        accumulateStats(dense.data_ptr(), s.numel, *element, acc);
        applyAccumulator(acc, s);
        return s;
    }
    const at::Tensor flat = (tensor.is_complex() ? tensor.abs() : tensor).reshape(-1);
    Moments m;
    for (int64_t start = 0; start < s.numel; start += kBlock)
        addBlock(flat.slice(0, start, std::min(s.numel, start + kBlock)), s, m);
    applyAccumulator({m.n, s.zeros, s.nans, s.posInfs, s.negInfs, m.sum, m.mean, m.m2, m.lo, m.hi}, s);
    return s;
}

}  // namespace irscope::io
