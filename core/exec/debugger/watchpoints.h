#pragma once
// Watchpoints: stop a run right after a node whose output goes bad, the
// debugger's data breakpoint. A condition is any of: a NaN, an Inf, max |x|
// above a limit, or a difference from the reference that fails the
// tolerance. Conditions apply to every node (global, the Debug menu and
// `irscope run --break-on`) or to one node (right-click on it); a node is
// watched for the union of both.
//
// A NodeInspector: it reads each node's results before anything is freed.
// Thread-safe: conditions may change from the UI thread while a run goes.
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/debugger/watch_condition.h"
#include "core/exec/engine/node_inspector.h"

namespace irscope::ir {
struct Graph;
}

namespace irscope::exec {

class ReferenceCheck;

// What fired: the node, which output, and why in words.
struct WatchHit {
    int64_t node = -1;
    int64_t output = -1;
    std::string why;  // "output 0 'mul_1' has 3 NaN of 64"
};

class Watchpoints : public NodeInspector {
public:
    // `graph` must outlive it. `check` (may be null) answers the diff condition.
    explicit Watchpoints(const ir::Graph& graph, std::shared_ptr<ReferenceCheck> check = nullptr);

    void setGlobal(const WatchCondition& condition);
    WatchCondition global() const;
    void setNode(int64_t node, const WatchCondition& condition);  // an empty condition removes it
    std::map<int64_t, WatchCondition> nodes() const;
    void setCheck(std::shared_ptr<ReferenceCheck> check);

    bool afterNode(int64_t node, std::span<at::Tensor> outputs) override;
    std::string whyStopped() const override;
    void reset() override;
    std::optional<WatchHit> lastHit() const;

private:
    const ir::Graph& graph_;
    mutable std::mutex mutex_;
    WatchCondition global_;
    std::map<int64_t, WatchCondition> perNode_;
    std::shared_ptr<ReferenceCheck> check_;
    std::optional<WatchHit> hit_;
    std::atomic<bool> armed_{false};  // any condition set (read without the lock by afterNode)
};

}  // namespace irscope::exec
