// The flat execution plan: slot layout, where each input comes from, last
// uses, what FreeAfterLastUse may drop after each node, getitem codes and
// the IR's output metas. Every expected slot number is worked out by hand
// in the comments next to it.
#include "exec_test_util.h"

#include "core/exec/engine/execution_plan.h"

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

namespace {

int8_t fakeDtype(const std::string& d) { return d == "float32" ? 6 : d == "int64" ? 4 : -1; }

std::vector<int32_t> range(const std::vector<int32_t>& v, uint32_t begin, uint32_t count) {
    return {v.begin() + begin, v.begin() + begin + count};
}

}  // namespace

class TestExecutionPlan : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void slotsSourcesAndReleases() {
        // x (graph input) and p_w (a weight) feed:
        //   a = add(x, p_w)            outputs a
        //   s = split(a)               outputs s_0, s_1 (s_1 never read)
        //   g = getitem(s_0, s_1) [0]  outputs g
        //   m = mul(g, g, p_w)         outputs m   (g read twice)
        //   old = neg(a)               no producer fields: found by name
        auto g = graphOf(
            json::array({meta("x", {2})}), json::array({meta("m", {2}), meta("old", {2})}),
            json::array(
                {node("a", "aten.add.Tensor", json::array({meta("x", {2}, "float32", "x"), meta("p_w", {2})}),
                      json::array({meta("a", {2})})),
                 node("s", "aten.split.Tensor", json::array({meta("a", {2}, "float32", "a")}),
                      json::array({meta("s_0", {1}), meta("s_1", {1}, "int64")})),
                 node("g", "<built-in function getitem>",
                      json::array({meta("s_0", {1}, "float32", "s", 0), meta("s_1", {1}, "float32", "s", 1)}),
                      json::array({meta("g", {-1})}), json{{"index", 0}}),
                 node("m", "aten.mul.Tensor",
                      json::array({meta("g", {1}, "float32", "g"), meta("g", {1}, "float32", "g"), meta("p_w", {2})}),
                      json::array({meta("m", {2})})),
                 node("old", "aten.neg.default", json::array({meta("a", {2})}),
                      json::array({meta("old", {2}, "bfloat16")}))}),
            json::array({json{{"name", "p_w"}, {"shape", {2}}, {"dtype", "float32"}}}));
        ir::GraphIndex index(g);
        ExecutionPlan plan = buildExecutionPlan(g, index, &fakeDtype);

        // Slots: 0 = x; 1 = p_w (the only registry name); node outputs from 2:
        // a=2, s_0=3, s_1=4, g=5, m=6, old=7.
        QCOMPARE(plan.registryBase, 1);
        QCOMPARE(plan.nodeOutputBase, 2);
        QCOMPARE(plan.slotCount, 8);
        QCOMPARE(plan.registryNames, std::vector<std::string>{"p_w"});
        QCOMPARE(plan.steps.size(), size_t{5});
        const std::vector<uint32_t> outputBegins{2, 3, 5, 6, 7};
        for (size_t i = 0; i < 5; ++i) QCOMPARE(plan.steps[i].outputBegin, outputBegins[i]);
        QCOMPARE(plan.steps[1].outputCount, 2u);

        auto inputsOf = [&](size_t i) {
            return range(plan.inputSlots, plan.steps[i].inputBegin, plan.steps[i].inputCount);
        };
        QCOMPARE(inputsOf(0), (std::vector<int32_t>{0, 1}));
        QCOMPARE(inputsOf(2), (std::vector<int32_t>{3, 4}));
        QCOMPARE(inputsOf(3), (std::vector<int32_t>{5, 5, 1}));
        QCOMPARE(inputsOf(4), (std::vector<int32_t>{2}));  // by name: a's output

        // Last readers: x by a (0); p_w by m (3); a by old (4); s_0, s_1 by g (2);
        // g by m (3); m and old by nobody.
        QCOMPARE(plan.lastUse, (std::vector<int32_t>{0, 3, 4, 2, 2, 3, -1, -1}));
        QCOMPARE(plan.producer, (std::vector<int32_t>{-1, -1, 0, 1, 1, 2, 3, 4}));

        // Releases: a frees nothing (x is an input, a is read later); s frees
        // nothing (its outputs are read by g); g frees s_0 and s_1; m frees g
        // once although it reads it twice, and its own unread output m; old
        // frees a and its own output.
        auto releasesOf = [&](size_t i) {
            return range(plan.releaseSlots, plan.steps[i].releaseBegin, plan.steps[i].releaseCount);
        };
        QCOMPARE(releasesOf(0), std::vector<int32_t>{});
        QCOMPARE(releasesOf(1), std::vector<int32_t>{});
        QCOMPARE(releasesOf(2), (std::vector<int32_t>{3, 4}));
        QCOMPARE(releasesOf(3), (std::vector<int32_t>{5, 6}));
        QCOMPARE(releasesOf(4), (std::vector<int32_t>{2, 7}));

        QCOMPARE(plan.steps[0].getitemInput, ExecutionPlan::kNotGetitem);
        QCOMPARE(plan.steps[2].getitemInput, 0);

