// Session: stepping, breakpoints, cancel, retention, in-place safety; verify's numbers.
#include "exec_test_util.h"

#include "core/exec/engine/session.h"
#include "core/exec/numerics/verify.h"

#include <atomic>
#include <thread>

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

namespace {

// x -> add(x, 1) -> relu_ -> mul(relu_, add): the in-place relu_ reads `add`, which mul reads again.
ir::Graph inplaceGraph() {
    return graphOf(
        json::array({meta("x", {4})}), json::array({meta("mul", {4})}),
        json::array({node("add", "aten.add.Tensor", json::array({meta("x", {4}, "float32", "x")}),
                          json::array({meta("add", {4})}), json{{"other", 1}}),
                     node("relu_", "aten.relu_.default", json::array({meta("add", {4}, "float32", "add")}),
                          json::array({meta("relu_", {4})})),
                     node("mul", "aten.mul.Tensor",
                          json::array({meta("relu_", {4}, "float32", "relu_"), meta("add", {4}, "float32", "add")}),
                          json::array({meta("mul", {4})}))}));
}

// A chain of n adds.
ir::Graph chain(int n) {
    json nodes = json::array();
    std::string prev = "x";
    for (int i = 0; i < n; ++i) {
        std::string name = i ? "add_" + std::to_string(i) : "add";
        nodes.push_back(node(name, "aten.add.Tensor", json::array({meta(prev, {1}, "float32", prev)}),
                             json::array({meta(name, {1})}), json{{"other", 1}}));
        prev = name;
    }
    return graphOf(json::array({meta("x", {1})}), json::array({meta(prev, {1})}), nodes);
}

}  // namespace

