// bench_graph_view: how fast the graph view draws a frame.
//
//   bench_graph_view IR.json [IR.json ...]     (bench/run_graph_view.sh makes 5k/20k/100k-node IRs)
//
// For each file: load + validate + layout time, then the view (1280x800
// viewport, offscreen) rendered 60 times into a QImage at fit-to-window zoom
// (target <= 16 ms: one frame at 60 Hz), at 25% (shapes, no text) and at 100% (full
// detail) zoom, and with a search highlight on. Prints ms per frame.
#include <chrono>
#include <cstdio>

#include <QApplication>
#include <QImage>
#include <QScrollBar>

#include "widgets/graph_view/graph_view.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

using namespace irscope::widgets;
using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

static double timeFrames(GraphView& view, int frames) {
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    view.renderFrame(image);  // warm-up
    const auto t0 = Clock::now();
    for (int i = 0; i < frames; ++i) view.renderFrame(image);
    return msSince(t0) / frames;
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_graph_view IR.json [IR.json ...]\n");
        return 2;
    }
    std::printf("%-28s %8s %8s %9s %9s | %10s %10s %10s %12s\n", "file", "nodes", "items", "load ms", "layout ms",
                "fit ms/f", "25% ms/f", "100% ms/f", "fit+hl ms/f");
    for (int a = 1; a < argc; ++a) {
        const QString path = QString::fromLocal8Bit(argv[a]);
        std::atomic<bool> cancel{false};
        auto t0 = Clock::now();
        auto doc = loadDocument(path, cancel, {});
        const double loadMs = msSince(t0);
        t0 = Clock::now();
        auto lay = layoutDocument(*doc, true);
        const double layoutMs = msSince(t0);

        GraphSession session;
        GraphView view(&session);
        view.setAttribute(Qt::WA_DontShowOnScreen);
        view.resize(1280, 800);
        view.setMinimapVisible(false);
        view.show();
        QApplication::processEvents();
        session.setDocument(doc, lay);
        const int frames = 60;
        view.fitToWindow();
        const double fit = timeFrames(view, frames);
        // Mid-graph, where a user reads: centred on the middle node.
        const auto mid = lay->result.items[lay->nodeItem[doc->graph.nodes.size() / 2]].rect.center();
        view.setZoom(0.25);
        view.centerOnScene(QPointF(mid.x, mid.y));
        const double quarter = timeFrames(view, frames);
        view.setZoom(1.0);
        view.centerOnScene(QPointF(mid.x, mid.y));
        const double full = timeFrames(view, frames);
        if (qEnvironmentVariableIsSet("BENCH_DEBUG")) {
            const QRectF v = view.visibleSceneRect();
            std::fprintf(stderr, "viewport %dx%d bounds %.0fx%.0f visible %.0f,%.0f %.0fx%.0f items %zu vmax %d\n",
                         view.viewport()->width(), view.viewport()->height(), lay->result.bounds.width,
                         lay->result.bounds.height, v.x(), v.y(), v.width(), v.height(),
                         lay->grid.itemsIn({v.x(), v.y(), v.width(), v.height()}).size(),
                         view.verticalScrollBar()->maximum());
            QImage img(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
            view.renderFrame(img);
            img.save(QStringLiteral("/tmp/bench_%1.png").arg(a));
        }
        session.selectionModel()->setHighlight(session.selectionModel()->find(QStringLiteral("linear")));
        session.selectionModel()->select(ItemRef::node(static_cast<int64_t>(doc->graph.nodes.size() / 2)));
        view.fitToWindow();
        const double fitHl = timeFrames(view, frames);
        std::printf("%-28s %8zu %8zu %9.0f %9.0f | %10.2f %10.2f %10.2f %12.2f\n",
                    qPrintable(path.section(QLatin1Char('/'), -1)), doc->graph.nodes.size(), lay->result.items.size(),
                    loadMs, layoutMs, fit, quarter, full, fitHl);
        std::fflush(stdout);
    }
    return 0;
}
