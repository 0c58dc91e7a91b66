// Layout quality against Graphviz dot, the drawing users know: on every fixture in
// tests/data/layout (MoE decode steps, Llama blocks, the traced IR
// fixtures), our drawing has no more crossings than dot's and total edge
// length within 1.25x of dot's, both measured from the geometry the same
// way (core/layout/drawing_metrics.h). dot's numbers were computed once by
// bench/make_layout_fixtures.sh and are stored in dot_bounds.txt.
//
// generated/ holds thirty graphs nobody tuned the engine on: random
// configurations of decoder LLMs, MoE decoders, CNNs and encoder-decoders
// built as PyTorch modules and written by pytorch-ir (bench/
// make_layout_population.py, seed 7), with dot's bounds written once the
// same way. On those the drawing may have at most one crossing more than
// dot's (ties broken differently are not a defect; a systematic miss is).
//
// (irscope:threads - crossing reduction sweeps its second start on a thread
// of its own on graphs of 150 vertices or more, most of these: the suite
// also runs under ThreadSanitizer.)
#include <QTest>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/layout/drawing_metrics.h"
#include "core/layout/layout.h"
#include "core/layout/layout_graph_text.h"
#include "layout/layout_checks.h"

using namespace irscope::layout;
using namespace layout_checks;

namespace {

constexpr double kLengthFactor = 1.25;
// Held-out families, in sum (heldOutFamiliesAgainstDot): today's level
// with some room. MoE decode steps: 0.79x dot's crossings (1.004x on the
// sunk layering alone, 0.81x with the settled layering where it is
// shorter, layer_settling.h, then the fan-out gaps, fan_out_gaps.h).
// Rotary decode steps: 0.60x (1.14x before the chain exchange, lane
// routing and the settled layering, 0.90x before the fan-out gaps). ViTs:
// none, where dot draws two per attention block (with the fan-out gaps;
// before them, as many as dot). U-Nets: none, as dot.
constexpr double kHeldOutCrossingFactor = 1.0;
constexpr double kHeldOutMoeStepCrossingFactor = 0.85;
constexpr double kHeldOutRotaryCrossingFactor = 0.7;
constexpr double kHeldOutViTCrossingFactor = 0.2;
constexpr double kHeldOutLengthFactor = 1.2;

const std::string kDir = std::string(IRSCOPE_TEST_DATA) + "/layout/";

LayoutGraph loadFixture(const std::string& name) {
    std::ifstream f(kDir + name + ".layout");  // name may be "generated/gen003_encdec"
    if (!f) throw std::runtime_error("missing fixture " + name);
    return layoutGraphFromText(f);
}

}  // namespace

class TestDotBounds : public QObject {
    Q_OBJECT

    // One row per line of a bounds file: fixture (relative to tests/data/layout), dot's numbers.
    static void boundsRows(const std::string& file, const std::string& prefix, int atLeast) {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<qlonglong>("dotCrossings");
        QTest::addColumn<double>("dotLength");
        std::ifstream f(kDir + file);
        QVERIFY2(f.good(), ("tests/data/layout/" + file + " missing (bench/make_layout_fixtures.sh)").c_str());
        int rows = 0;
        for (std::string line; std::getline(f, line);) {
            if (line.empty() || line[0] == '#') continue;
            std::istringstream ls(line);
            std::string name;
            long long crossings = 0;
            double length = 0;
            QVERIFY2(static_cast<bool>(ls >> name >> crossings >> length), line.c_str());
            QTest::newRow(name.c_str()) << QString::fromStdString(prefix + name) << qlonglong(crossings) << length;
            ++rows;
        }
        QVERIFY(rows >= atLeast);
    }

private Q_SLOTS:
    void noWorseThanDot_data() { boundsRows("dot_bounds.txt", "", 5); }
    void noWorseThanDot() { check(0); }

