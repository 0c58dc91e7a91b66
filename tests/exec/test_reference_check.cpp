// The numerical checks as a run goes (irscope:threads - the check measures on a
// worker thread): local versus cumulative error on llama_block with one
// weight perturbed, a second run as the reference (same weights, bfloat16),
// and watchpoints. Expected values come from PyTorch
// (tests/data/make_numerics_fixture.py writes ir/numerics.json) or from the
// PyTorch intermediates file.
#include "exec_test_util.h"

#include "core/exec/debugger/watchpoints.h"
#include "core/exec/engine/session.h"
#include "core/exec/numerics/error_report.h"
#include "core/exec/reference/reference_check.h"
#include "core/exec/reference/reference_run.h"
#include "core/io/tensor_file.h"
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

struct Fixture {
    ir::Graph graph;
    io::TensorMap weights, inputs, constants;
    explicit Fixture(const std::string& model) : graph(ir::loadGraphFile(irPath(model + ".json"))) {
        weights = io::readTensorFile(irPath(model + ".weights.pt"));
        inputs = io::readTensorFile(irPath(model + ".inputs.pt"));
        if (QFile::exists(QString::fromStdString(irPath(model + ".constants.pt"))))
            constants = io::readTensorFile(irPath(model + ".constants.pt"));
    }
    std::unique_ptr<Session> session(const io::TensorMap& w, RetentionPolicy policy) const {
        auto s = std::make_unique<Session>(graph, policy);
        s->setWeights(w);
        s->setConstants(constants);
        s->setInputs(inputs);
        return s;
    }
};

// A case of the real-export corpus (tests/data/real/), run under `check`s of
// `reference` built from the same weights and inputs.
struct RealCase {
    ir::Graph graph;
    io::TensorMap weights, inputs;
    explicit RealCase(const std::string& name)
        : graph(ir::loadGraphFile(std::string(IRSCOPE_TEST_DATA) + "/real/" + name + ".json")),
          weights(io::readTensorFile(std::string(IRSCOPE_TEST_DATA) + "/real/" + name + ".weights.pt")),
          inputs(io::readTensorFile(std::string(IRSCOPE_TEST_DATA) + "/real/" + name + ".inputs.pt")) {}
    // Runs to the end against a second run in `dtype`; the check afterwards.
    std::shared_ptr<ReferenceCheck> runAgainst(at::ScalarType dtype) const {
        Session s(graph, RetentionPolicy::FreeAfterLastUse);
        s.setWeights(weights);
        s.setInputs(inputs);
        auto run = std::make_shared<ReferenceRun>(graph, weights, io::TensorMap(), inputs, dtype,
                                                  RetentionPolicy::FreeAfterLastUse);
        auto check = std::make_shared<ReferenceCheck>(graph, run, Tolerance{}, ErrorMode::Cumulative);
        s.setInspectors({check});
        if (s.runToEnd().reason != StopReason::Finished) return nullptr;
        return check;
    }
};

std::set<std::string> failingNodes(const ErrorReport& r) {
    std::set<std::string> out;
    for (const auto& row : r.outputs)
        if (row.failing) out.insert(row.nodeName);
    return out;
}

std::shared_ptr<ReferenceSource> dumpOf(const std::string& model) {
    return std::make_shared<TensorMapReference>(io::readTensorFile(irPath(model + ".intermediates.pt")));
}

}  // namespace

class TestReferenceCheck : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void localFailsOnlyTheCulprit() {
        const json want = numerics()["perturbed"];
        Fixture f("llama_block");
        const auto perturbed = io::readTensorFile(irPath("llama_block.weights_perturbed.pt"));
        std::set<std::string> readers;
        for (const auto& r : want["readers"]) readers.insert(r.get<std::string>());

