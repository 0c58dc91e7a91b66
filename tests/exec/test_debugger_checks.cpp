// The Debugger's numerical checks, as the GUI drives them
// (irscope:threads - the reference check measures on a worker thread): a
// second run as the reference, local versus cumulative error, rows handed
// out incrementally, a reference loaded after the run, watchpoints set on
// the facade, overlays by error metric, node data out and back in, and the
// reference run's values beside the run's. Expected numbers come from
// PyTorch (tests/data/make_numerics_fixture.py -> ir/numerics.json) or from
// the PyTorch intermediates file.
#include "exec_test_util.h"

#include "core/exec/debugger/debugger.h"
#include "core/exec/numerics/metric_thresholds.h"
#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"

#include <cmath>
#include <fstream>
#include <set>

#include <QtTest/QtTest>
#include "test_support.h"

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

using irscope::test::irPath;

namespace {

std::set<std::string> failingNodes(const std::vector<OutputError>& rows) {
    std::set<std::string> out;
    for (const auto& r : rows)
        if (r.failing) out.insert(r.nodeName);
    return out;
}

// llama_block with the perturbed weights, measured against a second run with the good ones.
struct Perturbed {
    ir::Graph graph = ir::loadGraphFile(irPath("llama_block.json"));
    Debugger dbg{graph, RetentionPolicy::KeepAll};
    Perturbed() {
        dbg.values().loadWeights(irPath("llama_block.weights_perturbed.pt"));
        dbg.values().loadInputs(irPath("llama_block.inputs.pt"));
        ReferenceChoice c;
        c.kind = ReferenceChoice::Kind::Weights;
        c.weightsPath = irPath("llama_block.weights.pt");
        dbg.checks().setReference(c);
    }
    int64_t node(const std::string& name) const { return *ir::GraphIndex(graph).nodeIndex(name); }
};

}  // namespace

