#include "gui/render_png.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

#include <QGuiApplication>
#include <QImage>

#include "widgets/graph_view/image_export.h"
#include "widgets/session/loaded_document.h"

namespace irscope::app {

int renderPng(const ir::Graph& graph, bool includeWeights, double scale, const std::string& outputPath) {
    std::unique_ptr<QGuiApplication> app;
    if (!QCoreApplication::instance()) {
        if (std::getenv("DISPLAY") == nullptr && std::getenv("WAYLAND_DISPLAY") == nullptr &&
            std::getenv("QT_QPA_PLATFORM") == nullptr)
            qputenv("QT_QPA_PLATFORM", "offscreen");
        static int argc = 1;
        static char name[] = "irscope";
        static char* argv[] = {name, nullptr};
        app = std::make_unique<QGuiApplication>(argc, argv);
    }
    // The layout needs a document that owns its graph; this one borrows.
    widgets::LoadedDocument doc;
    doc.graph = graph;
    doc.index = std::make_unique<ir::GraphIndex>(doc.graph);
    const auto layout = widgets::layoutDocument(doc, includeWeights);
    const double used = widgets::clampExportScale(*layout, scale);
    if (used < scale)
        std::fprintf(stderr, "irscope render: the drawing is too large at scale %g; writing it at scale %.3g\n", scale,
                     used);
    const QImage image = widgets::renderLayoutImage(*layout, used);
    if (!image.save(QString::fromStdString(outputPath), "PNG")) {
        std::fprintf(stderr, "irscope render: cannot write %s\n", outputPath.c_str());
        return 2;
    }
    return 0;
}

}  // namespace irscope::app
