#include "core/exec/reference/reference_check.h"
#include "core/exec/engine/exec_error.h"
#include "core/exec/engine/uninitialized_ops.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

namespace irscope::exec {
namespace {

// A batch is handed over this full; the run waits past these many queued.
constexpr size_t kBatch = 64;
constexpr size_t kMaxQueuedTensors = 4096;
constexpr size_t kMaxQueuedBytes = size_t{256} << 20;

// What a queued handle keeps alive: the whole storage (a slice keeps its base).
size_t bytesOf(const at::Tensor& t) {
    if (!t.defined()) return 0;
    return t.has_storage() ? t.storage().nbytes() : static_cast<size_t>(t.numel()) * t.element_size();
}

}  // namespace

ReferenceCheck::ReferenceCheck(const ir::Graph& graph, std::shared_ptr<ReferenceSource> reference, Tolerance tolerance,
                               ErrorMode mode)
    : graph_(graph), reference_(std::move(reference)), tolerance_(tolerance), mode_(mode) {
    report_.tolerance = tolerance_;
    report_.mode = errorModeName(mode_);
    worker_ = std::thread([this] { work(); });
}

ReferenceCheck::~ReferenceCheck() {
    {
        std::lock_guard lock(queueMutex_);
        stopping_ = true;
    }
    queueChanged_.notify_all();
    worker_.join();
}

void ReferenceCheck::work() {
    std::unique_lock lock(queueMutex_);
    while (true) {
        queueChanged_.wait(lock, [&] { return stopping_ || !full_.empty(); });
        if (full_.empty()) return;  // stopping, nothing left
        std::vector<Pending> batch = std::move(full_.front());
        full_.pop_front();
        working_ = true;
        lock.unlock();
        const size_t count = batch.size();
        size_t bytes = 0;
        for (Pending& p : batch) {
            const auto& node = graph_.nodes[static_cast<size_t>(p.node)];
            OutputError row;
            try {
                row = measureOutput(node, p.node, p.output, p.actual, p.reference, tolerance_,
                                    reference_->dtypeMayDiffer());
            } catch (const std::exception& e) {  // a layout or dtype errorMetrics cannot read: say so in the row
                row = measureOutput(node, p.node, p.output, at::Tensor(), at::Tensor(), tolerance_);
                row.metrics.problem = std::string("cannot be measured: ") + e.what();
                row.failing = true;
            }
            row.referenceNote = std::move(p.note);
            bytes += bytesOf(p.actual) + bytesOf(p.reference);
            std::lock_guard reportLock(mutex_);
            record(std::move(row), p.actual, p.reference);
        }
        batch.clear();  // the handles go before the run is told there is room
        lock.lock();
        queuedTensors_ -= std::min(queuedTensors_, count);
        queuedBytes_ -= std::min(queuedBytes_, bytes);
        measuredCount_ += count;
        working_ = false;
        queueChanged_.notify_all();
    }
}

// Waits for what was queued when it was called, not for an empty queue: a
// reader on another thread is not held up by what the run queues meanwhile.
void ReferenceCheck::drain() const {
    std::unique_lock lock(queueMutex_);
    auto* self = const_cast<ReferenceCheck*>(this);
    if (!self->filling_.empty()) {
        self->full_.push_back(std::move(self->filling_));
        self->filling_.clear();
        queueChanged_.notify_all();
    }
    const uint64_t target = enqueuedCount_;
    queueChanged_.wait(lock, [&] { return measuredCount_ >= target; });
}

void ReferenceCheck::reset() {
    drain();
    std::lock_guard lock(mutex_);
    reference_->reset();
    report_ = ErrorReport{};
    ++epoch_;
    report_.tolerance = tolerance_;
    report_.mode = errorModeName(mode_);
    measured_ = -1;
    measuredFailed_ = false;
    refs_.clear();
    note_.clear();
    failure_.clear();
    own_.clear();
    firstActual_.reset();
    firstReference_.reset();
}

void ReferenceCheck::record(OutputError row, const at::Tensor& actual, const at::Tensor& reference) {
    if (row.failing && !report_.firstFailing) {
        report_.firstFailing = report_.outputs.size();
        firstActual_ = actual;
        firstReference_ = reference;
    }
    report_.outputs.push_back(std::move(row));
}

// The references of node i's computed outputs into refs_ (a reference run
// computes them here, on the run thread, in lockstep).
void ReferenceCheck::lookUp(int64_t i, std::span<const at::Tensor> outputs) {
    const auto& node = graph_.nodes[static_cast<size_t>(i)];
    refs_.assign(node.outputs.size(), at::Tensor());
    note_.clear();
    if (producesUninitialized(node.opType)) return;  // nothing to compare (uninitialized_ops.h)
    if (switchedOff()) return;
    try {
        for (size_t k = 0; k < node.outputs.size(); ++k)
            if (k < outputs.size() && outputs[k].defined())
                refs_[k] = reference_->referenceOf(i, k, node.outputs[k].name);
        note_ = reference_->noteOf(i);
    } catch (const ExecError& e) {
        // A reference run that cannot go on is the reference's failure, not
        // the run's: the check stops comparing and says why; the run goes on.
        refs_.assign(node.outputs.size(), at::Tensor());
        std::lock_guard lock(mutex_);
        failure_ = e.reason();
    } catch (const std::exception& e) {  // libtorch's own (out of memory in the reference's cast)
        refs_.assign(node.outputs.size(), at::Tensor());
        std::lock_guard lock(mutex_);
        failure_ = std::string("the reference run failed at node '") + node.name + "': " + e.what();
    }
}

bool ReferenceCheck::switchedOff() const {
    std::lock_guard lock(mutex_);
    return !failure_.empty();
}

std::string ReferenceCheck::referenceFailure() const {
    std::lock_guard lock(mutex_);
    return failure_;
}

bool ReferenceCheck::measure(int64_t i, std::span<const at::Tensor> outputs) {
    if (i == measured_) return measuredFailed_;
    lookUp(i, outputs);
    drain();  // rows stay in execution order
    std::lock_guard lock(mutex_);
    measured_ = i;
    measuredFailed_ = false;
    const auto& node = graph_.nodes[static_cast<size_t>(i)];
    for (size_t k = 0; k < refs_.size(); ++k) {
        if (k >= outputs.size() || !outputs[k].defined()) continue;  // not returned: nothing to measure
        if (!refs_[k].defined()) {
            ++report_.notInReference;
            continue;
        }
        OutputError row;
        try {
            row = measureOutput(node, i, k, outputs[k], refs_[k], tolerance_, reference_->dtypeMayDiffer());
        } catch (const std::exception& e) {  // as the worker does: say so in the row
            row = measureOutput(node, i, k, at::Tensor(), at::Tensor(), tolerance_);
            row.metrics.problem = std::string("cannot be measured: ") + e.what();
            row.failing = true;
        }
        row.referenceNote = note_;
        measuredFailed_ = measuredFailed_ || row.failing;
        record(std::move(row), outputs[k], refs_[k]);
    }
    return measuredFailed_;
}

void ReferenceCheck::enqueue(int64_t i, std::span<const at::Tensor> outputs) {
    std::unique_lock lock(queueMutex_);
    for (size_t k = 0; k < refs_.size(); ++k) {
        if (k >= outputs.size() || !outputs[k].defined()) continue;
        if (!refs_[k].defined()) {
            std::lock_guard reportLock(mutex_);
            ++report_.notInReference;
            continue;
        }
        queuedBytes_ += bytesOf(outputs[k]) + bytesOf(refs_[k]);
        ++queuedTensors_;
        ++enqueuedCount_;
        filling_.push_back(Pending{i, k, outputs[k], refs_[k], note_});
    }
    if (filling_.size() >= kBatch) {
        full_.push_back(std::move(filling_));
        filling_ = {};
        filling_.reserve(kBatch);
        queueChanged_.notify_all();
    }
    if (queuedTensors_ > kMaxQueuedTensors || queuedBytes_ > kMaxQueuedBytes) {
        // Let the worker catch up, so the handles it holds stay bounded.
        if (!filling_.empty()) {
            full_.push_back(std::move(filling_));
            filling_ = {};
        }
        queueChanged_.notify_all();
        queueChanged_.wait(
            lock, [&] { return queuedTensors_ <= kMaxQueuedTensors / 2 && queuedBytes_ <= kMaxQueuedBytes / 2; });
    }
}

bool ReferenceCheck::afterNode(int64_t i, std::span<at::Tensor> outputs) {
    if (i != measured_) {
        lookUp(i, outputs);
        enqueue(i, outputs);
    }
    if (mode_ == ErrorMode::Local) {
        at::NoGradGuard guard;
        for (size_t k = 0; k < outputs.size() && k < refs_.size(); ++k) {
            const at::Tensor& ref = refs_[k];
            if (!ref.defined() || !outputs[k].defined() || !ref.sizes().equals(outputs[k].sizes())) continue;
            // The queued handle keeps the run's own result for the worker.
            if (keepOwn_ && k < graph_.nodes[static_cast<size_t>(i)].outputs.size()) {
                std::lock_guard lock(mutex_);
                own_[graph_.nodes[static_cast<size_t>(i)].outputs[k].name] = outputs[k];
            }
            outputs[k] = ref.scalar_type() == outputs[k].scalar_type() ? ref : ref.to(outputs[k].scalar_type());
        }
    }
    refs_.clear();
    return false;
}

ErrorReport ReferenceCheck::report() const {
    drain();
    std::lock_guard lock(mutex_);
    return report_;
}

at::Tensor ReferenceCheck::ownValue(const std::string& tensorName) const {
    std::lock_guard lock(mutex_);
    auto it = own_.find(tensorName);
    return it == own_.end() ? at::Tensor() : it->second;
}

std::vector<OutputError> ReferenceCheck::rowsFrom(size_t from, uint64_t& epoch) const {
    drain();
    std::lock_guard lock(mutex_);
    epoch = epoch_;
    const auto& rows = report_.outputs;
    if (from >= rows.size()) return {};
    return {rows.begin() + static_cast<std::ptrdiff_t>(from), rows.end()};
}

ErrorReport ReferenceCheck::takeReport() {
    drain();
    std::lock_guard lock(mutex_);
    ErrorReport out = std::move(report_);
    report_ = ErrorReport{};
    report_.tolerance = tolerance_;
    report_.mode = errorModeName(mode_);
    return out;
}

size_t ReferenceCheck::rowCount() const {
    drain();
    std::lock_guard lock(mutex_);
    return report_.outputs.size();
}

bool ReferenceCheck::firstFailingTensors(at::Tensor& actual, at::Tensor& reference) const {
    drain();
    std::lock_guard lock(mutex_);
    actual = firstActual_;
    reference = firstReference_;
    return actual.defined();
}

}  // namespace irscope::exec
