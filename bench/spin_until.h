#pragma once
// The benchmarks wait for the window's work by running its event loop, as a
// user waits (the window itself never waits: widgets/ has no such loop).
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>

namespace irscope::bench {

// Runs this thread's events until `done()` holds; false after `timeoutMs`.
template <class F>
bool spinUntil(F done, int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (!done()) {
        if (deadline.hasExpired()) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    QCoreApplication::processEvents();
    return true;
}

}  // namespace irscope::bench
