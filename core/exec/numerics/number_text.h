#pragma once
// A number as messages print it: `digits` significant digits, %g style
// ("2.38e-07", "0.016"); the one spelling every verdict, tolerance and status
// line uses. Here, at the numerics' floor, so that the verdicts need nothing
// from the value tables above them (values/value_text.h offers it too).
// Torch-free.
#include <string>

namespace irscope::exec {

std::string shortNumber(double v, int digits = 3);

}  // namespace irscope::exec
