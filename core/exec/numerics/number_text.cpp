#include "core/exec/numerics/number_text.h"

#include <cstdio>

namespace irscope::exec {

std::string shortNumber(double v, int digits) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

}  // namespace irscope::exec
