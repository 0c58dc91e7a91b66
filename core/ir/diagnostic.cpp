#include "core/ir/diagnostic.h"

#include <algorithm>

namespace irscope::ir {

const char* severityName(Severity severity) {
    switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
    }
    return "error";
}

std::string formatDiagnostic(const Diagnostic& d) {
    std::string text = severityName(d.severity);
    text += ": ";
    if (!d.node.empty())
        text += "node '" + d.node + "': ";
    else if (!d.tensor.empty())
        text += "tensor '" + d.tensor + "': ";
    text += d.message;
    return text;
}

size_t countSeverity(const std::vector<Diagnostic>& diagnostics, Severity severity) {
    return static_cast<size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                             [&](const Diagnostic& d) { return d.severity == severity; }));
}

}  // namespace irscope::ir
