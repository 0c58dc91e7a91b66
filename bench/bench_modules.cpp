// bench_modules: the module hierarchy at scale (targets in bench/run_modules.sh).
//
//   bench_modules IR.json [IR.json ...]     (bench/run_modules.sh makes the 100k-node LLM and the 61x384 MoE)
//
// For each file, in one process: parse, index, module inference, the first
// collapsed picture (expandInitial + compose), opening and closing one layer
// (and one MoE block inside it) on the cached drawing, and a frame of the
// graph view at fit-to-window zoom and at 100% on the collapsed picture.
// Whole-process comparisons with `irscope info` are in run_modules.sh.
#include <chrono>
#include <cstdio>
#include <string>

#include <QApplication>
#include <QImage>

#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"
#include "core/modules/module_drawing.h"
#include "core/modules/module_inference.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"

using namespace irscope;
using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

template <typename F>
static double best(int runs, F&& f) {
    double b = 1e300;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = Clock::now();
        f();
        b = std::min(b, msSince(t0));
    }
    return b;
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_modules IR.json [IR.json ...]\n");
        return 2;
    }
    for (int a = 1; a < argc; ++a) {
        const std::string path = argv[a];
        auto t0 = Clock::now();
        auto doc = std::make_shared<widgets::LoadedDocument>();
        doc->path = QString::fromStdString(path);
        doc->graph = ir::loadGraphFile(path);
        const double parseMs = msSince(t0);
        t0 = Clock::now();
        doc->index = std::make_unique<ir::GraphIndex>(doc->graph);
        const double indexMs = msSince(t0);
        t0 = Clock::now();
        doc->modules = std::make_unique<modules::ModuleTree>(modules::inferModuleTree(doc->graph, *doc->index));
        const double inferMs = msSince(t0);
        const double inferBest = best(3, [&] { modules::inferModuleTree(doc->graph, *doc->index); });

        modules::ModuleDrawing drawing(doc->graph, *doc->index, *doc->modules, widgets::drawingOptions(true));
        t0 = Clock::now();
        drawing.expandInitial();
        auto lay = widgets::layoutByModule(*doc, drawing);
        const double firstMs = msSince(t0);
        const auto visible = drawing.visibleItems();

        // A layer in the middle, and its MoE block (or MLP) inside it.
        const auto& tree = *doc->modules;
        const auto layers = tree.find("layers");
        modules::ModuleId layer = modules::kNoModule, block = modules::kNoModule;
        if (layers > 0 && !tree.module(layers).children.empty()) {
            const auto& ch = tree.module(layers).children;
            layer = ch[ch.size() / 2];
            for (auto c : tree.module(layer).children)
                if (tree.module(c).name == "mlp") block = c;
        }
        double openMs = 0, closeMs = 0, blockMs = 0;
        if (layer > 0) {
            const bool wasOpen = drawing.isExpanded(layer);
            openMs = best(5,
                          [&] {
                              drawing.setExpanded(layer, !wasOpen);
                              lay = widgets::layoutByModule(*doc, drawing);
                              drawing.setExpanded(layer, wasOpen);
                              lay = widgets::layoutByModule(*doc, drawing);
                          }) /
                     2;
            drawing.setExpanded(layer, true);
            lay = widgets::layoutByModule(*doc, drawing);
            if (block > 0) {
                t0 = Clock::now();
                drawing.setExpanded(block, true);
                lay = widgets::layoutByModule(*doc, drawing);
                blockMs = msSince(t0);  // first time: lays the block's inside out
                closeMs = best(5,
                               [&] {
                                   drawing.setExpanded(block, false);
                                   lay = widgets::layoutByModule(*doc, drawing);
                                   drawing.setExpanded(block, true);
                                   lay = widgets::layoutByModule(*doc, drawing);
                               }) /
                          2;
            }
        }

        // Every module open: the most frames, each value joined through
        // every frame it enters (modules/frame_junctions.h).
        drawing.expandAll();
        auto t1 = Clock::now();
        const size_t allItems = drawing.compose().items.size();
        const double allFirstMs = msSince(t1);
        t1 = Clock::now();
        drawing.compose();
        const double allAgainMs = msSince(t1);

        // Frames of the first picture in the real view.
        drawing.expandInitial();
        widgets::GraphSession session;
        session.setDocument(doc, widgets::layoutByModule(*doc, drawing));
        widgets::GraphView view(&session);
        view.resize(1280, 800);
        view.fitToWindow();
        QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
        view.renderFrame(image);
        const double fitFrame = best(20, [&] { view.renderFrame(image); });
        view.setZoom(1.0);
        view.renderFrame(image);
        const double fullFrame = best(20, [&] { view.renderFrame(image); });

        std::printf("%s: %zu nodes, %zu weights, %zu modules\n", path.c_str(), doc->graph.nodes.size(),
                    doc->graph.weights.size(), tree.size());
        std::printf("  parse %.0f ms, index %.0f ms, infer modules %.0f ms (best of 3: %.0f ms)\n", parseMs, indexMs,
                    inferMs, inferBest);
        std::printf("  first collapsed picture: %.1f ms, %lld items visible, %zu drawn items\n", firstMs,
                    static_cast<long long>(visible), lay->result.items.size());
        std::printf("  open/close a layer: %.1f ms; open its mlp (first time) %.1f ms, again %.1f ms\n", openMs,
                    blockMs, closeMs);
        std::printf("  frame at fit-to-window %.2f ms, at 100%% %.2f ms\n", fitFrame, fullFrame);
        std::printf("  every module open: %zu items, composed in %.0f ms (laid out now), %.0f ms again\n", allItems,
                    allFirstMs, allAgainMs);
    }
    return 0;
}
