#include "gui_main.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLabel>
#include <QMainWindow>

#include "core/ir/json_io.h"

namespace irscope::app {

int runGui(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName("irscope");
    QApplication::setOrganizationName("irscope");
    QApplication::setApplicationVersion(IRSCOPE_VERSION);

    QCommandLineParser parser;
    parser.setApplicationDescription("irscope: inspect, run and debug torch_ir graphs");
    parser.addHelpOption();
    parser.addPositionalArgument("ir", "torch_ir JSON file to open");
    parser.process(app);

    QMainWindow window;
    auto* label = new QLabel(&window);
    label->setAlignment(Qt::AlignCenter);
    window.setCentralWidget(label);
    if (!parser.positionalArguments().isEmpty()) {
        const QString path = parser.positionalArguments().first();
        try {
            auto graph = ir::loadGraphFile(path.toStdString());
            label->setText(QString("%1: %2 nodes").arg(QString::fromStdString(graph.modelName)).arg(graph.nodes.size()));
        } catch (const std::exception& e) {
            label->setText(QString::fromStdString(e.what()));
        }
    }
    window.resize(1000, 700);
    window.show();
    return app.exec();
}

}  // namespace irscope::app