class TestDebuggerChecks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Cumulative: the culprit and everything downstream fail; local: only the culprit.
    void secondRunFindsTheCulpritLocally() {
        const json want = numerics()["perturbed"];
        const std::string culprit = want["readers"][0];
        Perturbed f;
        QVERIFY(f.dbg.checks().checking());
        QCOMPARE(f.dbg.runToEnd().reason, StopReason::Finished);
        const auto cumulative = f.dbg.checks().errorRows();
        QVERIFY(!cumulative.empty());
        const auto cumFailing = failingNodes(cumulative);
        QVERIFY(cumFailing.count(culprit));
        QVERIFY2(cumFailing.size() > 1, "the error must carry downstream in cumulative mode");
        const auto first = std::find_if(cumulative.begin(), cumulative.end(), [](auto& r) { return r.failing; });
        QCOMPARE(first->nodeName, culprit);
        QCOMPARE(f.dbg.checks().firstDivergence().nodeName, culprit);

        f.dbg.checks().setErrorMode(ErrorMode::Local);
        QCOMPARE(f.dbg.cursor(), int64_t(0));  // the mode resets the run
        QVERIFY(f.dbg.checks().errorRows().empty());
        QCOMPARE(f.dbg.runToEnd().reason, StopReason::Finished);
        const auto local = f.dbg.checks().errorRows();
        QCOMPARE(failingNodes(local), std::set<std::string>{culprit});
        const auto row = std::find_if(local.begin(), local.end(), [&](auto& r) { return r.nodeName == culprit; });
        const json& m = want["first_local"];
        QVERIFY2(near(row->metrics.maxAbs, m["max_abs"], 1e-4), std::to_string(row->metrics.maxAbs).c_str());
        QVERIFY2(near(row->metrics.sqnrDb, m["sqnr_db"], 1e-4), std::to_string(row->metrics.sqnrDb).c_str());
        QVERIFY(near(row->metrics.cosine, m["cosine"], 1e-6));
        // The overlays by metric are the worst row per node.
        const int64_t i = f.node(culprit);
        QVERIFY(near(f.dbg.checks().overlay(OverlayKind::ErrorSqnr)[i], m["sqnr_db"], 1e-4));
        QVERIFY(near(f.dbg.checks().overlay(OverlayKind::Difference)[i], m["max_abs"], 1e-4));
        QVERIFY(near(f.dbg.checks().overlay(OverlayKind::ErrorMse)[i], m["mse"], 1e-3));
        QCOMPARE(f.dbg.checks().overlay(OverlayKind::ErrorCosine)[f.node("linear")], 1.0);  // upstream: identical
    }

    // Local mode with a dump: the run holds the reference's values in place of
    // each node's own, yet the viewer and First divergence see what the node computed.
    void localModeShowsWhatTheNodeComputed() {
        const std::string culprit = numerics()["perturbed"]["readers"][0];
        ir::Graph g = ir::loadGraphFile(irPath("llama_block.json"));
        Debugger dbg(g, RetentionPolicy::KeepAll);
        dbg.values().loadWeights(irPath("llama_block.weights_perturbed.pt"));
        dbg.values().loadInputs(irPath("llama_block.inputs.pt"));
        dbg.values().loadReferenceIntermediates(irPath("llama_block.intermediates.pt"));
        dbg.checks().setErrorMode(ErrorMode::Local);
        dbg.checks().setTolerance(kUlps);
        QCOMPARE(dbg.runToEnd().reason, StopReason::Finished);
        QCOMPARE(failingNodes(dbg.checks().errorRows()), std::set<std::string>{culprit});
        const DivergenceInfo d = dbg.checks().firstDivergence();
        QVERIFY(d.found);
        QCOMPARE(d.nodeName, culprit);
        const Comparison own = dbg.tensors().compare(culprit);
        QVERIFY(!own.matched);
        QVERIFY(near(own.maxAbsDiff, numerics()["perturbed"]["first_local"]["max_abs"], 1e-4));
        // Its consumer ran on the reference's value and matches.
        const auto consumer = std::find_if(g.nodes.begin(), g.nodes.end(), [&](const ir::OpNode& n) {
            return std::any_of(n.inputs.begin(), n.inputs.end(), [&](const auto& in) { return in.name == culprit; });
        });
        QVERIFY(consumer != g.nodes.end());
        QVERIFY(dbg.tensors().compare(consumer->outputs[0].name).matched);
    }

    // A reader holding rows gets only new ones, and learns when they started over.
    void rowsAreHandedOutIncrementally() {
        Perturbed f;
        uint64_t epoch = ~uint64_t(0);
        QVERIFY(f.dbg.checks().errorRows(0, epoch).empty());
        const uint64_t start = epoch;
        f.dbg.runTo(f.node("linear_3"));
        auto first = f.dbg.checks().errorRows(0, epoch);
        QCOMPARE(epoch, start);
        QVERIFY(!first.empty());
        QCOMPARE(first.back().nodeName, std::string("linear_3"));
        QCOMPARE(f.dbg.runToEnd().reason, StopReason::Finished);
        auto more = f.dbg.checks().errorRows(first.size(), epoch);
        QCOMPARE(epoch, start);
        QVERIFY(!more.empty());
        QVERIFY(more.front().node > first.back().node);
        QCOMPARE(first.size() + more.size(), f.dbg.checks().errorRows().size());
        f.dbg.reset();
        f.dbg.step();
        auto after = f.dbg.checks().errorRows(first.size() + more.size(), epoch);  // started over: from row 0
        QVERIFY(epoch != start);
        QCOMPARE(after.size(), size_t(1));
        QCOMPARE(after.front().node, int64_t(0));
    }

    // Reference intermediates loaded once the run is done: measured from what it kept, no second run.
    void referenceLoadedAfterTheRunIsMeasured() {
        ir::Graph g = ir::loadGraphFile(irPath("llama_block.json"));
        Debugger dbg(g, RetentionPolicy::KeepAll);
        dbg.values().loadWeights(irPath("llama_block.weights.pt"));
        dbg.values().loadInputs(irPath("llama_block.inputs.pt"));
        QVERIFY(!dbg.checks().checking());
        dbg.checks().setTolerance(kUlps);
        QCOMPARE(dbg.runToEnd().reason, StopReason::Finished);
        QVERIFY(dbg.checks().errorRows().empty());
        dbg.values().loadReferenceIntermediates(irPath("llama_block.intermediates_bad.pt"));
        QVERIFY(dbg.checks().checking());
        const auto rows = dbg.checks().errorRows();
        QVERIFY(rows.size() > 10);
        const auto first = std::find_if(rows.begin(), rows.end(), [](auto& r) { return r.failing; });
        QVERIFY(first != rows.end());
        QCOMPARE(first->nodeName, std::string("mul_4"));  // planted by make_fixtures.py
        // A stricter tolerance measures again, still without running.
        dbg.values().loadReferenceIntermediates(irPath("llama_block.intermediates.pt"));
        dbg.checks().setTolerance({1e-4, 1e-5});
        QVERIFY(failingNodes(dbg.checks().errorRows()).empty());
        QCOMPARE(dbg.checks().errorRows().size(), rows.size());
    }

    // Watchpoints through the facade: global NaN stops at the NaN weight's reader; a diff watch on one node.
    void watchpointsStopTheRun() {
        ir::Graph g = ir::loadGraphFile(irPath("llama_block.json"));
        Debugger dbg(g, RetentionPolicy::KeepAll);
        dbg.values().loadWeights(irPath("llama_block.weights_nan.pt"));
        dbg.values().loadInputs(irPath("llama_block.inputs.pt"));
        WatchCondition nan;
        nan.nan = true;
        dbg.checks().setGlobalWatch(nan);
        const RunStatus s = dbg.runToEnd();
        QCOMPARE(s.reason, StopReason::Watchpoint);
        const std::string stopsAt = numerics()["nan"]["stops_at"];
        QVERIFY2(s.message.find("'" + stopsAt + "'") != std::string::npos, s.message.c_str());
        dbg.checks().setGlobalWatch({});

        Perturbed f;
        WatchCondition diff;
        diff.diff = true;
        const int64_t culprit = f.node(numerics()["perturbed"]["readers"][0]);
        f.dbg.checks().setWatch(culprit, diff);
        QCOMPARE(f.dbg.checks().watches().size(), size_t(1));
        QCOMPARE(f.dbg.runToEnd().reason, StopReason::Watchpoint);
        QCOMPARE(f.dbg.cursor(), culprit + 1);  // stopped right after it
        f.dbg.checks().setWatch(culprit, {});
        QVERIFY(f.dbg.checks().watches().empty());
        QCOMPARE(f.dbg.runToEnd().reason, StopReason::Finished);
    }

    // A bfloat16 reference run (tiny_llama: PyTorch ran it in bfloat16 too):
    // its values are viewable as the reference, in their own dtype.
    void dtypeReferenceValuesAreViewable() {
        ir::Graph g = ir::loadGraphFile(irPath("tiny_llama.json"));
        Debugger dbg(g, RetentionPolicy::KeepAll);
        dbg.values().loadWeights(irPath("tiny_llama.weights.pt"));
        dbg.values().loadConstants(irPath("tiny_llama.constants.pt"));
        dbg.values().loadInputs(irPath("tiny_llama.inputs.pt"));
        ReferenceChoice c;
        c.kind = ReferenceChoice::Kind::Dtype;
        c.dtype = "bfloat16";
        dbg.checks().setReference(c);
        const RunStatus done = dbg.runToEnd();
        QVERIFY2(done.reason == StopReason::Finished, done.message.c_str());  // a dtype by design is not a failure
        const json want = numerics()["bf16"];
        const std::string out = want["output"];
        const auto ref = dbg.tensors().summary(out, ValueSide::Reference);
        QVERIFY(ref);
        QCOMPARE(ref->dtype, std::string("bfloat16"));
        QCOMPARE(dbg.tensors().summary(out)->dtype, std::string("float32"));
        const auto rows = dbg.checks().errorRows();
        QVERIFY(!rows.empty());
        QCOMPARE(rows.back().output, out);
        QVERIFY(rows.back().dtypeDiffers);
        // A bfloat16 gap as autocast leaves one (the exact figure against
        // PyTorch's own autocast run: test_reference_check), not none.
        QVERIFY2(rows.back().metrics.sqnrDb > 35 && rows.back().metrics.sqnrDb < 65,
                 std::to_string(rows.back().metrics.sqnrDb).c_str());
        // A dtype that is not one is told, and the choice stays.
        c.dtype = "int8";
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, dbg.checks().setReference(c));
        QCOMPARE(dbg.checks().referenceChoice().dtype, std::string("bfloat16"));
        c.kind = ReferenceChoice::Kind::Weights;
        c.weightsPath = irPath("no_such_weights.pt");
        try {
            dbg.checks().setReference(c);
            QFAIL("an unreadable weights file must throw");
        } catch (const std::runtime_error& e) {
            QVERIFY2(std::string(e.what()).find("no_such_weights.pt") != std::string::npos, e.what());
        }
    }

    // Node data out, then back in as the Imported overlay; a file for another model is refused by name.
    void nodeDataRoundTrips() {
        Perturbed f;
        f.dbg.checks().setErrorMode(ErrorMode::Local);
        f.dbg.runToEnd();
        QTemporaryDir dir;
        const std::string path = dir.filePath("sqnr.json").toStdString();
        f.dbg.checks().exportNodeData(path, NodeMetric::SqnrDb);
        QCOMPARE(f.dbg.checks().importNodeData(path), f.dbg.checks().nodeData(NodeMetric::SqnrDb).values.size());
        const auto imported = f.dbg.checks().overlay(OverlayKind::Imported);
        const auto sqnr = f.dbg.checks().overlay(OverlayKind::ErrorSqnr);
        const int64_t culprit = f.node(numerics()["perturbed"]["readers"][0]);
        QVERIFY(near(imported[culprit], numerics()["perturbed"]["first_local"]["sqnr_db"], 1e-4));
        for (size_t i = 0; i < sqnr.size(); ++i)
            if (std::isfinite(sqnr[i])) QVERIFY(near(imported[i], sqnr[i], 1e-12));
        QVERIFY(!f.dbg.checks().importedNodeData()->thresholds.empty());

        const std::string other = dir.filePath("other.json").toStdString();
        std::ofstream(other) << R"({"results": {"conv_9": {"value": 1}}})";
        try {
            f.dbg.checks().importNodeData(other);
            QFAIL("node data naming no node of this graph must be refused");
        } catch (const std::runtime_error& e) {
            QVERIFY2(std::string(e.what()).find("other.json") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("conv_9") != std::string::npos, e.what());
        }
        QCOMPARE(f.dbg.checks().importedNodeDataPath(), path);  // the previous import stays
    }

    // Thresholds flag a row across a limit; NaN crosses every limit set.
    void thresholdsFlagRows() {
        OutputError row;
        row.metrics.maxAbs = 0.5;
        row.metrics.sqnrDb = 20;
        row.metrics.cosine = 0.99;
        MetricThresholds t;
        QVERIFY(!t.any());
        QVERIFY(!t.flags(row));
        t.set(NodeMetric::MaxAbs, 1.0);
        QVERIFY(!t.flags(row));
        t.set(NodeMetric::SqnrDb, 30.0);  // below 30 dB is bad
        QVERIFY(t.crosses(row, NodeMetric::SqnrDb));
        QVERIFY(t.flags(row));
        t.set(NodeMetric::SqnrDb, std::nullopt);
        t.set(NodeMetric::MaxAbs, 0.25);
        QVERIFY(t.crosses(row, NodeMetric::MaxAbs));
        QVERIFY(!t.crosses(row, NodeMetric::Cosine));
        QVERIFY(t.crosses(NodeMetric::MaxAbs, std::nan("")));
        row.metrics.maxAbs = 0;
        row.failing = true;
        QVERIFY(t.flags(row));  // a failing row is flagged whatever the limits
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestDebuggerChecks)
#include "test_debugger_checks.moc"
