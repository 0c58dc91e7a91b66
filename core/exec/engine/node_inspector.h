#pragma once
// NodeInspector: code that looks at a node's results the moment its op
// returns, before the retention policy frees anything, on the running thread
// and under the session's lock. What the numerical checks (reference_check.h,
// watchpoints.h) need and a hook after the node cannot give:
//   - a report over a whole run without keeping every intermediate (the
//     values are measured while they are still in cache, then dropped);
//   - local error: the inspector may replace a node's results with the
//     reference's, so the next node runs on reference inputs;
//   - watchpoints: it may ask the run to stop after this node.
// Internal to core (torch headers); the GUI reaches it through Debugger.
#include <cstdint>
#include <string>

#include <span>

namespace at {
class Tensor;
}

namespace irscope::exec {

class NodeInspector {
public:
    virtual ~NodeInspector() = default;
    // Node `node` ran; `outputs` are its results as the IR lists them (an
    // entry is undefined where the op returned none). Returns true to stop
    // the run after this node (Session reports StopReason::Watchpoint).
    virtual bool afterNode(int64_t node, std::span<at::Tensor> outputs) = 0;
    // After it asked to stop: why, in a sentence ("'mul' output 0 has 3 NaN").
    virtual std::string whyStopped() const { return {}; }
    // The run went back to the start: forget what was measured.
    virtual void reset() {}
};

}  // namespace irscope::exec
