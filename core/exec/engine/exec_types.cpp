// The names and texts of exec_types.h's plain types. Torch-free and in a
// light part (irscope_exec_terms): the window words states and missing values
// before the execution engine is loaded.
#include "core/exec/engine/exec_types.h"

#include <algorithm>

namespace irscope::exec {

const char* nodeStateName(NodeState s) {
    switch (s) {
    case NodeState::Pending: return "pending";
    case NodeState::Done: return "done";
    case NodeState::Failed: return "failed";
    }
    return "?";
}

const char* stopReasonName(StopReason r) {
    switch (r) {
    case StopReason::Finished: return "finished";
    case StopReason::Stepped: return "stepped";
    case StopReason::ReachedTarget: return "reached target";
    case StopReason::Breakpoint: return "breakpoint";
    case StopReason::Watchpoint: return "watchpoint";
    case StopReason::Failed: return "failed";
    case StopReason::Cancelled: return "cancelled";
    case StopReason::MissingValue: return "missing value";
    }
    return "?";
}

std::string formatMissingValue(const MissingValue& m) {
    std::string s = m.name + " (" + m.kind;
    if (!m.originalName.empty() && m.originalName != m.name) s += " '" + m.originalName + "'";
    s += ")";
    if (m.wrongDtype()) {
        s += ": ";
        s += m.haveDtype;
        s += ", the IR says ";
        s += m.irDtype;
    }
    if (!m.refusal.empty()) s += ": " + m.refusal;
    if (!m.unreadable.empty()) s += ": " + m.unreadable;
    if (!m.nodes.empty()) {
        s += ", needed by: ";
        const size_t listed = std::min(m.nodes.size(), kListedConsumers);
        for (size_t i = 0; i < listed; ++i) s += (i ? ", " : "") + m.nodes[i];
        if (m.nodes.size() > listed) s += " and " + std::to_string(m.nodes.size() - listed) + " more";
    }
    return s;
}

}  // namespace irscope::exec
