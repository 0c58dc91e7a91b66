#pragma once
// TaskQueue: the one way the widgets run work off the UI thread (RenderDoc's
// AsyncInvoke(tag, ...)). The graph session's load and layout worker, the
// debugger's run lane and its query lane are each one TaskQueue, so they share
// one set of rules instead of a hand-written copy each.
//
// A queue is a lane: one worker thread running its jobs one after another in
// the order they were posted.
//
// Tags coalesce. A job posted with a non-empty tag replaces a job of that tag
// still waiting (taking its place in line) and supersedes one already running
// (whose result is then dropped). A burst of requests for the same thing (a
// selection clicked through, a spin box held down) costs at most one job
// running and one waiting, and only the newest answers. An empty tag never
// replaces anything.
//
// A job returns a continuation, run on the thread that owns the queue (the UI
// thread). It is dropped, and a job that has not started yet is not run at
// all, when
//   - a newer job of its tag superseded it,
//   - its owner QObject was destroyed (a closed viewer gets nothing),
//   - it was dropped: dropAll() (a new document: nothing about the old one may
//     reach the panels), dropOwner() (one object's requests went stale),
//     dropTag().
// A running job sees through its Context whether it was dropped, so a long one
// can stop early, and it can hand partial results (progress) to the UI thread
// under the same rules. A job that throws std::exception reports the message
// through failed() (unless dropped) instead of running a continuation.
//
// post(), the drop functions and the getters belong to the thread
// that owns the queue.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include <QObject>
#include <QString>
#include <QThread>
#include <QThreadPool>

namespace irscope::widgets {

class TaskQueue : public QObject {
    Q_OBJECT
public:
    using Continuation = std::function<void()>;
    struct Entry;

    // What a running job sees of itself.
    class Context {
    public:
        // True once the job's result will be dropped (superseded, its owner
        // gone, or dropped): a long job may stop early.
        bool isDropped() const;
        // The same as a flag, for code that polls a std::atomic<bool>.
        const std::atomic<bool>& droppedFlag() const;
        // Runs `partial` on the owning thread unless the job is dropped by then.
        void deliver(Continuation partial) const;
        // Made by the queue for each job it runs (Entry is the queue's own).
        Context(TaskQueue* queue, std::shared_ptr<Entry> entry);

    private:
        TaskQueue* queue_;
        std::shared_ptr<Entry> entry_;
    };
    using Job = std::function<Continuation(const Context&)>;

    // `priority`: the worker thread's (a layout yields to the UI thread).
    explicit TaskQueue(QThread::Priority priority = QThread::InheritPriority, QObject* parent = nullptr);
    // Drops everything, then waits for the running job (the one wait there
    // is: at the end of the owner's life, so that no job outlives what it reads).
    ~TaskQueue() override;

    // Queues `job` for `owner` (nullptr: no owner, never dropped for one).
    void post(const QString& tag, QObject* owner, Job job);
    void dropAll();
    void dropOwner(const QObject* owner);
    void dropTag(const QString& tag);

    // Jobs posted whose continuation has not been delivered (or dropped) yet.
    int pending() const { return pending_; }
    bool isBusy() const { return pending_ > 0; }
    bool isIdle() const { return pending_ == 0; }  // busyChanged(false) says when it becomes so

signals:
    void busyChanged(bool busy);
    void failed(const QString& message);

private:
    void run(const std::shared_ptr<Entry>& entry);
    void finish(const std::shared_ptr<Entry>& entry, const Continuation& continuation, const QString& error);
    bool isLive(const Entry& entry) const;

    QThreadPool pool_;
    std::mutex mutex_;                          // guards Entry::job and Entry::started
    std::vector<std::shared_ptr<Entry>> live_;  // posted, not yet finished (owning thread)
    int pending_ = 0;
    bool busy_ = false;
};

}  // namespace irscope::widgets
