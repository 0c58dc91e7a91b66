// The tolerance a verdict applied, in words, and float32's. Torch-free and in
// a light part (irscope_exec_terms): the window shows them before the
// execution engine is loaded.
#include "core/exec/numerics/tolerance.h"

#include "core/exec/numerics/number_text.h"

namespace irscope::exec {

AppliedTolerance Tolerance::appliedToFloat32() const {
    AppliedTolerance a;
    a.rtol = rtol.value_or(kFloat32Tolerance.rtol);
    a.atol = atol.value_or(kFloat32Tolerance.atol);
    a.rtolSet = rtol.has_value();
    a.atolSet = atol.has_value();
    a.dtype = "float32";
    return a;
}

std::string AppliedTolerance::text() const {
    if (exact) return "exact";
    const std::string r = "rtol " + shortNumber(rtol), a = "atol " + shortNumber(atol);
    if (rtolSet && atolSet) return r + ", " + a + " (set)";
    if (rtolSet) return r + " (set), " + a + " (" + dtype + " default)";
    if (atolSet) return r + " (" + dtype + " default), " + a + " (set)";
    return dtype + " default (" + r + ", " + a + ")";
}

}  // namespace irscope::exec
