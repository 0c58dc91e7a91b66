#include "core/exec/numerics/tolerance.h"

#include <algorithm>
#include <cstdio>

#include <c10/core/ScalarType.h>

#include "core/io/tensor_dtype.h"

namespace irscope::exec {
namespace {

bool exactKind(c10::ScalarType t) { return !c10::isFloatingType(t) && !c10::isComplexType(t) && !c10::isQIntType(t); }

}  // namespace

DtypeTolerance defaultTolerance(c10::ScalarType t) {
    switch (t) {
    case c10::ScalarType::Half:
    case c10::ScalarType::ComplexHalf: return {1e-3, 1e-5};
    case c10::ScalarType::BFloat16: return {1.6e-2, 1e-5};
    case c10::ScalarType::Float:
    case c10::ScalarType::ComplexFloat: return kFloat32Tolerance;
    case c10::ScalarType::Double:
    case c10::ScalarType::ComplexDouble: return {1e-7, 1e-7};
    default: break;
    }
    if (c10::isQIntType(t)) return kFloat32Tolerance;
    if (c10::isFloatingType(t)) return {1e-3, 1e-5};  // the float8 kinds of newer libtorch: at least half's band
    return {0, 0};
}

AppliedTolerance Tolerance::applied(c10::ScalarType actual, c10::ScalarType reference) const {
    AppliedTolerance a;
    a.exact = exactKind(actual) && exactKind(reference);
    if (a.exact) return a;
    // The looser of the two dtypes' defaults (assert_close, check_dtype=False);
    // an integer side has no band of its own.
    const DtypeTolerance x = defaultTolerance(actual), y = defaultTolerance(reference);
    const bool xLooser = x.rtol > y.rtol || (x.rtol == y.rtol && x.atol >= y.atol);
    a.rtol = std::max(x.rtol, y.rtol);
    a.atol = std::max(x.atol, y.atol);
    a.dtype = io::scalarTypeName(exactKind(actual)      ? reference
                                 : exactKind(reference) ? actual
                                 : xLooser              ? actual
                                                        : reference);
    a.rtolSet = rtol.has_value();
    a.atolSet = atol.has_value();
    if (rtol) a.rtol = *rtol;
    if (atol) a.atol = *atol;
    return a;
}

}  // namespace irscope::exec
