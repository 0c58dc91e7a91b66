#include "gui/gui_main.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>

#include "widgets/common/charts_availability.h"
#include "widgets/common/process_age.h"
#include "widgets/common/ui_silence_watch.h"
#include "widgets/compare/compare_session.h"
#include "widgets/compare/compare_ui.h"
#include "widgets/debugger/debugger_script.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/main_window/single_instance.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/engine_start.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::app {

namespace {

// With IRSCOPE_TIMING set, when each step of the start-up ended (bench/run_first_frame.sh).
void timingStage(const char* stage) {
    static const bool timing = qEnvironmentVariableIsSet("IRSCOPE_TIMING");
    if (timing) std::fprintf(stderr, "irscope: %s after %.3f s\n", stage, widgets::processAgeSeconds());
}

// Calls `then` once, right after the first paint of `widget` that follows
// arm() (the graph view's viewport once a document is in: the first frame).
class AfterFirstPaint : public QObject {
public:
    AfterFirstPaint(QWidget* widget, std::function<void()> then) : QObject(widget), then_(std::move(then)) {
        widget->installEventFilter(this);
    }
    void arm() {
        if (done_ || armed_) return;
        armed_ = true;
        parentWidget()->update();
    }
    // Whether the widget was painted at all (armed or not): it is on screen.
    bool everPainted() const { return everPainted_; }
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint) {
            everPainted_ = true;
            if (armed_ && !done_) {
                done_ = true;
                // Its job is done: the widget's later paints skip this filter.
                parentWidget()->removeEventFilter(this);
                QTimer::singleShot(0, this, then_);
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QWidget* parentWidget() const { return static_cast<QWidget*>(parent()); }
    std::function<void()> then_;
    bool armed_ = false;
    bool done_ = false;
    bool everPainted_ = false;
};

// `irscope FILE [B]` with nothing else (what a file manager runs): the files,
// as absolute paths, for a window already open; empty otherwise.
QStringList filesToHandOff(int argc, char** argv) {
    if (argc < 2 || argc > 3) return {};
    QStringList files;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (arg.startsWith(QLatin1Char('-'))) return {};
        files << QFileInfo(arg).absoluteFilePath();
    }
    return files;
}

}  // namespace