class TestSession : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void inplaceKeepsProducerValue_data() {
        QTest::addColumn<int>("policy");
        QTest::newRow("keep") << 0;
        QTest::newRow("free") << 1;
    }
    void inplaceKeepsProducerValue() {
        QFETCH(int, policy);
        ir::Graph g = inplaceGraph();
        Session s(g, policy ? RetentionPolicy::FreeAfterLastUse : RetentionPolicy::KeepAll);
        at::Tensor x = at::tensor({-3.f, -0.5f, 0.f, 2.f});
        s.setInputs(mapOf({{"x", x}}));
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        // add = [-2, 0.5, 1, 3]; relu_ = [0, 0.5, 1, 3]; mul must use the un-relu'd add.
        at::Tensor mul;
        QVERIFY(s.value("mul", mul));
        QVERIFY(close(mul, at::tensor({0.f, 0.25f, 1.f, 9.f})));
        QVERIFY(at::equal(x, at::tensor({-3.f, -0.5f, 0.f, 2.f})));  // input untouched
        if (!policy) {
            at::Tensor add;
            QVERIFY(s.value("add", add));
            QVERIFY(close(add, at::tensor({-2.f, 0.5f, 1.f, 3.f})));
        }
    }

    void inplaceOnGraphInputCopies() {
        auto g = graphOf(json::array({meta("x", {2})}), json::array({meta("relu_", {2})}),
                         json::array({node("relu_", "aten.relu_.default", json::array({meta("x", {2}, "float32", "x")}),
                                           json::array({meta("relu_", {2})}))}));
        at::Tensor x = at::tensor({-1.f, 1.f});
        Session s(g, RetentionPolicy::FreeAfterLastUse);
        s.setInputs(mapOf({{"x", x}}));
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        QCOMPARE(x[0].item<float>(), -1.f);
    }

    // The pattern of pytorch-ir's MoE example: a buffer made inside the graph
    // is filled through a slice (a view) by copy_, and a later node reads the
    // buffer. Eager PyTorch writes through the view into the buffer:
    // out = 2 * [0, x0, x1, 0]. The buffer's own node still shows the zeros
    // it produced.
    void writeThroughViewReachesBase_data() {
        QTest::addColumn<int>("policy");
        QTest::newRow("keep") << 0;
        QTest::newRow("free") << 1;
    }
    void writeThroughViewReachesBase() {
        QFETCH(int, policy);
        auto g = graphOf(
            json::array({meta("x", {2})}), json::array({meta("mul", {4})}),
            json::array({node("zeros", "aten.zeros.default", json::array(), json::array({meta("zeros", {4})}),
                              json{{"size", json::array({4})}}),
                         node("slice_1", "aten.slice.Tensor", json::array({meta("zeros", {4}, "float32", "zeros")}),
                              json::array({meta("slice_1", {2})}), json{{"dim", 0}, {"start", 1}, {"end", 3}}),
                         node("copy_", "aten.copy_.default",
                              json::array({meta("slice_1", {2}, "float32", "slice_1"), meta("x", {2}, "float32", "x")}),
                              json::array({meta("copy_", {2})})),
                         node("mul", "aten.mul.Tensor", json::array({meta("zeros", {4}, "float32", "zeros")}),
                              json::array({meta("mul", {4})}), json{{"other", 2}})}));
        Session s(g, policy ? RetentionPolicy::FreeAfterLastUse : RetentionPolicy::KeepAll);
        s.setInputs(mapOf({{"x", at::tensor({3.f, 5.f})}}));
        for (int run = 0; run < 2; ++run) {  // a second run starts from the same state
            s.reset();
            QCOMPARE(s.runToEnd().reason, StopReason::Finished);
            at::Tensor mul;
            QVERIFY(s.value("mul", mul));
            QVERIFY2(at::equal(mul, at::tensor({0.f, 6.f, 10.f, 0.f})),
                     "the write through the slice must reach the buffer");
            if (!policy) {
                at::Tensor zeros;
                QVERIFY(s.value("zeros", zeros));
                QVERIFY(at::equal(zeros, at::zeros({4})));  // as produced, before the write
            }
        }
    }

    // A buffer written in place (a KV cache updated by index_copy_ through a
    // view, as decoder exports do): the run sees the write, the user's loaded
    // tensor does not change, and a second run starts from the loaded values.
    void writeIntoBufferLeavesLoadedTensor() {
        auto g = graphOf(
            json::array({meta("x", {2})}), json::array({meta("add", {2, 2})}),
            json::array({node("select", "aten.select.int", json::array({meta("b_cache", {2, 2})}),
                              json::array({meta("select", {2})}), json{{"dim", 0}, {"index", 1}}),
                         node("add_", "aten.add_.Tensor",
                              json::array({meta("select", {2}, "float32", "select"), meta("x", {2}, "float32", "x")}),
                              json::array({meta("add_", {2})})),
                         node("add", "aten.add.Tensor", json::array({meta("b_cache", {2, 2})}),
                              json::array({meta("add", {2, 2})}), json{{"other", 0}})}),
            json::array({meta("cache", {2, 2})}), json{{"b_cache", "cache"}});
        at::Tensor cache = at::ones({2, 2});
        Session s(g);
        s.setWeights(mapOf({{"cache", cache}}));
        s.setInputs(mapOf({{"x", at::tensor({1.f, 2.f})}}));
        for (int run = 0; run < 2; ++run) {
            s.reset();
            QCOMPARE(s.runToEnd().reason, StopReason::Finished);
            at::Tensor out;
            QVERIFY(s.value("add", out));
            QVERIFY2(at::equal(out, at::tensor({1.f, 1.f, 2.f, 3.f}).view({2, 2})),
                     qPrintable(QString("run %1").arg(run)));
        }
        QVERIFY(at::equal(cache, at::ones({2, 2})));  // the loaded buffer is untouched
    }

    void steppingAndBreakpoints() {
        ir::Graph g = chain(10);
        Session s(g);
        s.setInputs(mapOf({{"x", at::zeros({1})}}));
        QCOMPARE(s.step().reason, StopReason::Stepped);
        QCOMPARE(s.cursor(), int64_t(1));
        QCOMPARE(s.state(0), NodeState::Done);
        QCOMPARE(s.state(1), NodeState::Pending);
        s.setBreakpoint(5, true);
        RunResult r = s.runToEnd();
        QCOMPARE(r.reason, StopReason::Breakpoint);
        QCOMPARE(s.cursor(), int64_t(5));                        // stopped before node 5
        QCOMPARE(s.runTo(7).reason, StopReason::ReachedTarget);  // starting at a breakpoint runs it
        QCOMPARE(s.cursor(), int64_t(8));
        at::Tensor v;
        QVERIFY(s.value("add_7", v));
        QCOMPARE(v.item<float>(), 8.f);
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        QVERIFY(s.finished());
        s.reset();
        QCOMPARE(s.cursor(), int64_t(0));
        QCOMPARE(s.state(3), NodeState::Pending);
        QVERIFY(!s.hasValue("add_3"));
    }

    void retentionFreesAfterLastUse() {
        ir::Graph g = chain(50);
        Session keep(g), freeing(g, RetentionPolicy::FreeAfterLastUse);
        for (Session* s : {&keep, &freeing}) {
            s->setInputs(mapOf({{"x", at::zeros({1})}}));
            QCOMPARE(s->runToEnd().reason, StopReason::Finished);
        }
        QVERIFY(keep.bytesHeld() >= 50 * sizeof(float));
        QCOMPARE(freeing.bytesHeld(), sizeof(float));  // only the graph output
        QVERIFY(!freeing.hasValue("add_10"));
        at::Tensor out;
        QVERIFY(freeing.value("add_49", out));
        QCOMPARE(out.item<float>(), 50.f);
        // Pinned values survive.
        freeing.setPinned("add_10", true);
        freeing.reset();
        freeing.runToEnd();
        QVERIFY(freeing.hasValue("add_10"));
    }

    void cancelFromAnotherThread() {
        ir::Graph g = chain(20000);
        Session s(g);
        s.setInputs(mapOf({{"x", at::zeros({1})}}));
        RunResult r;
        std::thread t([&] { r = s.runToEnd(); });
        while (s.cursor() == 0) std::this_thread::yield();
        s.cancel();
        t.join();
        QCOMPARE(r.reason, StopReason::Cancelled);
        const int64_t c = s.cursor();
        QVERIFY(c > 0 && c < 20000);
        QCOMPARE(s.state(c - 1), NodeState::Done);
        QCOMPARE(s.state(c), NodeState::Pending);
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);  // a later run continues
    }

    void callsAnswerWhileRunning() {
        // The run loop keeps the lock from node to node and hands it over
        // when a call waits: calls from another thread answer mid-run, with
        // values consistent with the cursor (node k of the chain holds k + 1).
        ir::Graph g = chain(20000);
        Session s(g);
        s.setInputs(mapOf({{"x", at::zeros({1})}}));
        std::atomic<bool> done{false};
        std::thread t([&] {
            s.runToEnd();
            done = true;
        });
        int midRun = 0;
        bool consistent = true;
        while (!done) {
            const int64_t c = s.cursor();
            if (c <= 0 || c >= 20000) continue;
            const std::string last = c == 1 ? "add" : "add_" + std::to_string(c - 1);
            at::Tensor v;
            // The cursor may have moved on, but the value of node c - 1 stays (keep-all).
            if (!s.value(last, v) || v.item<float>() != static_cast<float>(c)) consistent = false;
            ++midRun;
        }
        t.join();
        QVERIFY(consistent);
        QVERIFY2(midRun >= 3, qPrintable(QString("only %1 answers during the run").arg(midRun)));
    }

    void compareNumbers() {
        at::Tensor a = at::tensor({1.f, 2.f, 3.f}), e = at::tensor({1.f, 2.5f, 3.f});
        Comparison c = compareTensors("t", a, e);
        QVERIFY(!c.matched);
        QCOMPARE(c.mismatches, int64_t(1));
        QCOMPARE(c.maxAbsDiff, 0.5);
        QCOMPARE(c.maxRelDiff, 0.2);
        QCOMPARE(c.worstIndex, std::vector<int64_t>{1});
        QVERIFY(compareTensors("t", a, e, Tolerance{0.0, 0.5}).matched);
        QVERIFY(compareTensors("t", a, e, Tolerance{0.2, 0.0}).matched);  // 0.5 <= 0.2 * 2.5
        QVERIFY(!compareTensors("t", a, e, Tolerance{0.19, 0.0}).matched);
        // Integers exactly, whatever the tolerance.
        Comparison ci =
            compareTensors("i", at::tensor({1, 2}, at::kLong), at::tensor({1, 3}, at::kLong), Tolerance{1, 1});
        QVERIFY(!ci.matched && ci.exact);
        // NaN never matches; equal infinities do.
        const float inf = std::numeric_limits<float>::infinity();
        QVERIFY(!compareTensors("n", at::tensor({NAN}), at::tensor({NAN})).matched);
        QVERIFY(compareTensors("f", at::tensor({inf, 1.f}), at::tensor({inf, 1.f})).matched);
        QVERIFY(!compareTensors("s", at::zeros({2}), at::zeros({3})).matched);
        // Worst index is multi-dimensional.
        at::Tensor m = at::zeros({2, 3});
        m.index_put_({1, 2}, 4.f);
        QCOMPARE(compareTensors("m", m, at::zeros({2, 3})).worstIndex, (std::vector<int64_t>{1, 2}));
    }

    void summaryStatistics() {
        at::Tensor t = at::tensor({0.f, 1.f, 2.f, 3.f, NAN, std::numeric_limits<float>::infinity()});
        io::TensorSummary s = io::summarize(t);
        QCOMPARE(s.numel, int64_t(6));
        QCOMPARE(s.nans, int64_t(1));
        QCOMPARE(s.infs, int64_t(1));
        QCOMPARE(s.zeros, int64_t(1));
        QCOMPARE(s.min, 0.0);
        QCOMPARE(s.max, 3.0);
        QCOMPARE(s.mean, 1.5);
        QVERIFY(std::abs(s.std - std::sqrt(5.0 / 3.0)) < 1e-12);  // unbiased over 0..3
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestSession)
#include "test_session.moc"
