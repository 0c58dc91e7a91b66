#pragma once
// ReferenceCheck: measures every node output against a ReferenceSource the
// moment the node runs (a NodeInspector), building the ErrorReport as the
// run goes: no intermediate has to be kept, and each tensor is read once,
// while it is still in cache. That is what keeps `irscope run --report` over
// a 100,000-node graph near the cost of the plain run.
//
// Local mode: after measuring, it replaces the node's results with the
// reference's (cast to the run's dtype), so the next node runs on reference
// inputs and fails only if it is wrong by itself.
//
// The metrics are worked out on a second thread, beside the run: the run
// thread only looks up the reference and queues the two tensor handles. A
// queued handle makes the executor copy before an in-place op writes into
// that tensor, so what is measured is what the node produced. The queue is
// bounded (tensors and bytes): a run never gets far ahead of its check.
//
// Thread-safe: the run thread feeds it, any thread may read the report
// (which waits for what is queued).
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/exec/engine/node_inspector.h"
#include "core/exec/numerics/error_report.h"
#include "core/exec/reference/reference_source.h"

namespace irscope::exec {

class ReferenceCheck : public NodeInspector {
public:
    // `graph` must outlive the check.
    ReferenceCheck(const ir::Graph& graph, std::shared_ptr<ReferenceSource> reference, Tolerance tolerance,
                   ErrorMode mode);
    ~ReferenceCheck() override;

    bool afterNode(int64_t node, std::span<at::Tensor> outputs) override;
    void reset() override;

    // Measures node `node`'s results now, unless they were measured already
    // (a diff watchpoint asks before the check's own turn, and needs the
    // verdict at once); true when one fails. Inspectors that call it must
    // come before the check in Session::setInspectors: in local mode the
    // check's turn replaces the results with the reference's.
    bool measure(int64_t node, std::span<const at::Tensor> outputs);

    ErrorMode mode() const { return mode_; }
    // Local mode replaces a node's results in the run with the reference's;
    // with this set, the check keeps the node's own results, so that a viewer
    // shows what the node computed, not what it was fed forward. (Costs what
    // keeping every intermediate costs: for a debugger that keeps them all.)
    void setKeepOwn(bool keep) { keepOwn_ = keep; }
    // The node's own result for a tensor replaced in local mode (undefined otherwise).
    at::Tensor ownValue(const std::string& tensorName) const;
    const Tolerance& tolerance() const { return tolerance_; }
    ReferenceSource& reference() { return *reference_; }
    // Why the reference stopped (a reference run that failed at a node, with
    // the node and libtorch's reason); empty while it works. From then on
    // nothing more is compared and the run being checked goes on: the
    // reference's failure is never the run's.
    std::string referenceFailure() const;

    // A copy of the report so far.
    ErrorReport report() const;
    // The report, moved out (the check starts empty): for the CLI after its
    // run, where a copy of 100,000 rows would be waste.
    ErrorReport takeReport();
    size_t rowCount() const;
    // Rows [from, end) of the report, and the number of resets so far in
    // `epoch`: a reader that keeps what it saw (the GUI's snapshot) asks only
    // for rows it lacks, and starts over when the epoch moved.
    std::vector<OutputError> rowsFrom(size_t from, uint64_t& epoch) const;
    // The first failing output's tensors, kept so that it can be described
    // in full (worst index, values) after the run freed it.
    bool firstFailingTensors(at::Tensor& actual, at::Tensor& reference) const;

private:
    struct Pending {
        int64_t node;
        size_t output;
        at::Tensor actual, reference;
        std::string note;  // ReferenceSource::noteOf
    };
    void lookUp(int64_t node, std::span<const at::Tensor> outputs);
    bool switchedOff() const;
    void record(OutputError row, const at::Tensor& actual, const at::Tensor& reference);  // under mutex_
    void enqueue(int64_t node, std::span<const at::Tensor> outputs);
    void drain() const;  // waits until every queued output is measured
    void work();

    const ir::Graph& graph_;
    std::shared_ptr<ReferenceSource> reference_;
    Tolerance tolerance_;
    ErrorMode mode_;
    mutable std::mutex mutex_;
    ErrorReport report_;
    uint64_t epoch_ = 0;  // resets so far
    bool keepOwn_ = false;
    std::unordered_map<std::string, at::Tensor> own_;  // local mode: results replaced by the reference's
    int64_t measured_ = -1;                            // the last node measured
    bool measuredFailed_ = false;
    std::vector<at::Tensor> refs_;  // that node's references, for local mode's feed
    std::string note_;              // that node's ReferenceSource::noteOf
    std::string failure_;           // referenceFailure(), under mutex_
    at::Tensor firstActual_, firstReference_;

    // The worker's queue: batches of outputs to measure, in execution order.
    mutable std::mutex queueMutex_;
    mutable std::condition_variable queueChanged_;
    std::vector<Pending> filling_;           // the batch the run thread adds to
    std::deque<std::vector<Pending>> full_;  // handed to the worker
    size_t queuedTensors_ = 0, queuedBytes_ = 0;
    uint64_t enqueuedCount_ = 0, measuredCount_ = 0;  // outputs queued / measured, ever
    bool working_ = false, stopping_ = false;
    std::thread worker_;
};

}  // namespace irscope::exec