        // Output metas: a [2] float32; s_1 [1] int64; g has a dynamic dim
        // (unknown shape); old's bfloat16 has no code in fakeDtype.
        const auto& a = plan.checks[0];
        QCOMPARE(a.rank, int16_t{1});
        QCOMPARE(plan.dims[a.dimsBegin], int64_t{2});
        QCOMPARE(a.dtype, int8_t{6});
        QCOMPARE(plan.checks[2].dtype, int8_t{4});
        QCOMPARE(plan.checks[3].rank, int16_t{-1});
        QCOMPARE(plan.checks[5].dtype, int8_t{-1});

        QCOMPARE(plan.slotOfTensor(index, "s_1"), 4);
        QCOMPARE(plan.slotOfTensor(index, "x"), 0);
        QCOMPARE(plan.slotOfTensor(index, "p_w"), -1);
    }

    void outputIndexPastTheListedOutputsGetsASlot() {
        // The IR lists one output of max_pool2d_with_indices but a getitem
        // reads output 1: the producer gets two slots.
        auto g = graphOf(json::array({meta("x", {1, 1, 2, 2})}), json::array({meta("i", {1, 1, 1, 1}, "int64")}),
                         json::array({node("mp", "aten.max_pool2d_with_indices.default",
                                           json::array({meta("x", {1, 1, 2, 2}, "float32", "x")}),
                                           json::array({meta("mp_0", {1, 1, 1, 1})}), json{{"kernel_size", 2}}),
                                      node("i", "<built-in function getitem>",
                                           json::array({meta("mp_1", {1, 1, 1, 1}, "int64", "mp", 1)}),
                                           json::array({meta("i", {1, 1, 1, 1}, "int64")}), json{{"index", 0}})}));
        ir::GraphIndex index(g);
        ExecutionPlan plan = buildExecutionPlan(g, index, &fakeDtype);
        QCOMPARE(plan.steps[0].outputCount, 2u);
        QCOMPARE(plan.steps[0].listedOutputs, 1u);
        // x=0; mp outputs 1, 2; i=3. The getitem reads slot 2.
        QCOMPARE(plan.inputSlots[plan.steps[1].inputBegin], 2);
        // mp_0 (slot 1) is read by nobody: mp frees it at once.
        QCOMPARE(range(plan.releaseSlots, plan.steps[0].releaseBegin, plan.steps[0].releaseCount),
                 std::vector<int32_t>{1});
    }

    void brokenGetitemsAreCodedForTheRun() {
        auto g = graphOf(
            json::array({meta("x", {2})}), json::array(),
            json::array(
                {node("noindex", "<built-in function getitem>", json::array({meta("x", {2}, "float32", "x")}),
                      json::array({meta("n", {2})}), json{{"index", "zero"}}),
                 node("noinputs", "<built-in function getitem>", json::array(), json::array({meta("e", {2})}),
                      json{{"index", 0}}),
                 node("outofrange", "<built-in function getitem>", json::array({meta("x", {2}, "float32", "x")}),
                      json::array({meta("o", {2})}), json{{"index", 5}})}));
        ir::GraphIndex index(g);
        ExecutionPlan plan = buildExecutionPlan(g, index, &fakeDtype);
        QCOMPARE(plan.steps[0].getitemInput, ExecutionPlan::kBadGetitem);
        QCOMPARE(plan.steps[1].getitemInput, ExecutionPlan::kEmptyGetitem);
        QCOMPARE(plan.steps[2].getitemInput, 0);  // like torch_ir: an index past the inputs takes the first
    }

    void farProducerIndexFallsBackToTheName_data() {
        QTest::addColumn<qint64>("index");
        QTest::newRow("past the 8 spare outputs") << qint64{100};
        QTest::newRow("a billion") << qint64{1000000000};
    }

    void farProducerIndexFallsBackToTheName() {
        // Output `index` of a one-output node is a broken file: the input is
        // found by its name, and the producer gets no extra slots.
        QFETCH(qint64, index);
        auto g =
            graphOf(json::array({meta("x", {2})}), json::array({meta("b", {2})}),
                    json::array({node("a", "aten.neg.default", json::array({meta("x", {2}, "float32", "x")}),
                                      json::array({meta("a", {2})})),
                                 node("b", "aten.neg.default", json::array({meta("a", {2}, "float32", "a", index)}),
                                      json::array({meta("b", {2})}))}));
        ir::GraphIndex graphIndex(g);
        ExecutionPlan plan = buildExecutionPlan(g, graphIndex, &fakeDtype);
        QCOMPARE(plan.slotCount, 3);                             // x, a, b
        QCOMPARE(plan.inputSlots[plan.steps[1].inputBegin], 1);  // a, by its name
    }

    void aNodeWithoutOutputsKeepsItsResult() {
        auto g = graphOf(
            json::array({meta("x", {2})}), json::array(),
            json::array({node("p", "aten.neg.default", json::array({meta("x", {2}, "float32", "x")}), json::array())}));
        ir::GraphIndex index(g);
        ExecutionPlan plan = buildExecutionPlan(g, index, &fakeDtype);
        QCOMPARE(plan.steps[0].outputCount, 1u);
        QCOMPARE(plan.steps[0].listedOutputs, 0u);
        QCOMPARE(plan.slotCount, 2);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestExecutionPlan)
#include "test_execution_plan.moc"
