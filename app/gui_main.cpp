#include "gui_main.h"

#include <cstdio>

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTimer>

#include "widgets/debugger/debugger_script.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/graph_session.h"

namespace irscope::app {

int runGui(int argc, char** argv) {
    QApplication::setAttribute(Qt::AA_DontCreateNativeWidgetSiblings);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("irscope"));
    QApplication::setOrganizationName(QStringLiteral("irscope"));
    QApplication::setApplicationVersion(QStringLiteral(IRSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("irscope: inspect, run and debug torch_ir graphs"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("ir"), QStringLiteral("torch_ir JSON file to open"), QStringLiteral("[IR.json]"));
    const QCommandLineOption select(QStringLiteral("select"), QStringLiteral("Select NODE once the graph is open."),
                                    QStringLiteral("NODE"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Write a PNG of the window once the graph is laid out, then exit."),
                                        QStringLiteral("PNG"));
    parser.addOption(select);
    parser.addOption(screenshot);
    widgets::addDebuggerOptions(parser);   // --weights --constants --inputs --expected --run --run-to ...
    // `irscope --help-gui` (named by the CLI's top-level help).
    QStringList args = app.arguments();
    if (args.size() >= 2 && args[1] == QLatin1String("--help-gui")) args[1] = QStringLiteral("--help");
    parser.process(args);


    widgets::MainWindow window;
    widgets::DebuggerUi debugUi = widgets::installDebugger(window);
    auto* session = window.session();
    const QString selectNode = parser.value(select);
    const QString shotPath = parser.value(screenshot);

    auto takeShot = [&window, shotPath] {
        QTimer::singleShot(150, &window, [&window, shotPath] {
            const QImage image = window.grab().toImage();
            const bool ok = image.save(shotPath, "PNG");
            if (!ok) std::fprintf(stderr, "irscope: cannot write %s\n", qPrintable(shotPath));
            QApplication::exit(ok ? 0 : 2);
        });
    };
    QObject::connect(session, &widgets::GraphSession::graphLoaded, &window, [&, session] {
        if (!selectNode.isEmpty() && !session->selectNodeByName(selectNode, true))
            std::fprintf(stderr, "irscope: --select: no node, input or weight named '%s'\n", qPrintable(selectNode));
        widgets::runDebuggerScript(parser, debugUi, selectNode, [&] {
            if (!shotPath.isEmpty()) takeShot();
        });
    });
    QObject::connect(session, &widgets::GraphSession::loadFailed, &window, [&](const QString&, const QString& message) {
        std::fprintf(stderr, "irscope: %s\n", qPrintable(message));
        if (!shotPath.isEmpty()) {
            // Still capture the window (it shows the error), but report failure.
            QTimer::singleShot(150, &window, [&window, shotPath] {
                window.grab().toImage().save(shotPath, "PNG");
                QApplication::exit(2);
            });
        }
    });

    window.show();
    const QStringList positional = parser.positionalArguments();
    if (!positional.isEmpty()) window.openFile(positional.front());
    else if (!shotPath.isEmpty()) takeShot();
    return app.exec();
}

}  // namespace irscope::app
