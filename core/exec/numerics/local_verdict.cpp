#include "core/exec/numerics/local_verdict.h"

#include "core/exec/numerics/number_text.h"

namespace irscope::exec {

std::string describeLocalVerdict(const std::vector<OutputError>& rows) {
    if (rows.empty()) return {};
    const OutputError* first = nullptr;
    size_t failing = 0;
    for (const auto& r : rows)
        if (r.failing) {
            ++failing;
            if (!first) first = &r;
        }
    const std::string how = "each node against the reference, fed the reference's inputs";
    if (!first)
        return "local error: no node is wrong by itself (" + std::to_string(rows.size()) + " outputs; " + how + ")";
    std::string s = "local error: node '" + first->nodeName + "' is wrong by itself (max abs diff " +
                    shortNumber(first->metrics.maxAbs) + "; tolerance " + first->metrics.tolerance.text() + ")";
    if (failing > 1) s += ", " + std::to_string(failing - 1) + " more output" + (failing > 2 ? "s" : "") + " fail";
    return s + "; " + how;
}

}  // namespace irscope::exec
