#pragma once
// Tests wait for the window's background work by running the event loop
// until it is idle, as a user waits. The widgets never wait themselves (no
// nested event loop there): they are told through DebugController::becameIdle
// and TaskQueue::busyChanged.
#include <QTest>

namespace irscope::test {

// Runs events until `object.isIdle()` (a DebugController, a TaskQueue) or
// `timeoutMs` passed; false on timeout.
template <class Waited>
bool waitIdle(const Waited& object, int timeoutMs = 60000) {
    const bool idle = QTest::qWaitFor([&object] { return object.isIdle(); }, timeoutMs);
    QCoreApplication::processEvents();  // what the last continuation posted to the UI thread
    return idle;
}

}  // namespace irscope::test
