// The debugger facade the GUI panels read: weights/constants/inputs tables,
// missing values with their fix, typed constants (parse + override order),
// stepping with breakpoints and failures, per-tensor summary / lazy blocks /
// histogram / heatmap, comparison with references and the first divergent
// node, overlays and export. Expected values come from the PyTorch fixtures
// (tests/data/make_ir_fixtures.py) or are checked by hand.
#include "exec_test_util.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "core/exec/debugger/debugger.h"
#include "core/exec/engine/session.h"
#include "core/io/tensor_file.h"
#include "core/ir/json_io.h"

#include <QtTest/QtTest>
#include "test_support.h"

using namespace irscope;
using namespace irscope::exec;

using irscope::exec::test::kUlps;
using irscope::test::irPath;

namespace {

const WeightRow* rowOf(const std::vector<WeightRow>& rows, const std::string& original) {
    for (const auto& r : rows)
        if (r.originalName == original) return &r;
    return nullptr;
}

int64_t nodeIndex(const ir::Graph& g, const std::string& name) {
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].name == name) return static_cast<int64_t>(i);
    return -1;
}

// x -> relu -> mm(relu, relu), which fails ([2, 3] @ [2, 3]); with `neg`, a
// node after it reads its result.
ir::Graph failingMmGraph(bool neg) {
    using namespace irscope::exec::test;
    json nodes = json::array();
    nodes.push_back(node("relu", "aten.relu.default", json::array({meta("x", {2, 3}, "float32", "x")}),
                         json::array({meta("relu", {2, 3})})));
    nodes.push_back(
        node("mm", "aten.mm.default",
             json::array({meta("relu", {2, 3}, "float32", "relu"), meta("relu", {2, 3}, "float32", "relu")}),
             json::array({meta("mm", {2, 2})})));
    if (neg)
        nodes.push_back(node("neg", "aten.neg.default", json::array({meta("mm", {2, 2}, "float32", "mm")}),
                             json::array({meta("neg", {2, 2})})));
    return graphOf(json::array({meta("x", {2, 3})}), json::array({meta(neg ? "neg" : "mm", {2, 2})}), nodes);
}

std::string tmpPath(const std::string& name) {
    return QDir::temp().filePath(QString::fromStdString("irscope_test_debugger_" + name)).toStdString();
}

}  // namespace