        for (ErrorMode mode : {ErrorMode::Cumulative, ErrorMode::Local}) {
            auto s = f.session(perturbed, RetentionPolicy::FreeAfterLastUse);
            auto check = std::make_shared<ReferenceCheck>(f.graph, dumpOf("llama_block"), kUlps, mode);
            s->setInspectors({check});
            QCOMPARE(s->runToEnd().reason, StopReason::Finished);
            const ErrorReport r = check->report();
            QCOMPARE(r.mode, std::string(errorModeName(mode)));
            QCOMPARE(r.outputs.size(), size_t{58});  // every node output of llama_block (56 nodes, split has 3)
            QVERIFY(r.firstFailing);
            QCOMPARE(r.outputs[*r.firstFailing].nodeName, want["readers"][0].get<std::string>());
            const auto failing = failingNodes(r);
            if (mode == ErrorMode::Local) {
                QCOMPARE(failing, readers);
                const OutputError& row = r.outputs[*r.firstFailing];
                const json& m = want["first_local"];
                // float32 here, PyTorch's F.linear in float32 there: the same kernel, another sum order.
                QVERIFY2(near(row.metrics.maxAbs, m["max_abs"], 1e-5), std::to_string(row.metrics.maxAbs).c_str());
                QVERIFY(near(row.metrics.meanAbs, m["mean_abs"], 1e-5));
                QVERIFY(near(row.metrics.mse, m["mse"], 1e-5));
                QVERIFY(near(row.metrics.cosine, m["cosine"], 1e-6));
                QVERIFY(near(row.metrics.sqnrDb, m["sqnr_db"], 1e-5));
            } else {
                // The error travels: the culprit's consumers downstream fail too.
                QVERIFY2(failing.size() > readers.size() + 2, std::to_string(failing.size()).c_str());
                QVERIFY(failing.count("rms_norm"));  // the graph output
            }

            // A reset forgets the rows; the run again gives the same report.
            s->reset();
            QCOMPARE(check->rowCount(), size_t{0});
            s->runToEnd();
            QCOMPARE(failingNodes(check->report()), failing);
        }
    }

    void inlineCheckAgreesWithTheReportAfterTheRun() {
        // The same rows, whether measured as each node runs (FreeAfterLastUse,
        // on the worker thread) or afterwards over kept values.
        Fixture f("llama_block");
        const auto perturbed = io::readTensorFile(irPath("llama_block.weights_perturbed.pt"));
        const auto dump = io::readTensorFile(irPath("llama_block.intermediates.pt"));
        auto kept = f.session(perturbed, RetentionPolicy::KeepAll);
        kept->runToEnd();
        const ErrorReport after = errorReport(*kept, dump);
        auto s = f.session(perturbed, RetentionPolicy::FreeAfterLastUse);
        auto check = std::make_shared<ReferenceCheck>(f.graph, std::make_shared<TensorMapReference>(dump), Tolerance{},
                                                      ErrorMode::Cumulative);
        s->setInspectors({check});
        s->runToEnd();
        const ErrorReport inlined = check->report();
        QCOMPARE(inlined.outputs.size(), after.outputs.size());
        for (size_t i = 0; i < after.outputs.size(); ++i) {
            QCOMPARE(inlined.outputs[i].output, after.outputs[i].output);
            QCOMPARE(inlined.outputs[i].failing, after.outputs[i].failing);
            QCOMPARE(inlined.outputs[i].metrics.maxAbs, after.outputs[i].metrics.maxAbs);
        }
    }

    void secondRunWithTheSameWeightsMatchesExactly() {
        Fixture f("tiny_llama");
        auto s = f.session(f.weights, RetentionPolicy::FreeAfterLastUse);
        auto run = std::make_shared<ReferenceRun>(f.graph, f.weights, f.constants, f.inputs, std::nullopt,
                                                  RetentionPolicy::FreeAfterLastUse);
        QVERIFY(run->preflight().empty());
        auto check = std::make_shared<ReferenceCheck>(f.graph, run, Tolerance{0, 0}, ErrorMode::Cumulative);
        s->setInspectors({check});
        QCOMPARE(s->runToEnd().reason, StopReason::Finished);
        const ErrorReport r = check->report();
        QCOMPARE(r.outputs.size(), f.graph.nodes.size());
        QVERIFY2(!r.firstFailing, r.firstFailing ? r.outputs[*r.firstFailing].nodeName.c_str() : "");
    }

    // A reduced-precision reference runs as torch.autocast runs the module:
    // the gap it shows at the output is PyTorch's own autocast run's, to
    // within 1 dB of SQNR (tests/data/real/make_autocast_outputs.py). Where
    // this libtorch has no kernel for the dtype, that op computes in float32
    // and its rows say so; such a reference can only be closer to float32.
    void reducedPrecisionReferenceIsAutocast_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("dtype");
        for (const char* name : {"tiny_llama", "kimi_moe_layer", "sdpa_float_mask", "sdpa_gqa"})
            for (const char* dtype : {"bfloat16", "float16"})
                QTest::newRow((std::string(name) + " " + dtype).c_str()) << QString(name) << QString(dtype);
    }
    void reducedPrecisionReferenceIsAutocast() {
        QFETCH(QString, name);
        QFETCH(QString, dtype);
        const std::string dir = std::string(IRSCOPE_TEST_DATA) + "/real/", n = name.toStdString();
        std::ifstream sqnrFile(dir + "autocast_sqnr.json");
        const json want = json::parse(sqnrFile)["cases"][n][dtype.toStdString()];
        QVERIFY(!want.empty());
        const RealCase real(n);
        const auto check = real.runAgainst(*referenceDtype(dtype.toStdString()));
        QVERIFY(check);
        QVERIFY2(check->referenceFailure().empty(), check->referenceFailure().c_str());
        const ErrorReport r = check->report();
        for (const auto& [output, db] : want.items()) {
            const OutputError* row = nullptr;
            for (const auto& o : r.outputs)
                if (o.output == output) row = &o;
            QVERIFY2(row, output.c_str());
            bool inFloat32 = false;
            for (const auto& o : r.outputs) inFloat32 = inFloat32 || !o.referenceNote.empty();
            const double got = row->metrics.sqnrDb, pytorch = db.get<double>();
            const std::string says = output + ": irscope " + std::to_string(got) + " dB, PyTorch's autocast " +
                                     std::to_string(pytorch) + " dB" + (inFloat32 ? " (some ops in float32)" : "");
            QVERIFY2(inFloat32 ? got > pytorch - 1.0 : std::fabs(got - pytorch) < 1.0, says.c_str());
        }
    }

    // A float64 reference of graphs that build a tensor and write into views
    // of it (the Kimi MoE's new_empty + select + copy_, a slice assignment):
    // what a node makes anew is cast once, so the writes reach the one tensor
    // later nodes read, and the float32 run matches it within float32's band.
    void float64ReferenceKeepsWritesThroughViews_data() {
        QTest::addColumn<QString>("name");
        for (const char* name : {"kimi_moe_layer", "slice_assign_new_empty", "copy_into_view", "add_on_view"})
            QTest::newRow(name) << QString(name);
    }
    void float64ReferenceKeepsWritesThroughViews() {
        QFETCH(QString, name);
        const RealCase real(name.toStdString());
        const auto check = real.runAgainst(at::kDouble);
        QVERIFY(check);
        QVERIFY2(check->referenceFailure().empty(), check->referenceFailure().c_str());
        const ErrorReport r = check->report();
        QVERIFY(!r.outputs.empty());
        QVERIFY2(!r.firstFailing, r.firstFailing ? r.outputs[*r.firstFailing].nodeName.c_str() : "");
    }

    // The reference's failure is the reference's: the run it checks goes on
    // to the end, the check stops comparing and says which node and why.
    void failingReferenceLeavesTheRunGreen() {
        Fixture f("tiny_llama");
        io::TensorMap broken;
        for (const auto& e : f.weights.entries())  // one weight of the wrong shape, from the 3rd layer on
            broken.insert(e.name, e.name == "layers.1.mlp.down_proj.weight" ? e.tensor.t().contiguous() : e.tensor,
                          e.source);
        auto s = f.session(f.weights, RetentionPolicy::FreeAfterLastUse);
        auto run = std::make_shared<ReferenceRun>(f.graph, broken, f.constants, f.inputs, std::nullopt,
                                                  RetentionPolicy::FreeAfterLastUse);
        auto check = std::make_shared<ReferenceCheck>(f.graph, run, Tolerance{}, ErrorMode::Cumulative);
        s->setInspectors({check});
        const RunResult done = s->runToEnd();
        QCOMPARE(done.reason, StopReason::Finished);
        const std::string why = check->referenceFailure();
        QVERIFY2(why.find("the reference run failed at node 'linear_13'") != std::string::npos, why.c_str());
        const ErrorReport r = check->report();
        QVERIFY(!r.outputs.empty());  // what came before was compared, and matched
        QVERIFY(!r.firstFailing);
        for (const auto& o : r.outputs) QVERIFY2(o.nodeName != "linear_13", o.nodeName.c_str());
    }

    void watchpointParsing() {
        auto c = parseWatchCondition("nan,absmax=100");
        QVERIFY(c && c->nan && !c->inf && !c->diff && c->absMax == 100.0);
        QCOMPARE(watchConditionText(*c), std::string("nan,absmax=100"));
        std::string why;
        QVERIFY(!parseWatchCondition("nan,bogus", &why));
        QCOMPARE(why, std::string("'bogus' is not one of nan, inf, diff, absmax=V"));
        QVERIFY(!parseWatchCondition("absmax=-1", &why));
        QVERIFY(!parseWatchCondition("absmax=", &why));
        QVERIFY(!parseWatchCondition("", &why));
    }

    void nanWatchpointStopsAtTheConsumer() {
        const json want = numerics()["nan"];
        Fixture f("llama_block");
        auto s = f.session(io::readTensorFile(irPath("llama_block.weights_nan.pt")), RetentionPolicy::KeepAll);
        auto watch = std::make_shared<Watchpoints>(f.graph);
        watch->setGlobal(*parseWatchCondition("nan"));
        s->setInspectors({watch});
        const RunResult r = s->runToEnd();
        QCOMPARE(r.reason, StopReason::Watchpoint);
        QCOMPARE(f.graph.nodes[static_cast<size_t>(r.lastNode)].name, want["stops_at"].get<std::string>());
        QVERIFY2(r.watch.find("NaN") != std::string::npos, r.watch.c_str());
        QCOMPARE(s->cursor(), r.lastNode + 1);
        // Going on runs to the end: a watchpoint stops after its node, once.
        watch->setGlobal({});
        QCOMPARE(s->runToEnd().reason, StopReason::Finished);
    }

    void absMaxWatchpointPerNode() {
        // The first node (in execution order) whose PyTorch output exceeds
        // the limit is where a global absmax watchpoint stops; a per-node one
        // on a later node stops there only.
        Fixture f("llama_block");
        const auto dump = io::readTensorFile(irPath("llama_block.intermediates.pt"));
        const double limit = 2.5;
        std::string first;
        for (const auto& n : f.graph.nodes)
            if (const at::Tensor* t = dump.find(n.outputs[0].name);
                first.empty() && t && t->is_floating_point() && t->abs().max().item<double>() > limit)
                first = n.name;
        QVERIFY(!first.empty());
        auto s = f.session(f.weights, RetentionPolicy::KeepAll);
        auto watch = std::make_shared<Watchpoints>(f.graph);
        WatchCondition c;
        c.absMax = limit;
        watch->setGlobal(c);
        s->setInspectors({watch});
        RunResult r = s->runToEnd();
        QCOMPARE(r.reason, StopReason::Watchpoint);
        QCOMPARE(f.graph.nodes[static_cast<size_t>(r.lastNode)].name, first);

        const int64_t last = static_cast<int64_t>(f.graph.nodes.size()) - 1;
        watch->setGlobal({});
        watch->setNode(last, c);  // rms_norm, the output: max |x| 2.75 in PyTorch
        s->reset();
        r = s->runToEnd();
        QCOMPARE(r.reason, StopReason::Watchpoint);
        QCOMPARE(r.lastNode, last);
        QCOMPARE(watch->nodes().size(), size_t{1});
    }

    void diffWatchpointStopsAtTheFirstFailingNode() {
        Fixture f("llama_block");
        auto s = f.session(io::readTensorFile(irPath("llama_block.weights_perturbed.pt")), RetentionPolicy::KeepAll);
        auto check = std::make_shared<ReferenceCheck>(f.graph, dumpOf("llama_block"), kUlps, ErrorMode::Cumulative);
        auto watch = std::make_shared<Watchpoints>(f.graph, check);
        watch->setGlobal(*parseWatchCondition("diff"));
        s->setInspectors({watch, check});
        const RunResult r = s->runToEnd();
        QCOMPARE(r.reason, StopReason::Watchpoint);
        QCOMPARE(f.graph.nodes[static_cast<size_t>(r.lastNode)].name,
                 numerics()["perturbed"]["readers"][0].get<std::string>());
        // Measured once, not twice: the watchpoint's verdict is the check's row.
        const ErrorReport rep = check->report();
        QCOMPARE(rep.outputs.back().nodeName, f.graph.nodes[static_cast<size_t>(r.lastNode)].name);
        QCOMPARE(rep.outputs.size(), size_t(r.lastNode + 3));  // split_with_sizes has 3 outputs
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestReferenceCheck)
#include "test_reference_check.moc"
