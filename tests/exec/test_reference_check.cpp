// The numerical checks as a run goes (irscope:threads - the check measures on a
// worker thread): local versus cumulative error on llama_block with one
// weight perturbed, a second run as the reference (same weights, bfloat16),
// and watchpoints. Expected values come from PyTorch
// (tests/data/make_numerics_fixture.py writes ir/numerics.json) or from the
// PyTorch intermediates file.
#include "exec_test_util.h"

#include "core/exec/error_report.h"
#include "core/exec/reference_check.h"
#include "core/exec/reference_run.h"
#include "core/exec/session.h"
#include "core/exec/watchpoints.h"
#include "core/io/tensor_file.h"
#include "core/ir/json_io.h"

#include <cmath>
#include <fstream>
#include <set>

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

namespace {

// The reference intermediates were computed by PyTorch on the machine that
// made the fixtures; another CPU's BLAS kernels round a matmul differently by
// an ulp (1.2e-07 near 0.6, over torch.allclose's atol of 1e-8). The planted
// errors are 1.0 and 0.5: an atol of 1e-6 still tells them apart.
const Tolerance kUlps{1e-5, 1e-6};

std::string irPath(const std::string& name) { return std::string(IRSCOPE_TEST_DATA) + "/ir/" + name; }

json numerics() {
    std::ifstream f(irPath("numerics.json"));
    return json::parse(f);
}

bool near(double got, double want, double rel) {
    return std::fabs(got - want) <= rel * std::max(1e-12, std::fabs(want));
}

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

private slots:
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

    void bfloat16RunAsTheReference() {
        // PyTorch ran the same model in bfloat16 (model.to(torch.bfloat16));
        // the IR run with every floating value cast must show the same gap.
        const json want = numerics()["bf16"];
        Fixture f("tiny_llama");
        auto s = f.session(f.weights, RetentionPolicy::FreeAfterLastUse);
        auto run = std::make_shared<ReferenceRun>(f.graph, f.weights, f.constants, f.inputs, at::kBFloat16,
                                                  RetentionPolicy::FreeAfterLastUse);
        auto check = std::make_shared<ReferenceCheck>(f.graph, run, Tolerance{}, ErrorMode::Cumulative);
        s->setInspectors({check});
        QCOMPARE(s->runToEnd().reason, StopReason::Finished);
        const ErrorReport r = check->report();
        const OutputError& last = r.outputs.back();
        QCOMPARE(last.output, want["output"].get<std::string>());
        QVERIFY(last.dtypeDiffers);
        QVERIFY(last.metrics.comparable());
        const json& m = want["metrics"];
        // libtorch's and PyTorch's bfloat16 kernels round alike but sum in
        // other orders: the gap agrees to within a dB and a quarter.
        QVERIFY2(std::fabs(last.metrics.sqnrDb - m["sqnr_db"].get<double>()) < 1.0,
                 std::to_string(last.metrics.sqnrDb).c_str());
        QVERIFY(near(last.metrics.maxAbs, m["max_abs"], 0.25));
        QVERIFY(near(last.metrics.meanAbs, m["mean_abs"], 0.25));
        QVERIFY(std::fabs(last.metrics.cosine - m["cosine"].get<double>()) < 1e-5);
        // A bfloat16 gap, not none (a run that was not cast would give +inf).
        QVERIFY(last.metrics.sqnrDb > 35 && last.metrics.sqnrDb < 55);
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

QTEST_GUILESS_MAIN(TestReferenceCheck)
#include "test_reference_check.moc"
