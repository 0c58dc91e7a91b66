#include "core/io/catalog/tensor_summary.h"

#include <cmath>
#include <limits>

#include "core/io/catalog/stats_kernel.h"

namespace irscope::io {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

void applyAccumulator(const StatsAccumulator& a, TensorSummary& s) {
    s.zeros = a.zeros;
    s.nans = a.nans;
    s.posInfs = a.posInfs;
    s.negInfs = a.negInfs;
    s.infs = a.posInfs + a.negInfs;
    s.finite = a.n;
    if (a.n > 0) {
        s.min = a.lo;
        s.max = a.hi;
        s.mean = a.sum / static_cast<double>(a.n);
        s.std = a.n > 1 ? std::sqrt(a.m2 / static_cast<double>(a.n - 1)) : 0.0;  // unbiased, as torch.std
    }
}

double TensorSummary::torchMin() const {
    if (nans || numel == 0) return kNaN;
    if (negInfs) return -kInf;
    return finite ? min : kInf;
}

double TensorSummary::torchMax() const {
    if (nans || numel == 0) return kNaN;
    if (posInfs) return kInf;
    return finite ? max : -kInf;
}

double TensorSummary::torchMean() const {
    if (nans || numel == 0 || (posInfs && negInfs)) return kNaN;
    if (posInfs) return kInf;
    if (negInfs) return -kInf;
    return mean;
}

}  // namespace irscope::io
