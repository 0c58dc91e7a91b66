// bench_weights_dock: how long the Weights dock blocks the window at MoE scale.
//
//   bench_weights_dock IR.json WEIGHTS [SHOT.png]   (bench/run_weights_dock.sh makes the 61x384 MoE)
//
// Opens the IR in the real window (offscreen), loads the weights, then times
// on the UI thread, each as one blocking call: the model taking the
// controller's rows, sorting by name (natural order) both ways, by status,
// and switching the status filter. None of them may stall the window on a
// model with ~70,000 weights.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include <QApplication>
#include <QComboBox>
#include <QEventLoop>
#include <QHeaderView>
#include <QTableView>
#include <QTimer>

#include "spin_until.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/weights_panel.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_session.h"

using namespace irscope::widgets;
using Clock = std::chrono::steady_clock;

template <class F>
static double timeMs(F&& f) {
    const auto t0 = Clock::now();
    f();
    QCoreApplication::processEvents();  // what the view does with the change counts too
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_weights_dock IR.json WEIGHTS\n");
        return 2;
    }
    MainWindow window;
    DebuggerUi ui = installDebugger(window);
    window.resize(1400, 900);
    window.show();
    QEventLoop wait;
    QObject::connect(window.session(), &GraphSession::graphLoaded, &wait, &QEventLoop::quit);
    QTimer::singleShot(120000, &wait, &QEventLoop::quit);
    auto t0 = Clock::now();
    window.openFile(QString::fromLocal8Bit(argv[1]));
    wait.exec();
    if (!irscope::bench::spinUntil([&] { return ui.controller->isIdle(); }, 120000)) return 1;
    const double openMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    // The load, which must keep the window responsive and cancellable: how
    // often the progress moved, the longest the UI thread went without
    // running its event loop (a 5 ms timer's longest gap), and how soon
    // Cancel takes effect.
    int updates = 0, lastPercent = -1;
    double lastTick = 0, longestGap = 0;
    QTimer ticker;
    ticker.setInterval(5);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const double now = std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
        if (lastTick > 0) longestGap = std::max(longestGap, now - lastTick);
        lastTick = now;
    });
    auto onLoad = QObject::connect(ui.controller->values(), &DebugValues::valuesLoadChanged, [&] {
        if (!ui.controller->values()->isLoadingValues()) return;
        if (ui.controller->values()->valuesLoad().percent != lastPercent) ++updates;
        lastPercent = ui.controller->values()->valuesLoad().percent;
    });
    ticker.start();
    t0 = Clock::now();
    ui.controller->values()->loadWeights(QString::fromLocal8Bit(argv[2]));
    if (!irscope::bench::spinUntil([&] { return ui.controller->isIdle(); }, 300000)) return 1;
    QCoreApplication::processEvents();
    const double loadMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    ticker.stop();
    QObject::disconnect(onLoad);
    std::printf("load: %d progress steps (last %d%%), UI thread's longest gap %.0f ms\n", updates, lastPercent,
                longestGap);
    {
        // Again, cancelled once it reports 20%: the time from Cancel to idle.
        double cancelAt = 0;
        auto onCancel = QObject::connect(ui.controller->values(), &DebugValues::valuesLoadChanged, [&] {
            if (cancelAt == 0 && ui.controller->values()->isLoadingValues() &&
                ui.controller->values()->valuesLoad().percent >= 20) {
                cancelAt = std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
                ui.controller->values()->cancelValuesLoad();
            }
        });
        ui.controller->values()->loadWeights(QString::fromLocal8Bit(argv[2]));
        if (!irscope::bench::spinUntil([&] { return ui.controller->isIdle(); }, 300000)) return 1;
        const double idle = std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
        QObject::disconnect(onCancel);
        if (cancelAt > 0)
            std::printf("cancel at 20%%: idle %.0f ms later\n", idle - cancelAt);
        else
            std::printf("cancel: the load never reported 20%%\n");
    }

    QTableView* table = ui.weights->table();
    QComboBox* filter = ui.weights->filter();
    std::printf("rows %d (open %.0f ms, weights loaded and shown %.0f ms)\n", ui.weights->visibleRows(), openMs,
                loadMs);
    struct Step {
        const char* what;
        double ms;
    };
    const Step steps[] = {
        {"sort by placeholder, ascending", timeMs([&] { table->sortByColumn(0, Qt::AscendingOrder); })},
        {"sort by placeholder, descending", timeMs([&] { table->sortByColumn(0, Qt::DescendingOrder); })},
        {"sort by original name", timeMs([&] { table->sortByColumn(1, Qt::AscendingOrder); })},
        {"sort by status", timeMs([&] { table->sortByColumn(7, Qt::AscendingOrder); })},
        {"filter: Problems", timeMs([&] { filter->setCurrentIndex(1); })},
        {"filter: Has value", timeMs([&] { filter->setCurrentIndex(2); })},
        {"filter: All", timeMs([&] { filter->setCurrentIndex(0); })},
        {"scroll to the end", timeMs([&] { table->scrollToBottom(); })},
    };
    for (const Step& s : steps) std::printf("  %-34s %8.1f ms\n", s.what, s.ms);
    if (argc > 3) {  // a look at the result: sorted by name, descending
        table->sortByColumn(0, Qt::DescendingOrder);
        table->scrollToTop();
        QCoreApplication::processEvents();
        window.grab().save(QString::fromLocal8Bit(argv[3]));
    }
    return 0;
}
