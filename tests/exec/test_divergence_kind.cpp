// A first divergence told apart: a flipped decision (an op that decides, fed
// inputs that match the reference within tolerance), float noise (no farther
// from a float64 run than the reference), or a wrong value. The values here
// are chosen so that each verdict and each margin can be worked out by hand.
#include "exec_test_util.h"

#include "core/exec/reference/divergence_kind.h"
#include "core/exec/reference/reference_run.h"
#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/tensor_file.h"
#include "core/ir/json_io.h"
#include "test_support.h"

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

namespace {

ir::OpNode opNode(const std::string& name, const std::string& op, std::vector<std::string> inputs,
                  ir::AttrMap attrs = ir::AttrMap::object()) {
    ir::OpNode n;
    n.name = name;
    n.opType = op;
    for (const auto& i : inputs) {
        ir::TensorMeta m;
        m.name = i;
        n.inputs.push_back(m);
    }
    ir::TensorMeta out;
    out.name = name;
    n.outputs.push_back(out);
    n.attrs = std::move(attrs);
    return n;
}

// y = x * 3; z = y > 0.3, over one float32 element.
ir::Graph thresholdGraph() {
    json x = meta("x", {1});
    json y = meta("y", {1}, "float32");
    json z = meta("z", {1}, "bool");
    json nodes = json::array({node("y", "aten.mul.Scalar", json::array({meta("x", {1}, "float32", "x")}),
                                   json::array({y}), {{"other", 3.0}}),
                              node("z", "aten.gt.Scalar", json::array({meta("y", {1}, "float32", "y")}),
                                   json::array({z}), {{"other", 0.3}})});
    return graphOf(json::array({x}), json::array({z}), nodes);
}

}  // namespace

