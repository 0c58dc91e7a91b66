#pragma once
// EngineStart: whether the execution engine (core/exec with libtorch, the
// app's engine module) is in the process yet. The app draws its first frame
// before loading it: libtorch's own start-up (~0.35 s) is most of what
// opening a small file would cost, and nothing the window shows before a
// Debugger exists needs it. The app hands over a loader and starts it behind
// the first frame; the load runs on a lane of its own (TaskQueue), then
// ready() follows on the UI thread.
//
// Whatever makes a Debugger waits for isReady(): the window's calls into the
// engine are bound lazily (app/CMakeLists.txt) and cannot come before it is
// in. A program that links the engine (the tests, the benchmarks) sets no
// loader and is ready from the start.
#include <atomic>
#include <functional>
#include <string>

#include <QObject>
#include <QString>

namespace irscope::widgets {

class TaskQueue;

class EngineStart : public QObject {
    Q_OBJECT
public:
    // Loads the engine: "" once it is in, else why it cannot be.
    using Loader = std::function<std::string()>;

    // The process's one (a child of the application object).
    static EngineStart& instance();

    // The app's, before start(); without one the engine is taken to be linked in.
    void setLoader(Loader load);
    bool isReady() const { return ready_.load(); }  // any thread
    QString failure() const { return failure_; }    // why it did not load ("" when it did or has not tried)
    // Loads it on the lane (UI thread; once: later calls do nothing).
    void start();

signals:
    void ready();
    void failed(const QString& why);

private:
    explicit EngineStart(QObject* parent);

    Loader load_;
    TaskQueue* lane_ = nullptr;
    std::atomic<bool> ready_{true};
    bool started_ = false;
    QString failure_;
};

}  // namespace irscope::widgets
