#include "core/exec/debugger/watch_condition.h"

#include <cmath>
#include <cstdlib>

#include "core/exec/numerics/number_text.h"

namespace irscope::exec {
namespace {

std::string number(double v) { return shortNumber(v, 6); }

}  // namespace

WatchCondition& WatchCondition::operator|=(const WatchCondition& o) {
    nan = nan || o.nan;
    inf = inf || o.inf;
    diff = diff || o.diff;
    if (o.absMax && (!absMax || *o.absMax < *absMax)) absMax = o.absMax;
    return *this;
}

std::optional<WatchCondition> parseWatchCondition(const std::string& text, std::string* error) {
    WatchCondition c;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (part == "nan") {
            c.nan = true;
        } else if (part == "inf") {
            c.inf = true;
        } else if (part == "diff") {
            c.diff = true;
        } else if (part.rfind("absmax=", 0) == 0) {
            const std::string v = part.substr(7);
            char* end = nullptr;
            const double limit = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || !std::isfinite(limit) || limit < 0) {
                if (error) *error = "absmax needs a non-negative number, not '" + v + "'";
                return std::nullopt;
            }
            c.absMax = limit;
        } else {
            if (error) *error = "'" + part + "' is not one of nan, inf, diff, absmax=V";
            return std::nullopt;
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return c;
}

std::string watchConditionText(const WatchCondition& c) {
    std::string s;
    auto add = [&](const std::string& part) { s += (s.empty() ? std::string() : std::string(",")) + part; };
    if (c.nan) add("nan");
    if (c.inf) add("inf");
    if (c.diff) add("diff");
    if (c.absMax) add("absmax=" + number(*c.absMax));
    return s;
}

}  // namespace irscope::exec
