#include "widgets/session/off_thread_release.h"

#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>

namespace irscope::widgets {

namespace {

// One low-priority thread for every release: frees never compete with the
// lanes for the second core, and keep their order.
QThreadPool& releasePool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;  // lives to the end; waited for by the application's end (below)
        p->setMaxThreadCount(1);
        p->setThreadPriority(QThread::LowestPriority);
        return p;
    }();
    return *pool;
}

}  // namespace

void releaseOffUiThread(void (*destroy)(void*), void* object) {
    QCoreApplication* app = QCoreApplication::instance();
    if (!app || QThread::currentThread() != app->thread() || QCoreApplication::closingDown()) {
        destroy(object);
        return;
    }
    releasePool().start([destroy, object] { destroy(object); });
    // Quitting waits for what is being freed (nothing is left half-deleted).
    static const bool waitsAtExit = [] {
        qAddPostRoutine([] { releasePool().waitForDone(); });
        return true;
    }();
    (void)waitsAtExit;
}

}  // namespace irscope::widgets
