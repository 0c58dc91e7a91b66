// TaskQueue, the widgets' one keyed worker lane: jobs of a tag coalesce while
// waiting, a superseded job's result is dropped, a dead owner gets nothing,
// dropAll / dropOwner skip queued jobs and flag the running one, partial
// results follow the same rules, failures are reported, waitIdle waits.
//
// A "gate" job holds the lane so that what is posted behind it is known to be
// waiting, not running.
#include <atomic>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>

#include <QSemaphore>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>

#include "wait_idle.h"
#include "widgets/session/task_queue.h"

using namespace irscope::widgets;

namespace {

// Holds the lane until open() is called (or the gate goes: a failed check
// must not leave the queue's destructor waiting forever).
class Gate {
public:
    ~Gate() { state_->open.release(1000); }
    void open() { state_->open.release(); }
    // Blocks the calling job until open(); callable from any job's body.
    std::function<void()> blocker() const {
        return [state = state_] {
            state->entered = true;
            state->open.acquire();
        };
    }
    TaskQueue::Job job() const {
        return [hold = blocker()](const TaskQueue::Context&) -> TaskQueue::Continuation {
            hold();
            return {};
        };
    }
    // Until a job is inside the gate (the lane is held); then the gate can be entered again.
    bool waitEntered() {
        const bool ok = QTest::qWaitFor([this] { return state_->entered.load(); }, 5000);
        state_->entered = false;
        return ok;
    }

private:
    struct State {
        QSemaphore open;
        std::atomic<bool> entered{false};
    };
    std::shared_ptr<State> state_ = std::make_shared<State>();
};

// A job recording on the worker that it ran, and on the UI thread that its answer arrived.
struct Log {
    std::shared_ptr<QStringList> ran = std::make_shared<QStringList>();  // written by the worker only
    QStringList delivered;
    TaskQueue::Job job(const QString& name) {
        return [ran = ran, name, this](const TaskQueue::Context&) -> TaskQueue::Continuation {
            ran->append(name);
            return [this, name] { delivered << name; };
        };
    }
};

}  // namespace

class TestTaskQueue : public QObject {
    Q_OBJECT
private slots:
    void runsInOrderAndDelivers() {
        TaskQueue queue;
        Log log;
        for (const char* name : {"a", "b", "c"}) queue.post({}, nullptr, log.job(QString::fromLatin1(name)));
        QCOMPARE(queue.pending(), 3);
        QVERIFY(log.delivered.isEmpty());  // nothing runs on the caller's thread
        QVERIFY(irscope::test::waitIdle(queue));
        QCOMPARE(queue.pending(), 0);
        QCOMPARE(*log.ran, (QStringList{"a", "b", "c"}));
        QCOMPARE(log.delivered, (QStringList{"a", "b", "c"}));
    }

    void waitingJobsOfATagCoalesce() {
        TaskQueue queue;
        Gate gate;
        Log log;
        queue.post({}, nullptr, gate.job());
        QVERIFY(gate.waitEntered());
        queue.post(QStringLiteral("k"), nullptr, log.job(QStringLiteral("k1")));
        queue.post({}, nullptr, log.job(QStringLiteral("untagged")));
        queue.post(QStringLiteral("k"), nullptr, log.job(QStringLiteral("k2")));
        queue.post(QStringLiteral("other"), nullptr, log.job(QStringLiteral("other")));
        queue.post(QStringLiteral("k"), nullptr, log.job(QStringLiteral("k3")));
        // The gate, one waiting "k" (the newest job in the first one's place), the rest.
        QCOMPARE(queue.pending(), 4);
        gate.open();
        QVERIFY(irscope::test::waitIdle(queue));
        QCOMPARE(*log.ran, (QStringList{"k3", "untagged", "other"}));
        QCOMPARE(log.delivered, (QStringList{"k3", "untagged", "other"}));
    }

    void supersededResultIsDropped() {
        TaskQueue queue;
        Gate gate;
        Log log;
        QStringList delivered;
        // "k" first is running (inside the gate) when the second "k" comes.
        queue.post(QStringLiteral("k"), nullptr,
                   [hold = gate.blocker(), &delivered](const TaskQueue::Context& ctx) -> TaskQueue::Continuation {
                       hold();
                       const bool dropped = ctx.isDropped();
                       return [&delivered, dropped] { delivered << (dropped ? "old (knew it was dropped)" : "old"); };
                   });
        QVERIFY(gate.waitEntered());
        queue.post(QStringLiteral("k"), nullptr, log.job(QStringLiteral("new")));
        gate.open();
        QVERIFY(irscope::test::waitIdle(queue));
        QVERIFY(delivered.isEmpty());  // the old answer never arrives
        QCOMPARE(*log.ran, QStringList{"new"});
        QCOMPARE(log.delivered, QStringList{"new"});
    }

    void deadOwnerGetsNothing() {
        TaskQueue queue;
        Gate gate;
        Log log;
        auto* running = new QObject;
        auto* waiting = new QObject;
        QObject alive;
        queue.post({}, running, [hold = gate.blocker(), &log](const TaskQueue::Context&) -> TaskQueue::Continuation {
            hold();
            return [&log] { log.delivered << QStringLiteral("running"); };
        });
        QVERIFY(gate.waitEntered());
        queue.post({}, waiting, log.job(QStringLiteral("waiting")));
        queue.post({}, &alive, log.job(QStringLiteral("alive")));
        delete running;
        delete waiting;
        gate.open();
        QVERIFY(irscope::test::waitIdle(queue));
        QCOMPARE(log.delivered, QStringList{"alive"});
    }