int runGui(int argc, char** argv, LateModuleLoader loadEngine, LateModuleLoader loadCharts) {
    if (const QStringList files = filesToHandOff(argc, argv);
        !files.isEmpty() && widgets::SingleInstance::handOff(files))
        return 0;  // the open window took them
    QApplication::setAttribute(Qt::AA_DontCreateNativeWidgetSiblings);
    QApplication app(argc, argv);
    QGuiApplication::setDesktopFileName(QStringLiteral("irscope"));
    QApplication::setApplicationName(QStringLiteral("irscope"));
    QApplication::setOrganizationName(QStringLiteral("irscope"));
    QApplication::setApplicationVersion(QStringLiteral(IRSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("irscope: inspect, run and debug torch_ir graphs"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("ir"),
        QStringLiteral("torch_ir JSON file or torch.export archive (.pt2) to open; a second one is compared with it"),
        QStringLiteral("[IR.json [B.json]]"));
    const QCommandLineOption newWindow(
        QStringLiteral("new-window"),
        QStringLiteral(
            "Open a window of its own, even when one is open (by default `irscope FILE` hands FILE to it)."));
    parser.addOption(newWindow);
    const QCommandLineOption select(QStringLiteral("select"), QStringLiteral("Select NODE once the graph is open."),
                                    QStringLiteral("NODE"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Write a PNG of the window once the graph is laid out, then exit."), QStringLiteral("PNG"));
    const QCommandLineOption compareWith(
        QStringLiteral("compare"), QStringLiteral("Compare the IR with B.json: both side by side, changes listed."),
        QStringLiteral("B.json"));
    parser.addOption(select);
    parser.addOption(screenshot);
    parser.addOption(compareWith);
    widgets::addDebuggerOptions(parser);  // --weights --constants --inputs --expected --run --run-to ...
    // `irscope --help-gui` (named by the CLI's top-level help).
    QStringList args = app.arguments();
    if (args.size() >= 2 && args[1] == QLatin1String("--help-gui")) args[1] = QStringLiteral("--help");
    parser.process(args);
    if (const QString why = widgets::debuggerOptionError(parser); !why.isEmpty()) {
        std::fprintf(stderr, "irscope: %s\n", qPrintable(why));
        return 2;
    }

    // libtorch loads behind the first frame (widgets/session/engine_start.h).
    widgets::EngineStart& engine = widgets::EngineStart::instance();
    if (loadEngine) engine.setLoader(loadEngine);
    QObject::connect(&engine, &widgets::EngineStart::ready, &engine, [] { timingStage("engine loaded"); });

    // A window that loads the engine behind its first frame draws the graph
    // first: the docks are placed with the window, their panels made right
    // after that frame (widgets::PanelsAt).
    widgets::MainWindow window(nullptr,
                               loadEngine ? widgets::PanelsAt::AfterFirstFrame : widgets::PanelsAt::Construction);
    // The file loads on the session's worker while the rest of the window is
    // built. (Before the debugger is installed only while the engine is not
    // in: the DebugController then makes the document's debugger on its run
    // lane once the engine is, as it does for a document that came first.)
    const QStringList positional = parser.positionalArguments();
    const bool openNow = loadEngine && !positional.isEmpty();
    if (openNow) window.openFile(positional.front());
    timingStage("main window built");
    widgets::DebuggerUi debugUi = widgets::installDebugger(window);
    timingStage("debugger installed");
    widgets::CompareUi compareUi = widgets::installCompare(window, debugUi.controller);
    QString comparePath = parser.isSet(compareWith) ? parser.value(compareWith)
                          : positional.size() > 1   ? positional[1]
                                                    : QString();
    bool compareStarted = false;
    auto* session = window.session();
    // The first frame: the window's first paint once its first document is
    // in (or failed, or there is none). Then the engine loads.
    // With IRSCOPE_TIMING, the UI thread's longest silence from then until
    // the document's debugger is in (a 5 ms timer's longest gap): what the
    // engine's load behind the frame costs the window.
    auto* silence = new widgets::UiSilenceWatch(&window);
    // After the first frame: the panels, then the engine. What must see the
    // panels made (a screenshot) waits for them through afterPanels.
    std::vector<std::function<void()>> whenPanelsMade;
    auto afterPanels = [&window, &whenPanelsMade](std::function<void()> then) {
        if (window.panelsDeferred())
            whenPanelsMade.push_back(std::move(then));
        else
            then();
    };
    bool restStarted = false;  // the first frame, or the fallback below for a window never painted
    auto startTheRest = [loadCharts, &window, &debugUi, &compareUi, &engine, &whenPanelsMade, &restStarted] {
        if (std::exchange(restStarted, true)) return;
        // The icon is an SVG: Qt's SVG icon engine and Qt SVG load for it
        // (2 ms, a tenth of the window's start), so it is set once the first
        // frame is drawn; a desktop's launcher shows the installed icon
        // (irscope.desktop) until then.
        QApplication::setWindowIcon(QIcon(QStringLiteral(":/irscope.svg")));
        if (!window.panelsDeferred()) {
            engine.start();
            return;
        }
        // The charts (Qt Charts and Qt OpenGL, 1.25 ms) before the panels
        // that draw them; without them those panels say why.
        if (loadCharts) {
            if (const std::string why = loadCharts(); !why.empty()) {
                std::fprintf(stderr, "irscope: the charts did not load: %s\n", why.c_str());
                widgets::setChartsMissing(QString::fromStdString(why));
            }
            timingStage("charts loaded");
        }
        window.makeDeferredPanels([&window, &debugUi, &compareUi, &engine, &whenPanelsMade] {
            widgets::attachDebuggerPanels(window, debugUi);
            widgets::attachComparePanels(window, compareUi);
            timingStage("panels made");
            for (auto& then : std::exchange(whenPanelsMade, {})) then();
            engine.start();
        });
    };
    auto* firstFrame = new AfterFirstPaint(window.graphView()->viewport(), [silence, startTheRest] {
        timingStage("first frame");
        // IRSCOPE_TIMING=first-frame: the start-up alone, for a profiler.
        if (qgetenv("IRSCOPE_TIMING") == "first-frame") {
            std::fflush(stderr);
            std::_Exit(0);
        }
        if (qEnvironmentVariableIsSet("IRSCOPE_TIMING")) silence->start();
        startTheRest();
    });
    QObject::connect(debugUi.controller, &widgets::DebugController::debuggerReset, silence, [silence] {
        if (silence->isActive())
            std::fprintf(stderr, "irscope: longest UI silence while the engine loaded: %lld ms\n", silence->stop());
    });
    QObject::connect(session, &widgets::GraphSession::graphLoaded, firstFrame, &AfterFirstPaint::arm);
    QObject::connect(session, &widgets::GraphSession::graphLoaded, firstFrame, [] { timingStage("document in"); });
    QObject::connect(session, &widgets::GraphSession::loadFailed, firstFrame, &AfterFirstPaint::arm);
    const QString selectNode = parser.value(select);
    const QString shotPath = parser.value(screenshot);

    // The PNG once the panels are made; `failed`: the window shows an error,
    // captured still, and the exit status says so.
    auto shoot = [&window, shotPath, &afterPanels](bool failed) {
        if (shotPath.isEmpty()) return;
        afterPanels([&window, shotPath, failed] {
            QTimer::singleShot(150, &window, [&window, shotPath, failed] {
                const bool ok = window.grab().toImage().save(shotPath, "PNG");
                if (!ok) std::fprintf(stderr, "irscope: cannot write %s\n", qPrintable(shotPath));
                QApplication::exit(ok && !failed ? 0 : 2);
            });
        });
    };
    auto takeShot = [&shoot] { shoot(false); };
    auto failedShot = [&shoot] { shoot(true); };
    // The command line's files, --select and --run are for the file it named:
    // a file opened later in this window (File > Open, a hand-off) starts
    // from what its own model carries over, never from them.
    bool scriptRan = false;
    std::function<void()> afterLoad = [&, session] {
        if (scriptRan) return;
        // What the script asks of the debugger waits for it (the engine
        // loads behind the first frame).
        if (session->hasDocument() && !debugUi.controller->hasDocument() && engine.failure().isEmpty()) {
            auto connection = std::make_shared<QMetaObject::Connection>();
            // Queued: the script's jobs go after those the new debugger's
            // set-up posts (the archive's own weights and inputs), so the
            // command line's files win, as when the engine was there first.
            *connection = QObject::connect(
                debugUi.controller, &widgets::DebugController::debuggerReset, &window,
                [connection, &afterLoad] {
                    QObject::disconnect(*connection);
                    afterLoad();
                },
                Qt::QueuedConnection);
            return;
        }
        // No engine: the graph is drawn and the reason said (DebugController);
        // a script cannot run, and a screenshot reports the failure.
        if (!engine.failure().isEmpty()) {
            scriptRan = true;
            failedShot();
            return;
        }
        scriptRan = true;
        if (!selectNode.isEmpty() && !session->selectionModel()->selectNodeByName(selectNode, true))
            std::fprintf(stderr, "irscope: --select: no node, input or weight named '%s'\n", qPrintable(selectNode));
        widgets::runDebuggerScript(parser, debugUi, selectNode, [&] {
            if (!shotPath.isEmpty()) takeShot();
        });
    };
    QObject::connect(&engine, &widgets::EngineStart::failed, &window, [&](const QString& why) {
        std::fprintf(stderr, "irscope: the execution engine did not load: %s\n", qPrintable(why));
        if (session->hasDocument()) afterLoad();
    });
    QObject::connect(session, &widgets::GraphSession::graphLoaded, &window, [&] {
        // With --compare, the script (and the screenshot) waits for the diff.
        if (!comparePath.isEmpty() && !compareStarted) {
            compareStarted = true;
            compareUi.session->open(comparePath);
            return;
        }
        afterLoad();
    });
    QObject::connect(compareUi.session, &widgets::CompareSession::diffReady, &window, [&] {
        static bool first = true;
        if (std::exchange(first, false)) afterLoad();
    });
    QObject::connect(compareUi.session, &widgets::CompareSession::failed, &window, [&](const QString& message) {
        std::fprintf(stderr, "irscope: --compare: %s\n", qPrintable(message));
        failedShot();
    });
    QObject::connect(session, &widgets::GraphSession::loadFailed, &window, [&](const QString&, const QString& message) {
        std::fprintf(stderr, "irscope: %s\n", qPrintable(message));
        failedShot();
    });

    // Later `irscope FILE` runs (a double-click in the file manager) come here.
    widgets::SingleInstance single;
    if (!parser.isSet(newWindow) && shotPath.isEmpty() && single.listen()) {
        QObject::connect(&single, &widgets::SingleInstance::filesReceived, &window, [&](const QStringList& files) {
            if (files.isEmpty()) return;
            window.showNormal();
            window.raise();
            window.activateWindow();
            compareUi.session->close();
            comparePath = files.size() > 1 ? files[1] : QString();  // compared once the first is open
            compareStarted = false;
            window.openFile(files.front());
        });
    }
    window.show();
    // A window that gets no paint (opened minimized, or on a desktop not
    // shown) would never start the engine: then it starts a second after.
    // (A window on screen that is still loading its file waits for the frame.)
    QTimer::singleShot(1000, &engine, [firstFrame, startTheRest] {
        if (!firstFrame->everPainted()) startTheRest();
    });
    timingStage("shown");
    if (!positional.isEmpty()) {
        if (!openNow) window.openFile(positional.front());
    } else {
        firstFrame->arm();
        if (!shotPath.isEmpty()) takeShot();
    }
    return app.exec();
}

}  // namespace irscope::app
