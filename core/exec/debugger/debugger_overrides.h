#pragma once
// DebuggerOverrides: the Debugger's part for edit and continue. Replaces node
// output `tensor` with another value and continues from there, as a
// debugger's "set next statement" does for a variable: the run starts over and
// comes back to where it was (past breakpoints), so every node after the one
// that made `tensor` sees the new value, and so does every later run until
// the override is cleared. No torch headers.
#include <string>
#include <vector>

#include "core/exec/debugger/run_status.h"

namespace irscope::exec {

struct DebuggerCore;

class DebuggerOverrides {
public:
    explicit DebuggerOverrides(DebuggerCore& core) : core_(core) {}

    // The value comes from a tensor file (its entry `key`, else the entry
    // named `tensor`, else its only tensor), from the reference's value of
    // `tensor`, or from typed text ("[[1, 2], [3, 4]]", in the output's
    // dtype). Throws std::invalid_argument or std::runtime_error saying what
    // is wrong. Returns how the run stopped.
    RunStatus overrideFromFile(const std::string& tensor, const std::string& path, const std::string& key = {});
    RunStatus overrideFromReference(const std::string& tensor);
    RunStatus overrideFromText(const std::string& tensor, const std::string& text);
    RunStatus clearOverride(const std::string& tensor);
    std::vector<std::string> overriddenTensors() const;

private:
    // Reruns from the start up to the node before `cursor` (where the run
    // stood), past breakpoints.
    RunStatus continueAfterOverride(int64_t cursor, const std::string& tensor, const std::string& what);

    DebuggerCore& core_;
};

}  // namespace irscope::exec