class TestDivergenceKind : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // x > 0 flips at an element 1e-7 from the threshold while x matches its
    // reference within float32's tolerance: a decision, margin 1e-7.
    void comparisonNearItsThresholdIsADecision() {
        const ir::OpNode gt = opNode("gt", "aten.gt.Scalar", {"x"}, {{"other", 0.0}});
        const at::Tensor x = at::tensor({1e-7f, 5.0f, -3.0f});
        const at::Tensor xRef = at::tensor({-1e-7f, 5.0f, -3.0f});
        const auto e = classifyDivergence(gt, 0, {x}, {xRef}, x.gt(0), xRef.gt(0), at::Tensor(), {});
        QVERIFY2(e.kind == DivergenceKind::Decision, e.words.c_str());
        QVERIFY2(std::abs(e.margin - 1e-7) < 1e-12, e.words.c_str());
        QCOMPARE(e.carrier, std::string("x"));
        QVERIFY2(std::abs(e.inputDifference - 2e-7) < 1e-12, e.words.c_str());
    }

    // argmax over a near-tie: [1.0, 1.0000001] against [1.0000001, 1.0]
    // picks the other index; the gap between the two candidates is 1e-7.
    void argmaxOverANearTieIsADecision() {
        const ir::OpNode argmax = opNode("argmax", "aten.argmax.default", {"x"}, {{"dim", 1}});
        const at::Tensor x = at::tensor({1.0f, 1.0000001f, 0.0f, 2.0f}).reshape({2, 2});
        const at::Tensor xRef = at::tensor({1.0000001f, 1.0f, 0.0f, 2.0f}).reshape({2, 2});
        const auto e = classifyDivergence(argmax, 0, {x}, {xRef}, x.argmax(1), xRef.argmax(1), at::Tensor(), {});
        QVERIFY2(e.kind == DivergenceKind::Decision, e.words.c_str());
        const double gap = static_cast<double>(1.0000001f) - 1.0;
        QVERIFY2(std::abs(e.margin - gap) < 1e-12, e.words.c_str());
    }

    // The same comparison with an input that differs beyond tolerance: the
    // input, not the decision, is what went wrong.
    void aDecisionOnAWrongInputIsNotNoise() {
        const ir::OpNode gt = opNode("gt", "aten.gt.Scalar", {"x"}, {{"other", 0.0}});
        const at::Tensor x = at::tensor({0.5f});
        const at::Tensor xRef = at::tensor({-0.5f});
        const auto e = classifyDivergence(gt, 0, {x}, {xRef}, x.gt(0), xRef.gt(0), at::Tensor(), {});
        QVERIFY2(e.kind == DivergenceKind::Value, e.words.c_str());
    }

    // 0.1f * 3 in float32 is 0.30000001192092896; in float64 (0.1f widened)
    // 0.30000000447034836. A reference at 0.300001 is farther from float64
    // than this run, and within float32's rounding of it: noise.
    void noiseAgainstAFloat64Run() {
        const ir::Graph g = thresholdGraph();
        io::TensorMap inputs;
        inputs.insert("x", at::tensor({0.1f}));
        const auto noise = explainDivergence(
            g, {}, {}, inputs, 0, 0,
            [&](const std::string& name) {
                return name == "y" ? at::tensor({0.300001f}) : name == "x" ? at::tensor({0.1f}) : at::Tensor();
            },
            Tolerance{0.0, 0.0});
        QVERIFY2(noise.kind == DivergenceKind::Noise, noise.words.c_str());
        const double fp64 = static_cast<double>(0.1f) * 3.0;
        QVERIFY2(std::abs(noise.irscopeVsFp64 - (0.30000001192092896 - fp64)) < 1e-15, noise.words.c_str());
    }

    // This run at 0.5 where float64 and the reference say 0.3: this run is
    // wrong. This run at 0.3 where the reference says 1.3: the reference is.
    void wrongValueHereOrInTheReference() {
        const ir::OpNode mul = opNode("y", "aten.mul.Scalar", {"x"}, {{"other", 3.0}});
        const at::Tensor x = at::tensor({0.1f});
        const at::Tensor fp64 = at::tensor({0.3}, at::kDouble);
        const auto here =
            classifyDivergence(mul, 0, {x}, {x}, at::tensor({0.5f}), at::tensor({0.3f}), fp64, Tolerance{});
        QVERIFY2(here.kind == DivergenceKind::Value && here.irscopeVsFp64 > here.referenceVsFp64, here.words.c_str());
        QVERIFY2(here.words.find("computes another value") != std::string::npos, here.words.c_str());
        const auto there =
            classifyDivergence(mul, 0, {x}, {x}, at::tensor({0.3f}), at::tensor({1.3f}), fp64, Tolerance{});
        QVERIFY2(there.kind == DivergenceKind::Value, there.words.c_str());
        QVERIFY2(there.words.find("a wrong value in the reference") != std::string::npos, there.words.c_str());
    }

    // sort's indices taken by a getitem: on a tie (two equal values) the
    // order is the sort's choice; judged as the sort, on the sort's input,
    // margin 0.
    void sortIndicesThroughAGetitemAreADecision() {
        json x = meta("x", {3});
        json sortOut = json::array({meta("sort_0", {3}), meta("sort_1", {3}, "int64")});
        json getitemIn =
            json::array({meta("sort_0", {3}, "float32", "sort", 0), meta("sort_1", {3}, "int64", "sort", 1)});
        json nodes = json::array(
            {node("sort", "aten.sort.default", json::array({meta("x", {3}, "float32", "x")}), sortOut,
                  {{"dim", -1}, {"descending", true}}),
             node("getitem", ir::kGetitemOp, getitemIn, json::array({meta("getitem", {3}, "int64")}), {{"index", 1}})});
        const ir::Graph g = graphOf(json::array({x}), json::array({meta("getitem", {3}, "int64")}), nodes);
        io::TensorMap inputs;
        inputs.insert("x", at::tensor({2.0f, 5.0f, 2.0f}));
        // This run's order of the tie [0, 2], the reference's the other way.
        at::Tensor mine = std::get<1>(at::tensor({2.0f, 5.0f, 2.0f}).sort(-1, true));
        const at::Tensor theirs = mine.clone();
        theirs[1] = mine[2].item<int64_t>();
        theirs[2] = mine[1].item<int64_t>();
        const auto e = explainDivergence(g, {}, {}, inputs, 1, 0,
                                         [&](const std::string& name) {
                                             if (name == "x") return at::tensor({2.0f, 5.0f, 2.0f});
                                             if (name == "getitem" || name == "sort_1") return theirs;
                                             return at::Tensor();
                                         },
                                         {});
        QVERIFY2(e.kind == DivergenceKind::Decision, e.words.c_str());
        QVERIFY2(e.margin == 0.0, e.words.c_str());
        QCOMPARE(e.carrier, std::string("x"));
    }

    // End to end: y = x * 3 is 0.3f in this run, exactly the threshold 0.3
    // compares as (float32), so z = y > 0.3 is false; the reference's y is
    // the next float up, within tolerance, and its z true: a decision on a
    // tie, margin 0, carried by y.
    void explainedFromARerunOfTheProgram() {
        const ir::Graph g = thresholdGraph();
        io::TensorMap inputs;
        inputs.insert("x", at::tensor({0.1f}));
        const float yRef = std::nextafter(0.3f, 1.0f);
        const auto e = explainDivergence(g, {}, {}, inputs, 1, 0,
                                         [&](const std::string& name) {
                                             if (name == "y") return at::tensor({yRef});
                                             if (name == "z") return at::ones({1}, at::kBool);
                                             return at::Tensor();
                                         },
                                         {});
        QVERIFY2(e.kind == DivergenceKind::Decision, e.words.c_str());
        QCOMPARE(e.carrier, std::string("y"));
        QVERIFY2(e.margin == 0.0, e.words.c_str());
        QVERIFY2(e.words.find("exactly on its threshold") != std::string::npos, e.words.c_str());
    }

    // A map whose body rounds through float16 returns float32 values on
    // float16's steps: one float16 step (2.4e-4 at 0.3) from float64 is the
    // body's rounding, noise. The same difference from an op that computes
    // in float32 throughout is a wrong value.
    void aSubgraphsHalfPrecisionIsNoise() {
        ir::OpNode map = opNode("map", "map_impl", {"xs"});
        auto body = std::make_shared<ir::Graph>();
        ir::OpNode half = opNode("to", "aten._to_copy.default", {"x"});
        half.outputs[0].dtype = "float16";
        body->nodes.push_back(half);
        map.subgraphs.push_back({"body_graph_0", body});
        const at::Tensor xs = at::tensor({0.3f});
        const at::Tensor fp64 = at::tensor({0.3}, at::kDouble);
        const at::Tensor reference = at::tensor({0.300048828125f});  // 0.3 in float16
        const at::Tensor actual = at::tensor({0.30029296875f});      // the next float16 up
        const auto e = classifyDivergence(map, 0, {xs}, {xs}, actual, reference, fp64, Tolerance{});
        QVERIFY2(e.kind == DivergenceKind::Noise, e.words.c_str());
        const ir::OpNode flat = opNode("map", "map_impl", {"xs"});
        const auto f = classifyDivergence(flat, 0, {xs}, {xs}, actual, reference, fp64, Tolerance{});
        QVERIFY2(f.kind == DivergenceKind::Value, f.words.c_str());
    }

    // PT2E's quantize takes float32 only: the float64 run computes it on its
    // inputs rounded to float32, as the program does, says so, and runs on
    // to the program's output in float64 (it stopped there before).
    void aFloat64RunGoesThroughFloat32OnlyOps() {
        const std::string base = irscope::test::dataPath("quantization/pt2e_static_mlp.pt2");
        const ir::Graph g = ir::loadGraphFile(base);
        const io::TensorMap weights = io::readTensorFile(base);
        io::ReadOptions options;
        io::selectInputsOf(base, options);
        const io::TensorMap inputs = io::readTensorFile(base, options);
        int64_t quantize = -1;
        for (size_t i = 0; i < g.nodes.size() && quantize < 0; ++i)
            if (g.nodes[i].opType.find("quantize_per_tensor") != std::string::npos &&
                g.nodes[i].opType.find("dequantize") == std::string::npos)
                quantize = static_cast<int64_t>(i);
        QVERIFY(quantize >= 0);
        ReferenceRun fp64(g, weights, {}, inputs, at::kDouble, RetentionPolicy::FreeAfterLastUse);
        const auto last = static_cast<int64_t>(g.nodes.size()) - 1;
        const at::Tensor out = fp64.referenceOf(last, 0, g.nodes.back().outputs.at(0).name);
        QVERIFY(out.defined());
        QCOMPARE(out.scalar_type(), at::kDouble);
        QVERIFY2(fp64.noteOf(quantize).find("float32") != std::string::npos, fp64.noteOf(quantize).c_str());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestDivergenceKind)
#include "test_divergence_kind.moc"