    void dropAllAndDropOwnerSkipWaitingJobs() {
        TaskQueue queue;
        Gate gate;
        Log log;
        QObject a, b;
        std::atomic<bool> sawDrop{false};
        queue.post({}, &a, [hold = gate.blocker(), &sawDrop](const TaskQueue::Context& ctx) -> TaskQueue::Continuation {
            hold();
            sawDrop = ctx.droppedFlag().load();
            return {};
        });
        QVERIFY(gate.waitEntered());
        queue.post({}, &a, log.job(QStringLiteral("a")));
        queue.post({}, &b, log.job(QStringLiteral("b")));
        queue.dropOwner(&a);
        gate.open();
        QVERIFY(irscope::test::waitIdle(queue));
        QVERIFY(sawDrop);                      // the running job of `a` could tell
        QCOMPARE(*log.ran, QStringList{"b"});  // a's waiting job never ran
        QCOMPARE(log.delivered, QStringList{"b"});

        log.ran->clear();
        log.delivered.clear();
        queue.post({}, nullptr, gate.job());
        QVERIFY(gate.waitEntered());
        queue.post(QStringLiteral("t"), &b, log.job(QStringLiteral("t")));
        queue.post({}, nullptr, log.job(QStringLiteral("x")));
        queue.dropAll();
        queue.post({}, nullptr, log.job(QStringLiteral("after")));  // a new document's first job
        gate.open();
        QVERIFY(irscope::test::waitIdle(queue));
        QCOMPARE(*log.ran, QStringList{"after"});
        QCOMPARE(log.delivered, QStringList{"after"});

        // dropTag: only that tag.
        log.ran->clear();
        log.delivered.clear();
        queue.post({}, nullptr, gate.job());
        QVERIFY(gate.waitEntered());
        queue.post(QStringLiteral("t"), nullptr, log.job(QStringLiteral("t")));
        queue.post(QStringLiteral("u"), nullptr, log.job(QStringLiteral("u")));
        queue.dropTag(QStringLiteral("t"));
        gate.open();
        QVERIFY(irscope::test::waitIdle(queue));
        QCOMPARE(log.delivered, QStringList{"u"});
    }

    void partialResultsFollowTheSameRules() {
        TaskQueue queue;
        QStringList got;
        queue.post(QStringLiteral("load"), nullptr, [&got](const TaskQueue::Context& ctx) -> TaskQueue::Continuation {
            for (int i = 1; i <= 3; ++i) ctx.deliver([&got, i] { got << QStringLiteral("progress %1").arg(i); });
            return [&got] { got << QStringLiteral("done"); };
        });
        QVERIFY(irscope::test::waitIdle(queue));
        QCOMPARE(got, (QStringList{"progress 1", "progress 2", "progress 3", "done"}));

        // Dropped: its progress stops reaching the UI thread too.
        got.clear();
        Gate gate;
        queue.post(QStringLiteral("load"), nullptr,
                   [&got, hold = gate.blocker()](const TaskQueue::Context& ctx) -> TaskQueue::Continuation {
                       hold();
                       ctx.deliver([&got] { got << QStringLiteral("late progress"); });
                       return [&got] { got << QStringLiteral("late done"); };
                   });
        QVERIFY(gate.waitEntered());
        queue.dropTag(QStringLiteral("load"));
        gate.open();
        QVERIFY(irscope::test::waitIdle(queue));
        QVERIFY(got.isEmpty());
    }

    void failureIsReportedUnlessDropped() {
        TaskQueue queue;
        QSignalSpy failed(&queue, &TaskQueue::failed);
        queue.post({}, nullptr, [](const TaskQueue::Context&) -> TaskQueue::Continuation {
            throw std::runtime_error("no such tensor");
        });
        QVERIFY(irscope::test::waitIdle(queue));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("no such tensor"));
    }

    void waitIdleWaitsAndTimesOut() {
        TaskQueue queue;
        QSignalSpy busy(&queue, &TaskQueue::busyChanged);
        Gate gate;
        bool delivered = false;
        queue.post({}, nullptr, gate.job());
        queue.post({}, nullptr, [&delivered](const TaskQueue::Context&) -> TaskQueue::Continuation {
            QThread::msleep(50);
            return [&delivered] { delivered = true; };
        });
        QVERIFY(queue.isBusy());
        QVERIFY(!irscope::test::waitIdle(queue, 200));  // the gate holds the lane
        QVERIFY(!delivered);
        gate.open();
        QVERIFY(irscope::test::waitIdle(queue));
        QVERIFY(delivered);
        QVERIFY(!queue.isBusy());
        // One busy period, announced once each way.
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
    }

    void destructionSkipsWaitingJobs() {
        Log log;
        Gate gate;
        std::thread opener;
        {
            TaskQueue queue;
            queue.post({}, nullptr, gate.job());
            QVERIFY(gate.waitEntered());
            queue.post({}, nullptr, log.job(QStringLiteral("never")));
            // Opened only once the destructor below is waiting.
            opener = std::thread([&gate] {
                QThread::msleep(100);
                gate.open();
            });
        }  // waits for the gate job; the waiting one is dropped, not run
        opener.join();
        QVERIFY(log.ran->isEmpty());
        QVERIFY(log.delivered.isEmpty());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestTaskQueue)
#include "test_task_queue.moc"
