#pragma once
// How close a computed value must be to its reference to count as the same.
//
// A user who sets nothing gets, for each pair of tensors compared, the
// default torch.testing.assert_close picks for their dtypes: a float32 run
// that differs from PyTorch's by 1.7e-6 after a long LLM is float32 noise,
// not a mismatch (torch.allclose's rtol 1e-5 / atol 1e-8, which irscope used
// before, calls it one), and a bfloat16 reference needs bfloat16's band.
// When the two sides' dtypes differ (a float32 run against a bfloat16
// reference), the looser of the two defaults applies, as assert_close does
// with check_dtype=False. Integers and bools compare exactly.
//
// A user's rtol or atol (--rtol/--atol, the window's fields) replaces the
// default for every dtype; one set alone keeps the other's default.
// Every verdict says which tolerance it applied (AppliedTolerance::text).
#include <cstdint>
#include <optional>
#include <string>

namespace c10 {
enum class ScalarType : int8_t;
}

namespace irscope::exec {

// torch.testing.assert_close's default (rtol, atol) for one dtype: float16
// (1e-3, 1e-5), bfloat16 (1.6e-2, 1e-5), float32 (1.3e-6, 1e-5), float64
// (1e-7, 1e-7), the complex types as their parts, the quantized types as
// float32; integers and bool (0, 0).
struct DtypeTolerance {
    double rtol = 0, atol = 0;
};
inline constexpr DtypeTolerance kFloat32Tolerance{1.3e-6, 1e-5};

struct AppliedTolerance {
    double rtol = 0, atol = 0;
    bool exact = false;                     // integer or bool on both sides: equal or not
    bool rtolSet = false, atolSet = false;  // the user's, not the dtype's default
    std::string dtype;                      // whose default applies ("float32"); "" when exact
    // "float32 default (rtol 1.3e-06, atol 1e-05)", "rtol 0.0001, atol 1e-05 (set)",
    // "rtol 0.0001 (set), atol 1e-05 (float32 default)", "exact"
    std::string text() const;
};

struct Tolerance {
    std::optional<double> rtol, atol;  // unset: the dtypes' defaults

    bool userSet() const { return rtol.has_value() || atol.has_value(); }
    // The tolerance a comparison of an `actual` against a `reference` of
    // these dtypes uses.
    AppliedTolerance applied(c10::ScalarType actual, c10::ScalarType reference) const;
    AppliedTolerance applied(c10::ScalarType dtype) const { return applied(dtype, dtype); }
    // applied(float32), torch-free: the band the graph's error overlay is
    // coloured by (the dtype nearly every node of a graph worth colouring
    // computes in).
    AppliedTolerance appliedToFloat32() const;
};

DtypeTolerance defaultTolerance(c10::ScalarType dtype);

}  // namespace irscope::exec