class TestDebugger : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Edit and continue: relu's output replaced by a file's value while the
    // run stands after it. The run comes back to the same place, upstream
    // values are untouched, the next linear computes from the new value
    // exactly as libtorch's own linear does on it, later runs keep the
    // override until it is cleared, and a value of the wrong shape is refused.
    void overrideAndContinue() {
        const ir::Graph g = ir::loadGraphFile(irPath("simple_mlp.json"));
        Debugger dbg(g);
        dbg.values().loadWeights(irPath("simple_mlp.weights.pt"));
        dbg.values().loadInputs(irPath("simple_mlp.inputs.pt"));
        QVERIFY(dbg.values().missing().empty());
        QVERIFY(!dbg.runToEnd().failed);
        at::Tensor linear0, out0;
        QVERIFY(dbg.session().value("linear", linear0) && dbg.session().value("linear_1", out0));
        linear0 = linear0.clone();
        out0 = out0.clone();

        dbg.reset();
        QVERIFY(!dbg.runTo(nodeIndex(g, "relu")).failed);
        QCOMPARE(dbg.cursor(), nodeIndex(g, "relu") + 1);
        const at::Tensor v = at::linspace(-1, 1, 8).reshape({1, 8});
        io::TensorMap file;
        file.insert("relu", v);
        const std::string path = tmpPath("override.pt");
        io::writeTensorFile(file, path);
        const RunStatus st = dbg.overrides().overrideFromFile("relu", path);
        QVERIFY2(!st.failed, st.message.c_str());
        QVERIFY2(st.message.find("overridden from") != std::string::npos, st.message.c_str());
        QCOMPARE(dbg.cursor(), nodeIndex(g, "relu") + 1);  // back where it was
        at::Tensor relu;
        QVERIFY(dbg.session().value("relu", relu));
        QVERIFY(at::equal(relu, v));
        QVERIFY(!dbg.runToEnd().failed);
        at::Tensor linear, out;
        QVERIFY(dbg.session().value("linear", linear) && dbg.session().value("linear_1", out));
        QVERIFY(at::equal(linear, linear0));  // upstream untouched
        const io::TensorMap w = io::readTensorFile(irPath("simple_mlp.weights.pt"));
        const at::Tensor want = at::linear(v, *w.find("linear_1.weight"), *w.find("linear_1.bias"));
        QVERIFY(at::equal(out, want));
        QVERIFY(!at::equal(out, out0));
        QCOMPARE(dbg.overrides().overriddenTensors(), std::vector<std::string>{"relu"});
        // A later run keeps it.
        dbg.reset();
        QVERIFY(!dbg.runToEnd().failed);
        QVERIFY(dbg.session().value("linear_1", out) && at::equal(out, want));
        // Typed, of the wrong shape: refused, nothing changes.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dbg.overrides().overrideFromText("relu", "[1, 2, 3]"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 dbg.overrides().overrideFromText("x", "[[1]]"));  // a graph input
        // Typed, right: the node after sees it.
        QVERIFY(!dbg.overrides().overrideFromText("relu", "[[0, 0, 0, 0, 0, 0, 0, 0]]").failed);
        QVERIFY(dbg.session().value("linear_1", out));
        QVERIFY(at::equal(out, w.find("linear_1.bias")->reshape({1, 2})));
        // Cleared: the node's own result again.
        QVERIFY(!dbg.overrides().clearOverride("relu").failed);
        QVERIFY(dbg.overrides().overriddenTensors().empty());
        QVERIFY(dbg.session().value("linear_1", out) && at::equal(out, out0));
        std::remove(path.c_str());
    }

    void parsesNestedLists() {
        auto p = parseNestedList("[1, 0, 1, 0]");
        QCOMPARE(p.shape, (std::vector<int64_t>{4}));
        QCOMPARE(p.values, (std::vector<double>{1, 0, 1, 0}));
        QVERIFY(p.allIntegers);
        p = parseNestedList(" [[1.5, 2], [3, -4e-1],] ");
        QCOMPARE(p.shape, (std::vector<int64_t>{2, 2}));
        QCOMPARE(p.values[3], -0.4);
        QVERIFY(!p.allIntegers);
        p = parseNestedList("2.5");
        QVERIFY(p.shape.empty());
        QCOMPARE(p.values.size(), size_t(1));
        p = parseNestedList("[true, false, nan, -inf, inf]");
        QCOMPARE(p.values[0], 1.0);
        QVERIFY(std::isnan(p.values[2]));
        QVERIFY(std::isinf(p.values[3]) && p.values[3] < 0);
        p = parseNestedList("[]");
        QCOMPARE(p.shape, (std::vector<int64_t>{0}));
        p = parseNestedList("[9007199254740993]");
        QCOMPARE(p.integers[0], int64_t(9007199254740993));
        for (const char* bad : {"[1, [2]]", "[[1, 2], [3]]", "[1, 2", "[1 2]", "[1, x]", "[1],", ""}) {
            bool threw = false;
            try {
                parseNestedList(bad);
            } catch (const std::invalid_argument& e) {
                threw = std::string(e.what()).find("at character") != std::string::npos;
            }
            QVERIFY2(threw, bad);
        }
    }

    // The meta-device IR of MaskedLinear: the state_dict binds p_, c_mask is
    // missing and flagged with its fix; typing [1, 0, 1, 0] float32 fixes it
    // and the output matches PyTorch's.
    void metaMaskedLinearNeedsTypedConstant() {
        ir::Graph g = ir::loadGraphFile(irPath("masked_linear.meta.json"));
        Debugger dbg(g);
        dbg.values().loadWeights(irPath("masked_linear.weights.pt"));
        dbg.values().loadInputs(irPath("masked_linear.inputs.pt"));
        dbg.values().loadExpected(irPath("masked_linear.expected.pt"));
        auto rows = dbg.values().weightRows();
        const WeightRow* w = rowOf(rows, "linear.weight");
        QVERIFY(w);
        QCOMPARE(w->status, WeightStatus::Loaded);
        QCOMPARE(w->kind, 'p');
        QCOMPARE(w->placeholder, std::string("p_linear_weight"));
        QCOMPARE(w->loadedShape, (std::vector<int64_t>{4, 4}));
        QVERIFY(w->source.find("masked_linear.weights.pt") != std::string::npos);
        const WeightRow* mask = rowOf(rows, "mask");
        QVERIFY(mask);
        // Rows carry their natural-order ranks (the Weights dock sorts on them).
        const WeightRow* bias = rowOf(rows, "linear.bias");
        QVERIFY(bias);
        QVERIFY(bias->originalRank < w->originalRank && w->originalRank < mask->originalRank);
        QVERIFY(mask->placeholderRank < bias->placeholderRank && bias->placeholderRank < w->placeholderRank);
        QCOMPARE(mask->status, WeightStatus::Missing);
        QCOMPARE(mask->kind, 'c');
        QVERIFY(mask->constantLike);
        QVERIFY(mask->used);

        auto missing = dbg.values().missing();
        QCOMPARE(missing.size(), size_t(1));
        QCOMPARE(missing[0].value.name, std::string("c_mask"));
        QCOMPARE(missing[0].remedy, Remedy::EnterConstant);  // worded "... in the Constants dock" by the GUI
        const int64_t mul = nodeIndex(g, "mul");
        QVERIFY(dbg.nodeInfo(mul).needsMissing);
        QVERIFY(!dbg.nodeInfo(0).needsMissing);

        QCOMPARE(dbg.values().enterConstant("c_mask", "[1, 0, 1, 0]", "float32"), std::string());
        QVERIFY(dbg.values().missing().empty());
        QCOMPARE(rowOf(dbg.values().weightRows(), "mask")->status, WeightStatus::Entered);
        QVERIFY(!dbg.nodeInfo(mul).needsMissing);
        RunStatus s = dbg.runToEnd();
        QCOMPARE(s.reason, StopReason::Finished);
        QVERIFY(dbg.tensors().compare("mul").matched);
        QVERIFY(!dbg.checks().firstDivergence().found);

        // A wrong shape is accepted with a warning; clearing brings "missing" back.
        QVERIFY(dbg.values().enterConstant("mask", "[1, 0]", "float32").find("[4]") != std::string::npos);
        QCOMPARE(rowOf(dbg.values().weightRows(), "mask")->status, WeightStatus::ShapeMismatch);
        dbg.values().clearEnteredConstant("mask");
        QCOMPARE(dbg.values().missing().size(), size_t(1));
        bool threw = false;
        try {
            dbg.values().enterConstant("mask", "[1, 0, 1, 0]", "float33");
        } catch (const std::invalid_argument&) {
            threw = true;
        }
        QVERIFY(threw);
    }

    // Override order (docs/ir-format.md §5.1): IR constants < --constants file < typed.
    void withoutStateDictOnlyConstantsAreAlarms() {
        // Just opened, no state_dict yet: the parameters wait for one (no red marks),
        // while the lifted constant a state_dict can never supply is flagged at once.
        ir::Graph g = ir::loadGraphFile(irPath("masked_linear.meta.json"));
        Debugger dbg(g);
        auto missing = dbg.values().missing();
        QCOMPARE(missing.size(), size_t(3));  // p_linear_weight, p_linear_bias, c_mask
        for (const auto& m : missing) QCOMPARE(m.awaitsStateDict, m.value.kind == "parameter");
        const int64_t linear = nodeIndex(g, "linear"), mul = nodeIndex(g, "mul");
        QVERIFY(!dbg.nodeInfo(linear).needsMissing);  // only parameters are missing there
        QVERIFY(dbg.nodeInfo(mul).needsMissing);      // reads c_mask
        // Once a state_dict is loaded, anything still absent from it is a real alarm.
        dbg.values().loadWeights(irPath("masked_linear.weights.pt"));
        missing = dbg.values().missing();
        QCOMPARE(missing.size(), size_t(1));
        QVERIFY(!missing[0].awaitsStateDict);
    }

    void constantOverrideOrder() {
        ir::Graph g = ir::loadGraphFile(irPath("masked_linear.json"));  // has constants: mask
        Debugger dbg(g);
        dbg.values().loadWeights(irPath("masked_linear.weights.pt"));
        QCOMPARE(rowOf(dbg.values().weightRows(), "mask")->status, WeightStatus::FromIr);
        dbg.values().loadConstants(irPath("masked_linear.constants.pt"));
        QCOMPARE(rowOf(dbg.values().weightRows(), "mask")->status, WeightStatus::FromConstants);
        dbg.values().enterConstant("mask", "[0, 0, 0, 2]", "float32");
        QCOMPARE(rowOf(dbg.values().weightRows(), "mask")->status, WeightStatus::Entered);
        auto b = dbg.tensors().block("c_mask", {}, 0, 0, 4, 1);
        QCOMPARE(b, (std::vector<double>{0, 0, 0, 2}));

        // Saving writes the user constants (file + typed) by original name.
        const std::string out = tmpPath("constants.safetensors");
        dbg.values().saveConstants(out);
        io::TensorMap back = io::readTensorFile(out);
        QVERIFY(back.find("mask"));
        QVERIFY(at::equal(*back.find("mask"), at::tensor({0.f, 0.f, 0.f, 2.f})));
        std::remove(out.c_str());
    }

    // llama_block's meta form: non-persistent buffers (b_) and c_positions
    // are constant-like; the constants file supplies them.
    void llamaMetaConstants() {
        ir::Graph g = ir::loadGraphFile(irPath("llama_block.meta.json"));
        Debugger dbg(g);
        // Before a state_dict is loaded nothing says whether a buffer is persistent.
        for (const auto& m : dbg.values().missing())
            if (m.value.name == "b_rope_cos") QVERIFY(m.remedy != Remedy::EnterNonPersistentBuffer);
        dbg.values().loadWeights(irPath("llama_block.weights.pt"));
        auto rows = dbg.values().weightRows();
        QVERIFY(rowOf(rows, "rope_cos")->constantLike);
        QCOMPARE(rowOf(rows, "rope_cos")->status, WeightStatus::Missing);
        QVERIFY(!rowOf(rows, "qkv.weight")->constantLike);
        QCOMPARE(dbg.values().missing().size(), size_t(3));
        bool bufferFix = false;
        for (const auto& m : dbg.values().missing())
            if (m.value.name == "b_rope_cos") bufferFix = m.remedy == Remedy::EnterNonPersistentBuffer;
        QVERIFY(bufferFix);
        dbg.values().loadConstants(irPath("llama_block.constants.pt"));
        QVERIFY(dbg.values().missing().empty());
        QCOMPARE(rowOf(dbg.values().weightRows(), "rope_cos")->status, WeightStatus::FromConstants);
        dbg.values().loadInputs(irPath("llama_block.inputs.pt"));
        dbg.values().loadExpected(irPath("llama_block.expected.pt"));
        QCOMPARE(dbg.runToEnd().reason, StopReason::Finished);
        for (const auto& o : g.graphOutputs) {
            auto d = dbg.tensors().compare(o.name);
            QVERIFY2(d.maxAbsDiff < 1e-4, o.name.c_str());
        }
    }

    void unusedFileEntriesAreListed() {
        ir::Graph g = ir::loadGraphFile(irPath("simple_mlp.json"));
        Debugger dbg(g);
        dbg.values().loadWeights(irPath("masked_linear.weights.pt"));  // the wrong model's state_dict
        auto rows = dbg.values().weightRows();
        int unused = 0, missing = 0;
        for (const auto& r : rows) {
            unused += r.status == WeightStatus::UnusedInFile;
            missing += r.status == WeightStatus::Missing;
        }
        QVERIFY(unused >= 1 || missing >= 1);
        QVERIFY(!dbg.values().missing().empty());
    }

    void steppingBreakpointsAndNodeInfo() {
        ir::Graph g = ir::loadGraphFile(irPath("simple_mlp.json"));
        Debugger dbg(g);
        dbg.values().loadWeights(irPath("simple_mlp.weights.pt"));
        dbg.values().loadInputs(irPath("simple_mlp.inputs.pt"));
        const int64_t n = dbg.nodeCount();
        QVERIFY(n >= 3);
        QVERIFY(dbg.nodeInfo(0).current);
        RunStatus s = dbg.step();
        QCOMPARE(s.reason, StopReason::Stepped);
        QCOMPARE(s.lastNode, int64_t(0));
        QCOMPARE(dbg.cursor(), int64_t(1));
        QCOMPARE(dbg.nodesDone(), int64_t(1));
        NodeInfo i0 = dbg.nodeInfo(0);
        QCOMPARE(i0.state, NodeState::Done);
        QVERIFY(i0.outputBytes > 0);
        QVERIFY(i0.seconds >= 0);
        QVERIFY(dbg.nodeInfo(1).current);
        dbg.setBreakpoint(n - 1, true);
        s = dbg.runToEnd();
        QCOMPARE(s.reason, StopReason::Breakpoint);
        QCOMPARE(dbg.cursor(), n - 1);
        QVERIFY(dbg.nodeInfo(n - 1).breakpoint);
        QVERIFY(s.message.find(g.nodes[n - 1].name) != std::string::npos);
        s = dbg.runToEnd();  // a run starting at a breakpoint passes it
        QCOMPARE(s.reason, StopReason::Finished);
        QVERIFY(dbg.finished());
        // Overlays: every node ran, so time and max |x| are known.
        auto t = dbg.checks().overlay(OverlayKind::Time);
        auto mx = dbg.checks().overlay(OverlayKind::MaxAbs);
        auto bad = dbg.checks().overlay(OverlayKind::NanInf);
        for (int64_t i = 0; i < n; ++i) {
            QVERIFY(!std::isnan(t[i]));
            QVERIFY(!std::isnan(mx[i]));
            QCOMPARE(bad[i], 0.0);
        }
        // max |x| equals the tensor's.
        at::Tensor v;
        QVERIFY(dbg.session().value(g.nodes[0].outputs[0].name, v));
        QCOMPARE(mx[0], v.abs().max().item<double>());
        dbg.reset();
        QCOMPARE(dbg.cursor(), int64_t(0));
        QVERIFY(std::isnan(dbg.checks().overlay(OverlayKind::MaxAbs)[0]));
        s = dbg.runTo(1);
        QCOMPARE(s.reason, StopReason::ReachedTarget);
        QCOMPARE(dbg.cursor(), int64_t(2));
    }

    // The node that fails is the one a user most wants to step past: its
    // output overridden, the run goes on from the given value.
    void overrideStepsPastAFailingNode() {
        const ir::Graph g = failingMmGraph(true);
        Debugger dbg(g);
        dbg.values().setAllInputSources(InputSource::Ones);
        QVERIFY(dbg.runToEnd().failed);  // [2, 3] @ [2, 3]
        dbg.reset();
        RunStatus st = dbg.overrides().overrideFromText("mm", "[[1, 2], [3, 4]]");
        QVERIFY2(!st.failed, st.message.c_str());
        st = dbg.runToEnd();
        QVERIFY2(!st.failed, st.message.c_str());
        at::Tensor out;
        QVERIFY(dbg.session().value("neg", out));
        QVERIFY(at::equal(out, -at::tensor({1.f, 2.f, 3.f, 4.f}).reshape({2, 2})));
    }

    void failedNodeKeepsEarlierValues() {
        const ir::Graph g = failingMmGraph(false);
        Debugger dbg(g);
        dbg.values().setAllInputSources(InputSource::Ones);
        QVERIFY(dbg.values().missing().empty());
        RunStatus s = dbg.runToEnd();
        QVERIFY(s.failed);
        QCOMPARE(s.reason, StopReason::Failed);
        QVERIFY(s.message.find("'mm'") != std::string::npos);
        NodeInfo info = dbg.nodeInfo(1);
        QCOMPARE(info.state, NodeState::Failed);
        QVERIFY(!info.error.empty());
        QVERIFY(!info.current);
        auto sum = dbg.tensors().summary("relu");
        QVERIFY(sum);
        QCOMPARE(sum->min, 1.0);
        // Stepping again stays failed until reset.
        QVERIFY(dbg.step().failed);
        dbg.reset();
        QCOMPARE(dbg.nodeInfo(1).state, NodeState::Pending);
    }

    // Same random inputs as `irscope run --random-inputs SEED`.
    void randomInputsAreTheCliOnes() {
        ir::Graph g = ir::loadGraphFile(irPath("simple_mlp.json"));
        Debugger dbg(g);
        dbg.values().setRandomSeed(7);
        at::manual_seed(7);
        at::Tensor expect = at::randn(*ir::staticSizes(g.graphInputs[0].shape));
        at::Tensor v;
        QVERIFY(dbg.session().value(g.graphInputs[0].name, v));
        QVERIFY(at::equal(v, expect));
        auto rows = dbg.values().inputRows();
        QCOMPARE(rows[0].source, InputSource::Random);
        QCOMPARE(rows[0].loadedShape, *ir::staticSizes(g.graphInputs[0].shape));
        dbg.values().setInputSource(g.graphInputs[0].name, InputSource::Zeros);
        QCOMPARE(dbg.tensors().summary(g.graphInputs[0].name)->zeros, v.numel());
        dbg.values().setInputSource(g.graphInputs[0].name, InputSource::File);  // no file: missing
        QVERIFY(!dbg.values().inputRows()[0].problem.empty());
        bool inputMissing = false;
        for (const auto& m : dbg.values().missing()) inputMissing = inputMissing || m.value.kind == "input";
        QVERIFY(inputMissing);
    }

    void tensorQueries() {
        ir::Graph g = ir::loadGraphFile(irPath("cnn_bn.json"));
        Debugger dbg(g);
        dbg.values().loadWeights(irPath("cnn_bn.weights.pt"));
        dbg.values().loadInputs(irPath("cnn_bn.inputs.pt"));
        QCOMPARE(dbg.runToEnd().reason, StopReason::Finished);
        // The first node: a 4-D activation.
        const std::string name = g.nodes[0].outputs[0].name;
        at::Tensor t;
        QVERIFY(dbg.session().value(name, t));
        QCOMPARE(t.dim(), int64_t(4));
        auto geo = dbg.tensors().geometry(name);
        QVERIFY(geo);
        QCOMPARE(geo->lead, (std::vector<int64_t>{t.size(0), t.size(1)}));
        QCOMPARE(geo->rows, t.size(2));
        QCOMPARE(geo->cols, t.size(3));
        // A block of channel 1: exactly the tensor's values.
        const std::vector<int64_t> lead{0, 1};
        auto b = dbg.tensors().block(name, lead, 1, 2, 3, 4);
        QCOMPARE(b.size(), size_t(12));
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c) QCOMPARE(b[r * 4 + c], t[0][1][1 + r][2 + c].item<double>());
        // Clamped at the edges.
        QCOMPARE(dbg.tensors().block(name, lead, t.size(2) - 1, 0, 10, 1).size(), size_t(1));
        QVERIFY(dbg.tensors().block(name, lead, t.size(2), 0, 10, 1).empty());
        // Summary agrees with the session's; histogram counts every finite element.
        auto s = dbg.tensors().summary(name);
        QCOMPARE(s->numel, t.numel());
        QCOMPARE(s->max, t.max().item<double>());
        auto h = dbg.tensors().histogram(name, 20);
        QVERIFY(h);
        int64_t total = 0;
        for (auto c : h->counts) total += c;
        QCOMPARE(total, t.numel());
        QCOMPARE(h->lo, t.min().item<double>());
        // Heatmap of channel 1 (and subsampled).
        auto hm = dbg.tensors().heatmap(name, lead, 512);
        QCOMPARE(hm->rows, t.size(2));
        QCOMPARE(hm->stride, int64_t(1));
        QCOMPARE(double(hm->values[0]), double(t[0][1][0][0].item<float>()));
        QCOMPARE(hm->max, double(t[0][1].max().item<float>()));
        auto small = dbg.tensors().heatmap(name, lead, 2);
        QVERIFY(small->rows <= 2 && small->cols <= 2);
        QVERIFY(small->stride > 1);
        QVERIFY(!dbg.tensors().describe(name).empty());
        // Export round trips, .npy and .pt.
        for (const char* ext : {".npy", ".pt"}) {
            const std::string out = tmpPath(std::string("export") + ext);
            dbg.tensors().exportTensor(name, out);
            io::TensorMap back = io::readTensorFile(out);
            QCOMPARE(back.size(), size_t(1));
            QVERIFY(at::equal(back.entries()[0].tensor, t));
            std::remove(out.c_str());
        }
    }

    void nanAndInfCounted() {
        ir::Graph g = ir::loadGraphFile(irPath("simple_mlp.json"));
        Debugger dbg(g);
        QVERIFY(!dbg.values()
                     .enterConstant("probe", "[[1, nan], [inf, -inf], [0, 3]]", "float32")
                     .empty());  // not in the IR: warns
        auto s = dbg.tensors().summary("probe");
        QVERIFY(s);
        QCOMPARE(s->nans, int64_t(1));
        QCOMPARE(s->posInfs, int64_t(1));
        QCOMPARE(s->negInfs, int64_t(1));
        QCOMPARE(s->zeros, int64_t(1));
        QCOMPARE(s->max, 3.0);
        auto h = dbg.tensors().histogram("probe", 3);
        QCOMPARE(h->finite, int64_t(3));
        QCOMPARE(h->nans, int64_t(1));
        QCOMPARE(h->posInfs, int64_t(1));
        QCOMPARE(h->negInfs, int64_t(1));
        QCOMPARE(h->counts, (std::vector<int64_t>{1, 1, 1}));  // [0, 1) [1, 2) [2, 3]
        auto b = dbg.tensors().block("probe", {}, 0, 0, 3, 2);
        QVERIFY(std::isnan(b[1]));
    }

    // The planted error in llama_block.intermediates_bad.pt is found.
    void firstDivergenceFindsPlantedNode() {
        ir::Graph g = ir::loadGraphFile(irPath("llama_block.json"));
        Debugger dbg(g, RetentionPolicy::KeepAll);
        dbg.values().loadWeights(irPath("llama_block.weights.pt"));
        dbg.values().loadInputs(irPath("llama_block.inputs.pt"));
        dbg.values().loadReferenceIntermediates(irPath("llama_block.intermediates_bad.pt"));
        dbg.checks().setTolerance(kUlps);
        QVERIFY(!dbg.checks().firstDivergence().found);  // nothing computed yet
        QCOMPARE(dbg.runToEnd().reason, StopReason::Finished);
        DivergenceInfo d = dbg.checks().firstDivergence();
        QVERIFY(d.found);
        QCOMPARE(d.nodeName, std::string("mul_4"));
        QCOMPARE(d.tensor, std::string("mul_4"));
        QVERIFY(d.diff.maxAbsDiff > 0);
        QVERIFY(d.message.find("mul_4") != std::string::npos);
        QVERIFY(!dbg.tensors().compare("mul_4").matched);
        QVERIFY(dbg.tensors().hasReference("mul_4"));
        auto ov = dbg.checks().overlay(OverlayKind::Difference);
        QVERIFY(ov[d.node] > 0);
        // The difference slice is actual - reference.
        auto geo = dbg.tensors().geometry("mul_4", ValueSide::Difference);
        QVERIFY(geo);
        auto diff = dbg.tensors().block(
            "mul_4", geo->lead.empty() ? std::vector<int64_t>{} : std::vector<int64_t>(geo->lead.size(), 0), 0, 0,
            geo->rows, geo->cols, ValueSide::Difference);
        double mx = 0;
        for (double v : diff) mx = std::max(mx, std::abs(v));
        QVERIFY(mx > 0);
        // The good reference matches everywhere.
        dbg.values().loadReferenceIntermediates(irPath("llama_block.intermediates.pt"));
        dbg.checks().setTolerance({1e-4, 1e-5});
        DivergenceInfo ok = dbg.checks().firstDivergence();
        QVERIFY2(!ok.found, ok.message.c_str());
        QVERIFY(ok.compared > 10);
    }

    // The GUI's query thread: const queries from another thread while runs go
    // on (and reset) on this one neither crash nor block the run; afterwards a
    // Difference block, cut before subtracting, equals value - reference.
    void queriesDuringRun() {
        ir::Graph g = ir::loadGraphFile(irPath("llama_block.json"));
        Debugger dbg(g, RetentionPolicy::KeepAll);
        dbg.values().loadWeights(irPath("llama_block.weights.pt"));
        dbg.values().loadInputs(irPath("llama_block.inputs.pt"));
        dbg.values().loadReferenceIntermediates(irPath("llama_block.intermediates.pt"));
        std::atomic<bool> done{false};
        std::atomic<int64_t> answered{0};
        std::thread reader([&] {
            while (!done) {
                for (const auto& n : g.nodes)
                    for (const auto& o : n.outputs) {
                        auto geo = dbg.tensors().geometry(o.name);
                        if (!geo) continue;
                        const std::vector<int64_t> lead(geo->lead.size(), 0);
                        dbg.tensors().summary(o.name);
                        dbg.tensors().histogram(o.name, 16);
                        dbg.tensors().heatmap(o.name, lead, 32, ValueSide::Difference);
                        dbg.tensors().block(o.name, lead, 0, 0, 8, 8);
                        dbg.tensors().block(o.name, lead, 1, 1, 8, 8, ValueSide::Difference);
                        dbg.tensors().compare(o.name);
                        ++answered;
                    }
            }
        });
        for (int rep = 0; rep < 3; ++rep) {
            dbg.reset();
            QCOMPARE(dbg.runToEnd().reason, StopReason::Finished);
        }
        // On a busy machine the three runs can end before the reader is scheduled:
        // the last run's values stay, so give it (bounded) time to answer from them.
        for (int i = 0; i < 5000 && answered == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        done = true;
        reader.join();
        QVERIFY(answered > 0);
        auto geo = dbg.tensors().geometry("mul_4", ValueSide::Difference);
        QVERIFY(geo);
        QCOMPARE(geo->dtype, std::string("float64"));
        const std::vector<int64_t> lead(geo->lead.size(), 0);
        const int64_t r0 = geo->rows / 2, c0 = geo->cols / 3;
        auto a = dbg.tensors().block("mul_4", lead, r0, c0, 3, 4);
        auto r = dbg.tensors().block("mul_4", lead, r0, c0, 3, 4, ValueSide::Reference);
        auto d = dbg.tensors().block("mul_4", lead, r0, c0, 3, 4, ValueSide::Difference);
        QCOMPARE(d.size(), a.size());
        QVERIFY(!d.empty());
        for (size_t i = 0; i < d.size(); ++i) QCOMPARE(d[i], a[i] - r[i]);
        auto h = dbg.tensors().heatmap("mul_4", lead, 512, ValueSide::Difference);
        QVERIFY(h);
        QCOMPARE(h->sliceRows, geo->rows);
        QCOMPARE(h->sliceCols, geo->cols);
    }

    void retentionAndBytes() {
        ir::Graph g = ir::loadGraphFile(irPath("simple_mlp.json"));
        Debugger dbg(g, RetentionPolicy::FreeAfterLastUse);
        dbg.values().loadWeights(irPath("simple_mlp.weights.pt"));
        dbg.runToEnd();
        const size_t freeBytes = dbg.bytesHeld();
        dbg.setRetention(RetentionPolicy::KeepAll);
        QCOMPARE(dbg.retention(), RetentionPolicy::KeepAll);
        dbg.reset();
        dbg.runToEnd();
        QVERIFY(dbg.bytesHeld() > freeBytes);
        QCOMPARE(formatBytes(1536), std::string("1.5 KiB"));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestDebugger)
#include "test_debugger.moc"
