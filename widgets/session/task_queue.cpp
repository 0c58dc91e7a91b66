#include "widgets/session/task_queue.h"

#include <algorithm>
#include <exception>

#include <QPointer>

namespace irscope::widgets {

// One posted job. `job` and `started` are shared with the worker (under the
// queue's mutex); `dropped` is read by the worker without it; the rest belongs
// to the owning thread.
struct TaskQueue::Entry {
    QString tag;
    QPointer<QObject> owner;
    const QObject* ownerKey = nullptr;  // compared by dropOwner(), never dereferenced
    std::atomic<bool> dropped{false};
    Job job;
    bool started = false;

    void setOwner(QObject* o) {
        owner = o;
        ownerKey = o;
    }
};

TaskQueue::Context::Context(TaskQueue* queue, std::shared_ptr<Entry> entry) : queue_(queue), entry_(std::move(entry)) {}

bool TaskQueue::Context::isDropped() const { return entry_->dropped.load(); }

const std::atomic<bool>& TaskQueue::Context::droppedFlag() const { return entry_->dropped; }

void TaskQueue::Context::deliver(Continuation partial) const {
    // Queued to the queue object: if the queue is gone by then, Qt discards it.
    QMetaObject::invokeMethod(
        queue_,
        [queue = queue_, entry = entry_, partial = std::move(partial)] {
            if (partial && queue->isLive(*entry)) partial();
        },
        Qt::QueuedConnection);
}

TaskQueue::TaskQueue(QThread::Priority priority, QObject* parent) : QObject(parent) {
    pool_.setMaxThreadCount(1);  // one lane: jobs run in order, never two at once
    pool_.setExpiryTimeout(-1);  // keep the thread: lanes are busy in bursts
    pool_.setThreadPriority(priority);
}

TaskQueue::~TaskQueue() {
    dropAll();
    pool_.waitForDone();
}

void TaskQueue::post(const QString& tag, QObject* owner, Job job) {
    if (!tag.isEmpty()) {
        for (const auto& e : live_) {
            if (e->tag != tag || e->dropped) continue;
            {
                std::lock_guard lock(mutex_);
                if (!e->started) {  // still waiting: the newer job takes its place in line
                    e->job = std::move(job);
                    e->setOwner(owner);
                    return;
                }
            }
            e->dropped = true;  // running or finished: its result is superseded
        }
    }
    auto entry = std::make_shared<Entry>();
    entry->tag = tag;
    entry->setOwner(owner);
    entry->job = std::move(job);
    live_.push_back(entry);
    ++pending_;
    if (!busy_) {
        busy_ = true;
        emit busyChanged(true);
    }
    pool_.start([this, entry] { run(entry); });
}

void TaskQueue::dropAll() {
    for (const auto& e : live_) e->dropped = true;
}

void TaskQueue::dropOwner(const QObject* owner) {
    for (const auto& e : live_)
        if (e->ownerKey == owner) e->dropped = true;
}

void TaskQueue::dropTag(const QString& tag) {
    for (const auto& e : live_)
        if (e->tag == tag) e->dropped = true;
}

bool TaskQueue::isLive(const Entry& e) const {
    // An entry posted without an owner has a null key and lives until dropped.
    return !e.dropped && (e.ownerKey == nullptr || e.owner);
}

// On the worker.
void TaskQueue::run(const std::shared_ptr<Entry>& entry) {
    Job job;
    {
        std::lock_guard lock(mutex_);
        entry->started = true;
        job = std::move(entry->job);
    }
    Continuation continuation;
    QString error;
    if (job && !entry->dropped) {
        try {
            continuation = job(Context(this, entry));
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
    }
    job = nullptr;  // what the job captured goes now, on the worker, not later on the UI thread
    QMetaObject::invokeMethod(
        this, [this, entry, continuation = std::move(continuation), error] { finish(entry, continuation, error); },
        Qt::QueuedConnection);
}

void TaskQueue::finish(const std::shared_ptr<Entry>& entry, const Continuation& continuation, const QString& error) {
    live_.erase(std::find(live_.begin(), live_.end(), entry));
    --pending_;
    if (!entry->dropped) {
        if (!error.isEmpty())
            emit failed(error);
        else if (continuation && isLive(*entry))
            continuation();
    }
    // A continuation may have posted again: busy only ends when nothing is left.
    if (pending_ == 0 && busy_) {
        busy_ = false;
        emit busyChanged(false);
    }
}

}  // namespace irscope::widgets
