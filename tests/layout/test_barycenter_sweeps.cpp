// The barycenter sweeps of one candidate order (core/layout/barycenter_sweeps.h)
// skip sorting a layer when neither it nor its neighbours changed since it
// was last sorted that way. That must change nothing: on every layout
// fixture (hand-picked and generated), each candidate swept with the skip
// equals the same candidate swept without it, and a sweeper reused across
// candidates (its caches carried from one to the next) equals a fresh one.
// The exchange pass keeps the gaps' crossing counts by what each exchange
// changed, never recounting: on every fixture, shuffled, they must equal a
// recount afterwards.
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "common/suite_registry.h"
#include "core/layout/adjacent_exchange.h"
#include "core/layout/barycenter_sweeps.h"
#include "core/layout/layering.h"
#include "core/layout/layout.h"
#include "core/layout/layout_graph_text.h"
#include "core/layout/long_edges.h"

using namespace irscope::layout;
using namespace irscope::layout::detail;

namespace {

std::vector<std::string> fixtures() {
    std::vector<std::string> files;
    for (const char* dir : {"/layout", "/layout/generated"})
        for (const auto& f : std::filesystem::directory_iterator(std::string(IRSCOPE_TEST_DATA) + dir))
            if (f.path().extension() == ".layout") files.push_back(f.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

LayeredGraph layered(const std::string& file) {
    std::ifstream in(file);
    const LayoutGraph graph = layoutGraphFromText(in);
    return buildLayeredGraph(graph, assignLayers(graph), LayoutOptions{});
}

}  // namespace

class TestBarycenterSweeps : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void skippingSettledLayersChangesNothing() {
        const std::vector<std::string> files = fixtures();
        QVERIFY2(files.size() >= 40, "the layout fixtures are missing");
        const std::vector<TieRules> rules{{true, false}, {false, false}, {false, true}};
        const int sweeps = LayoutOptions{}.crossingSweeps;
        int64_t crossed = 0;
        for (const std::string& file : files) {
            LayeredGraph reused = layered(file), plain = layered(file);
            const Satellites satellites = findSatellites(reused);
            const std::vector<int32_t> group = exchangeGroups(satellites, reused.vertexCount());
            // Two starts: the layers in vertex order and mirrored.
            std::vector<std::vector<std::vector<int32_t>>> starts{reused.layers, reused.layers};
            for (auto& layer : starts[1]) std::reverse(layer.begin(), layer.end());
            BarycenterSweeps skipping(reused, satellites, group, sweeps, nullptr, 0);
            for (const auto& start : starts)
                for (const TieRules& r : rules) {
                    BarycenterSweeps fresh(plain, satellites, group, sweeps, nullptr, 0, /*skipSettled=*/false);
                    const SweptOrder a = skipping.sweep(start, r), b = fresh.sweep(start, r);
                    const QByteArray where = QByteArray::fromStdString(file) + " lanesFirst " +
                                             QByteArray::number(r.lanesFirst) + " widthKeys " +
                                             QByteArray::number(r.widthKeys);
                    QVERIFY2(a.crossings == b.crossings, where.constData());
                    QVERIFY2(a.order == b.order, where.constData());
                    QVERIFY2(a.settled == b.settled, where.constData());
                    crossed += a.crossings;
                }
        }
        QVERIFY(crossed > 0);  // orders with crossings left were compared too, not only easy ones
    }

    void exchangeKeepsGapCountsExact() {
        std::mt19937 rng(7);
        int64_t removed = 0;
        for (const std::string& file : fixtures()) {
            LayeredGraph g = layered(file);
            const Satellites satellites = findSatellites(g);
            const std::vector<int32_t> group = exchangeGroups(satellites, g.vertexCount());
            for (bool ties : {false, true}) {
                for (auto& layer : g.layers) std::shuffle(layer.begin(), layer.end(), rng);
                g.updatePositions();
                std::vector<int64_t> gap = layerGaps(g);
                TransposeScratch scratch;
                removed += transposeWithGaps(g, group, 8, ties, gap, scratch).gained;
                QVERIFY2(gap == layerGaps(g), file.c_str());
            }
        }
        QVERIFY(removed > 0);  // exchanges were made
    }
};

IRSCOPE_TEST_APPLESS_MAIN(TestBarycenterSweeps)
#include "test_barycenter_sweeps.moc"
