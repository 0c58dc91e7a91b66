// bench_ui_silence: the UI thread's longest silence while the real window
// (offscreen, with the debugger) opens a program, loads its weights and runs
// it to the end, as a window manager would see it: a 5 ms timer on the UI
// thread, and the longest gap between two of its ticks in each phase.
//
//   bench_ui_silence PROGRAM [WEIGHTS] [INPUTS] [--then NEXT]
//                                          (bench/run_ui_silence.sh makes the big ones)
//
// --then NEXT: once the run is over, NEXT is opened in the same window, as a
// second `irscope NEXT` hands it over: the old document, its values and its
// run go while the new one loads and is drawn.
//
// IRSCOPE_UI_TRACE=1 also prints, per phase, the longest single events the UI
// thread handled (receiver class, object name, event type) and the widgets
// whose paint took 5 ms or more.
//
// A .pt2 brings its own weights and example inputs; a torch_ir JSON without
// INPUTS runs on random inputs (seed 0).
#include <QApplication>
#include <QElapsedTimer>
#include <QStringList>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "spin_until.h"
#include "widgets/common/ui_silence_watch.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_session.h"

using namespace irscope::widgets;
using irscope::bench::spinUntil;

namespace {

// With IRSCOPE_UI_TRACE set: the longest single events the UI thread
// handled (outermost notify() calls), by receiver class and event type, so
// a long silence can be traced to the turn that made it; and the widgets
// whose own paint took 5 ms or more inside one (a window's update request
// paints every widget: this names the slow one).
class TracedApplication : public QApplication {
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* event) override {
        if (!trace_) return QApplication::notify(receiver, event);
        const bool outer = depth_++ == 0;
        QElapsedTimer t;
        t.start();
        const QByteArray what = outer ? QByteArray(receiver->metaObject()->className()) + " " +
                                            receiver->objectName().toUtf8() + " event " +
                                            QByteArray::number(static_cast<int>(event->type()))
                                      : QByteArray();
        const bool result = QApplication::notify(receiver, event);
        --depth_;
        const qint64 ms = t.elapsed();
        if (outer && ms >= 10) longest_.push_back({ms, what});
        if (!outer && event->type() == QEvent::Paint && ms >= 5) {
            const QObject* around = receiver->parent() != nullptr ? receiver->parent() : receiver;
            longest_.push_back({ms, QByteArray("  a paint of ") + receiver->metaObject()->className() + " in " +
                                        around->metaObject()->className() + " " + around->objectName().toUtf8()});
        }
        return result;
    }
    // Prints and forgets the longest events since the last call.
    void report(const char* phase) {
        if (!trace_) return;
        std::sort(longest_.begin(), longest_.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (size_t i = 0; i < std::min<size_t>(longest_.size(), 5); ++i)
            std::printf("    %s: %4lld ms  %s\n", phase, static_cast<long long>(longest_[i].first),
                        longest_[i].second.constData());
        longest_.clear();
    }

private:
    const bool trace_ = !qEnvironmentVariableIsEmpty("IRSCOPE_UI_TRACE");
    int depth_ = 0;
    std::vector<std::pair<qint64, QByteArray>> longest_;
};

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    TracedApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    QString next;
    if (const qsizetype at = args.indexOf(QStringLiteral("--then")); at >= 0 && at + 1 < args.size()) {
        next = args[at + 1];
        args.remove(at, 2);
    }
    if (args.isEmpty()) {
        std::fprintf(stderr, "usage: bench_ui_silence PROGRAM [WEIGHTS] [INPUTS] [--then NEXT]\n");
        return 2;
    }
    MainWindow window;
    DebuggerUi ui = installDebugger(window);
    window.resize(1400, 900);
    window.show();
    DebugController* c = ui.controller;
    GraphSession* s = window.session();
    UiSilenceWatch silence;

    QElapsedTimer wall;
    silence.start();
    wall.start();
    bool loaded = false;
    QObject::connect(s, &GraphSession::graphLoaded, [&] { loaded = true; });
    QElapsedTimer call;
    call.start();
    window.openFile(args[0]);
    const qint64 openCall = call.elapsed();
    if (!spinUntil([&] { return loaded && c->isIdle(); }, 600000)) return 1;
    std::printf("%-28s %8lld ms   longest UI silence %5lld ms\n", "open (layout, archive loads)",
                static_cast<long long>(wall.elapsed()), static_cast<long long>(silence.stop()));
    if (!qEnvironmentVariableIsEmpty("IRSCOPE_UI_TRACE"))
        std::printf("    open: %4lld ms  the openFile call itself\n", static_cast<long long>(openCall));
    app.report("open");

    if (args.size() > 1) {
        silence.start();
        wall.restart();
        c->values()->loadWeights(args[1]);
        if (args.size() > 2) c->values()->loadInputs(args[2]);
        if (!spinUntil([&] { return c->isIdle(); }, 600000)) return 1;
        std::printf("%-28s %8lld ms   longest UI silence %5lld ms\n", "load weights",
                    static_cast<long long>(wall.elapsed()), static_cast<long long>(silence.stop()));
        app.report("load");
    }
    if (!c->values()->missing().empty()) c->values()->setAllInputSources(irscope::exec::InputSource::Random);
    spinUntil([&] { return c->isIdle(); }, 600000);

    silence.start();
    wall.restart();
    bool stopped = false;
    QObject::connect(c, &DebugController::stopped, [&] { stopped = true; });
    ui.continueAction->trigger();
    if (!spinUntil([&] { return stopped && c->isIdle(); }, 600000)) return 1;
    std::printf("%-28s %8lld ms   longest UI silence %5lld ms   (%s)\n", "run to the end",
                static_cast<long long>(wall.elapsed()), static_cast<long long>(silence.stop()),
                qPrintable(c->lastStatus().left(60)));
    app.report("run");

    if (!next.isEmpty()) {
        silence.start();
        wall.restart();
        loaded = false;
        window.openFile(next);
        if (!spinUntil([&] { return loaded && c->isIdle(); }, 600000)) return 1;
        std::printf("%-28s %8lld ms   longest UI silence %5lld ms\n", "hand over to the next file",
                    static_cast<long long>(wall.elapsed()), static_cast<long long>(silence.stop()));
        app.report("hand over");
    }
    return 0;
}
