#pragma once
// A finding about an IR: how bad it is, what it concerns, and what to do.
#include <string>
#include <vector>

namespace irscope::ir {

enum class Severity { Error, Warning, Info };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string code;      // stable identifier, e.g. "missing-constant", for filters and tests
    std::string node;      // node the finding is about ("" when none)
    std::string tensor;    // tensor / placeholder / weight name ("" when none)
    std::string jsonPath;  // where in the file, e.g. "nodes[3].inputs[1]" ("" when unknown)
    std::string message;   // a sentence a user can act on
};

const char* severityName(Severity severity);  // "error", "warning", "info"

// "error: node 'mul': <message>" (the part after "FILE: " in `irscope validate`).
std::string formatDiagnostic(const Diagnostic& diagnostic);

size_t countSeverity(const std::vector<Diagnostic>& diagnostics, Severity severity);

}  // namespace irscope::ir
