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
// A .pt2 brings its own weights and example inputs; a torch_ir JSON without
// INPUTS runs on random inputs (seed 0).
#include <QApplication>
#include <QElapsedTimer>
#include <QStringList>
#include <QTimer>

#include <algorithm>
#include <cstdio>

#include "spin_until.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_session.h"

using namespace irscope::widgets;
using irscope::bench::spinUntil;

namespace {

// The longest gap between ticks of a 5 ms timer on this (the UI) thread.
class Silence {
public:
    Silence() {
        timer_.setInterval(5);
        QObject::connect(&timer_, &QTimer::timeout, [this] { worst_ = std::max(worst_, since_.restart()); });
    }
    void start() {
        worst_ = 0;
        since_.start();
        timer_.start();
    }
    qint64 stop() {
        timer_.stop();
        return std::max(worst_, since_.elapsed());
    }

private:
    QTimer timer_;
    QElapsedTimer since_;
    qint64 worst_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
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
    Silence silence;

    QElapsedTimer wall;
    silence.start();
    wall.start();
    bool loaded = false;
    QObject::connect(s, &GraphSession::graphLoaded, [&] { loaded = true; });
    window.openFile(args[0]);
    if (!spinUntil([&] { return loaded && c->isIdle(); }, 600000)) return 1;
    std::printf("%-28s %8lld ms   longest UI silence %5lld ms\n", "open (layout, archive loads)",
                static_cast<long long>(wall.elapsed()), static_cast<long long>(silence.stop()));

    if (args.size() > 1) {
        silence.start();
        wall.restart();
        c->values()->loadWeights(args[1]);
        if (args.size() > 2) c->values()->loadInputs(args[2]);
        if (!spinUntil([&] { return c->isIdle(); }, 600000)) return 1;
        std::printf("%-28s %8lld ms   longest UI silence %5lld ms\n", "load weights",
                    static_cast<long long>(wall.elapsed()), static_cast<long long>(silence.stop()));
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

    if (!next.isEmpty()) {
        silence.start();
        wall.restart();
        loaded = false;
        window.openFile(next);
        if (!spinUntil([&] { return loaded && c->isIdle(); }, 600000)) return 1;
        std::printf("%-28s %8lld ms   longest UI silence %5lld ms\n", "hand over to the next file",
                    static_cast<long long>(wall.elapsed()), static_cast<long long>(silence.stop()));
    }
    return 0;
}