    void generatedGraphsNoWorseThanDot_data() { boundsRows("generated/dot_bounds.txt", "generated/", 30); }
    void generatedGraphsNoWorseThanDot() { check(1); }

private:
    // Crossings at most dot's plus `slack`, edge length within kLengthFactor of dot's.
    void check(long long slack) {
        QFETCH(QString, fixture);
        QFETCH(qlonglong, dotCrossings);
        QFETCH(double, dotLength);
        const LayoutGraph g = loadFixture(fixture.toStdString());
        const LayoutResult r = computeLayout(g);
        QString why;
        QVERIFY2(noOverlaps(r, &why), qPrintable(why));
        const DrawingMetrics m = measureDrawing(g, drawingOf(r));
        const QString numbers = QString("crossings %1 (dot %2), edge length %3 (dot %4, x%5)")
                                    .arg(m.crossings)
                                    .arg(dotCrossings)
                                    .arg(m.edgeLength, 0, 'f', 0)
                                    .arg(dotLength, 0, 'f', 0)
                                    .arg(m.edgeLength / dotLength, 0, 'f', 2);
        qInfo("%s: %s", qPrintable(fixture), qPrintable(numbers));
        QVERIFY2(m.crossings <= dotCrossings + slack, qPrintable(numbers));
        QVERIFY2(m.edgeLength <= kLengthFactor * dotLength, qPrintable(numbers));
        // The engine's own count is the drawing's.
        QCOMPARE(qlonglong(r.stats.crossings), qlonglong(m.crossings));
    }

private Q_SLOTS:
    // The held-out shapes (heldout/: decode steps with per-layer rotary
    // tables and KV caches, MoE decode steps with scatter routers and
    // shared experts, vision transformers, U-Nets; bench/
    // make_layout_fixtures.sh, seed 11), judged per family as the
    // population benchmark judges them: summed crossings and mean edge
    // length against dot's. The bounds hold today's drawing, so a change
    // that loses ground fails here. Issue 50's goal is stricter (no more
    // crossings than dot on 95% of each family's graphs); the rotary
    // decode steps do not reach it yet (summed crossings 1.14x dot's).
    void heldOutFamiliesAgainstDot() {
        std::ifstream f(kDir + "heldout/dot_bounds.txt");
        QVERIFY2(f.good(), "tests/data/layout/heldout/dot_bounds.txt missing (bench/make_layout_fixtures.sh)");
        struct Family {
            long long ours = 0, dot = 0;
            double lengthRatios = 0;
            int graphs = 0;
        };
        std::map<std::string, Family> families;
        for (std::string line; std::getline(f, line);) {
            if (line.empty() || line[0] == '#') continue;
            std::istringstream ls(line);
            std::string name;
            long long dotCrossings = 0;
            double dotLength = 0;
            QVERIFY2(static_cast<bool>(ls >> name >> dotCrossings >> dotLength), line.c_str());
            const LayoutGraph g = loadFixture("heldout/" + name);
            const LayoutResult r = computeLayout(g);
            QString why;
            QVERIFY2(noOverlaps(r, &why), qPrintable(QString::fromStdString(name) + ": " + why));
            const DrawingMetrics m = measureDrawing(g, drawingOf(r));
            qInfo("%s: crossings %lld (dot %lld), edge length x%.3f", name.c_str(), static_cast<long long>(m.crossings),
                  dotCrossings, m.edgeLength / dotLength);
            Family& fam = families[name.substr(name.find('_') + 1)];  // gen003_moe_step -> moe_step
            fam.ours += m.crossings;
            fam.dot += dotCrossings;
            fam.lengthRatios += m.edgeLength / dotLength;
            ++fam.graphs;
        }
        QCOMPARE(int(families.size()), 4);
        for (const auto& [name, fam] : families) {
            const double meanLength = fam.lengthRatios / fam.graphs;
            const QString numbers = QString("%1: %2 graphs, crossings %3 (dot %4), mean edge length x%5")
                                        .arg(QString::fromStdString(name))
                                        .arg(fam.graphs)
                                        .arg(fam.ours)
                                        .arg(fam.dot)
                                        .arg(meanLength, 0, 'f', 3);
            qInfo("%s", qPrintable(numbers));
            const double factor = name == "moe_step"    ? kHeldOutMoeStepCrossingFactor
                                  : name == "llama_rot" ? kHeldOutRotaryCrossingFactor
                                  : name == "vit"       ? kHeldOutViTCrossingFactor
                                                        : kHeldOutCrossingFactor;
            QVERIFY2(static_cast<double>(fam.ours) <= factor * static_cast<double>(fam.dot) + 1, qPrintable(numbers));
            QVERIFY2(meanLength <= kHeldOutLengthFactor, qPrintable(numbers));
        }
    }

    // Bend points almost touching (a caller's dummyGap of 0.3 px): the x
    // solver's straight runs still take one vertex a layer, and every
    // fixture lays out, boxes apart, edges down.
    void aTinyDummyGapStillLaysOutCleanly() {
        LayoutOptions o;
        o.dummyGap = 0.3;
        for (const char* name : {"tiny_moe", "moe_decode_2layer", "llama_2layer", "resnet_tiny"}) {
            const LayoutResult r = computeLayout(loadFixture(name), o);
            QString why;
            QVERIFY2(noOverlaps(r, &why), qPrintable(QString(name) + ": " + why));
            QVERIFY2(edgesPointDown(r, &why), qPrintable(QString(name) + ": " + why));
        }
    }

    void fixtureTextRoundTrips() {
        const LayoutGraph g = loadFixture("moe_decode_1layer");
        std::istringstream text(layoutGraphToText(g));
        const LayoutGraph back = layoutGraphFromText(text);
        QCOMPARE(back.nodes.size(), g.nodes.size());
        QCOMPARE(back.edges.size(), g.edges.size());
        QVERIFY(sameLayout(computeLayout(g), computeLayout(back)));
    }

    void malformedTextIsRejected() {
        for (const char* bad : {"node op 10\n", "node nonsense 1 1 0 x\n", "node op 1 1 0 a\nedge 0 5 solid\n",
                                "node op 1 1 0 a\nedge 0 0 wavy\n", "vertex 1\n"}) {
            std::istringstream in(bad);
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, layoutGraphFromText(in));
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestDotBounds)
#include "test_dot_bounds.moc"
