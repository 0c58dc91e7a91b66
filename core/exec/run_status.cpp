#include "core/exec/run_status.h"

namespace irscope::exec {

RunStatus describeStop(const ir::Graph& graph, const RunResult& r, int64_t cursor) {
    RunStatus s;
    s.reason = r.reason;
    s.lastNode = r.lastNode;
    const auto& nodes = graph.nodes;
    auto nameOf = [&](int64_t i) {
        return i >= 0 && i < static_cast<int64_t>(nodes.size()) ? nodes[i].name : std::string("?");
    };
    switch (r.reason) {
    case StopReason::Finished:
        s.message = "finished: " + std::to_string(cursor) + "/" + std::to_string(nodes.size()) + " nodes ran";
        break;
    case StopReason::Stepped: s.message = "ran '" + nameOf(r.lastNode) + "'"; break;
    case StopReason::ReachedTarget: s.message = "stopped after '" + nameOf(r.lastNode) + "'"; break;
    case StopReason::Breakpoint: s.message = "breakpoint: stopped before '" + nameOf(cursor) + "'"; break;
    case StopReason::Watchpoint:
        s.message = "watchpoint: stopped after '" + nameOf(r.lastNode) + "'" + (r.watch.empty() ? "" : ": " + r.watch);
        break;
    case StopReason::Cancelled: s.message = "stopped before '" + nameOf(cursor) + "'"; break;
    case StopReason::Failed:
        s.failed = true;
        s.message = r.error ? "node '" + r.error->nodeName + "' (" + r.error->opType + ") failed: " + r.error->message
                            : "failed";
        break;
    }
    return s;
}

}  // namespace irscope::exec
