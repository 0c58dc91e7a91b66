#pragma once
// ErrorMetrics: how far a computed tensor is from its reference, in every
// measure the tools people compare irscope with report, so one table answers
// whichever question they bring: Polygraphy's max abs / max rel,
// ExecuTorch Inspector's MSE and L1 (mean abs), PT2E's SQNR, cosine
// similarity, torch.allclose's verdict, and NaN/Inf counts on both sides.
// Integers and bools compare exactly (a mismatch count).
//
// Definitions (all in float64 over the flattened tensors, d = actual - ref):
//   max_abs  = max |d|                     mean_abs = mean |d|      mse = mean d^2
//   max_rel  = max |d| / |ref|, where 0/0 counts 0 and x/0 (x > 0) inf
//   cosine   = <actual, ref> / (|actual| |ref|); 1 when both are zero, 0 when one is
//   sqnr_db  = 10 log10(|ref|^2 / |d|^2); +inf when d = 0
//   ok       = torch.allclose(actual, ref, rtol, atol) (NaN never close) with
//              the tolerance tolerance.h applies to the two dtypes; exact
//              equality for integers and bools
// A NaN anywhere makes max_abs, mean_abs, mse, sqnr_db NaN, as in PyTorch.
#include <cstdint>
#include <limits>
#include <string>

#include "core/exec/numerics/verify.h"

namespace at {
class Tensor;
}

namespace irscope::exec {

struct ErrorMetrics {
    std::string problem;  // why they could not be compared ("" when they were)
    bool exact = false;   // integer or bool: compared exactly
    int64_t numel = 0;
    double maxAbs = 0, maxRel = 0, meanAbs = 0, mse = 0;
    double cosine = 1;
    double sqnrDb = std::numeric_limits<double>::infinity();
    int64_t mismatches = 0;  // elements outside the tolerance (or unequal, when exact)
    bool ok = false;
    int64_t nanActual = 0, infActual = 0, nanReference = 0, infReference = 0;
    // Where |actual - ref| is largest (a NaN difference counts as largest):
    // the flat index (row-major over the shape) and both values there; -1
    // when nothing was compared.
    int64_t worstIndex = -1;
    double worstActual = 0, worstReference = 0;
    AppliedTolerance tolerance;  // what `ok` and `mismatches` were judged by

    bool comparable() const { return problem.empty(); }
};

// Same dtype and contiguous (the common case, a run against its dump) reads
// both in place in their own dtype, accumulating in float64; anything else
// is converted to float64 first.
// Shapes must agree exactly; dtypes may differ (a float16 run against a
// float32 reference compares in float64), but an integer or bool against a
// float is a problem.
ErrorMetrics errorMetrics(const at::Tensor& actual, const at::Tensor& reference, const Tolerance& tolerance = {});

}  // namespace irscope::exec
