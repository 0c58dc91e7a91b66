// Binding IR nodes to 1.13 schemas: attr conversion, scalars in Tensor slots,
// tensor lists with None masks, getitem, errors that name node/arg/value.
// Expected values are computed here with explicit ATen calls or by hand.
#include "exec_test_util.h"

#include "core/exec/engine/exec_error.h"
#include "core/exec/engine/session.h"

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

namespace {

// Runs a graph and returns output `name`; fails the test on a run error.
at::Tensor runAndGet(const ir::Graph& g, const io::TensorMap& inputs, const std::string& name,
                     std::vector<std::string>* diags = nullptr) {
    Session s(g);
    s.setInputs(inputs);
    RunResult r = s.runToEnd();
    if (r.error) qWarning("%s", r.error->message.c_str());
    at::Tensor t;
    s.value(name, t);
    if (diags)
        for (int64_t i = 0; i < s.nodeCount(); ++i)
            for (auto& d : s.diagnostics(i)) diags->push_back(d);
    return t;
}

}  // namespace

class TestOpBinding : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void bareIntExpandsToList() {
        // max_pool2d_with_indices(kernel_size=2) with a bare int; stride defaults to kernel.
        at::Tensor x = at::arange(16, at::kFloat).reshape({1, 1, 4, 4});
        auto g =
            graphOf(json::array({meta("x", {1, 1, 4, 4})}), json::array({meta("getitem", {1, 1, 2, 2})}),
                    json::array({node("mp", "aten.max_pool2d_with_indices.default",
                                      json::array({meta("x", {1, 1, 4, 4}, "float32", "x")}),
                                      json::array({meta("mp_0", {1, 1, 2, 2}), meta("mp_1", {1, 1, 2, 2}, "int64")}),
                                      json{{"kernel_size", 2}}),
                                 node("getitem", "<built-in function getitem>",
                                      json::array({meta("mp_0", {1, 1, 2, 2}, "float32", "mp", 0),
                                                   meta("mp_1", {1, 1, 2, 2}, "int64", "mp", 1)}),
                                      json::array({meta("getitem", {1, 1, 2, 2})}), json{{"index", 0}})}));
        std::vector<std::string> diags;
        at::Tensor y = runAndGet(g, mapOf({{"x", x}}), "getitem", &diags);
        // 2x2 max over a 4x4 arange: 5, 7, 13, 15.
        QVERIFY(close(y, at::tensor({5.f, 7.f, 13.f, 15.f}).reshape({1, 1, 2, 2})));
        QVERIFY(diags.empty());
    }

    void scalarInTensorSlotIsWrappedNumber() {
        // int64 tensor * 0.5 -> float32 (Python semantics), half + 1e-6 stays half.
        auto g = graphOf(json::array({meta("x", {3}, "int64"), meta("h", {2}, "float16")}),
                         json::array({meta("mul", {3}), meta("add", {2}, "float16")}),
                         json::array({node("mul", "aten.mul.Tensor", json::array({meta("x", {3}, "int64", "x")}),
                                           json::array({meta("mul", {3})}), json{{"other", 0.5}}),
                                      node("add", "aten.add.Tensor", json::array({meta("h", {2}, "float16", "h")}),
                                           json::array({meta("add", {2}, "float16")}), json{{"other", 1e-6}})}));
        Session s(g);
        s.setInputs(mapOf({{"x", at::tensor({1, 2, 3}, at::kLong)}, {"h", at::ones({2}, at::kHalf)}}));
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        at::Tensor m, a;
        QVERIFY(s.value("mul", m) && s.value("add", a));
        QCOMPARE(m.scalar_type(), at::kFloat);
        QVERIFY(close(m, at::tensor({0.5, 1.0, 1.5})));
        QCOMPARE(a.scalar_type(), at::kHalf);
        QVERIFY(s.diagnostics(0).empty() && s.diagnostics(1).empty());
    }

    void stringDtypesLayoutsDevices() {
        auto g = graphOf(
            json::array({meta("x", {2})}),
            json::array({meta("_to_copy", {2}, "float16"), meta("to", {2}, "int32"), meta("full", {2, 2})}),
            json::array({node("_to_copy", "aten._to_copy.default", json::array({meta("x", {2}, "float32", "x")}),
                              json::array({meta("_to_copy", {2}, "float16")}),
                              json{{"dtype", "torch.float16"},
                                   {"layout", "torch.strided"},
                                   {"device", "meta"},
                                   {"memory_format", "torch.preserve_format"}}),
                         node("to", "aten.to.dtype", json::array({meta("x", {2}, "float32", "x")}),
                              json::array({meta("to", {2}, "int32")}), json{{"dtype", "int32"}}),
                         node("full", "aten.full.default", json::array(), json::array({meta("full", {2, 2})}),
                              json{{"size", {2, 2}},
                                   {"fill_value", 1.5},
                                   {"dtype", "torch.float32"},
                                   {"device", "device(type='meta')"},  // repr(), as users' save code writes it
                                   {"pin_memory", false}})}));
        Session s(g);
        s.setInputs(mapOf({{"x", at::tensor({1.25f, -2.75f})}}));
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        at::Tensor a, b, c;
        s.value("_to_copy", a);
        s.value("to", b);
        s.value("full", c);
        QCOMPARE(a.scalar_type(), at::kHalf);
        QCOMPARE(b.scalar_type(), at::kInt);
        QCOMPARE(b[1].item<int>(), -2);  // truncation toward zero
        QVERIFY(close(c, at::tensor({1.5f, 1.5f, 1.5f, 1.5f}).reshape({2, 2})));
    }

    void infinityAttr() {
        // clamp(min=-inf, max=1.0): NaN/Infinity arrive as doubles from the loader.
        ir::Graph g = ir::parseGraph(R"({"model_name":"T","graph_inputs":[{"name":"x","shape":[3],"dtype":"float32"}],
          "graph_outputs":[{"name":"clamp","shape":[3],"dtype":"float32"}],"weights":[],"nodes":[
          {"name":"clamp","op_type":"aten.clamp.default","inputs":[{"name":"x","shape":[3],"dtype":"float32","producer_node":"x","producer_output_idx":0}],
           "outputs":[{"name":"clamp","shape":[3],"dtype":"float32"}],"attrs":{"min":-Infinity,"max":1.0}}]})",
                                     "t.json");
        at::Tensor y = runAndGet(g, mapOf({{"x", at::tensor({-5.f, 0.5f, 3.f})}}), "clamp");
        QVERIFY(close(y, at::tensor({-5.f, 0.5f, 1.f})));
    }

    void indexWithNoneMask() {
        // x[:, idx] -> index.Tensor(x, [None, idx])
        at::Tensor x = at::arange(12, at::kFloat).reshape({3, 4});
        auto g = graphOf(
            json::array({meta("x", {3, 4}), meta("idx", {2}, "int64")}), json::array({meta("index", {3, 2})}),
            json::array({node("index", "aten.index.Tensor",
                              json::array({meta("x", {3, 4}, "float32", "x"), meta("idx", {2}, "int64", "idx")}),
                              json::array({meta("index", {3, 2})}),
                              json{{"_tensor_list_sizes", {1}}, {"_tensor_list_none_masks", {{true, false}}}})}));
        at::Tensor y = runAndGet(g, mapOf({{"x", x}, {"idx", at::tensor({3, 1}, at::kLong)}}), "index");
        QVERIFY(close(y, at::tensor({3.f, 1.f, 7.f, 5.f, 11.f, 9.f}).reshape({3, 2})));
    }

    void catListSizes() {
        auto g = graphOf(
            json::array({meta("a", {1, 2}), meta("b", {1, 1})}), json::array({meta("cat", {1, 5})}),
            json::array({node("cat", "aten.cat.default",
                              json::array({meta("a", {1, 2}, "float32", "a"), meta("b", {1, 1}, "float32", "b"),
                                           meta("a", {1, 2}, "float32", "a")}),
                              json::array({meta("cat", {1, 5})}), json{{"dim", -1}, {"_tensor_list_sizes", {3}}})}));
        at::Tensor y =
            runAndGet(g, mapOf({{"a", at::tensor({1.f, 2.f}).reshape({1, 2})}, {"b", at::full({1, 1}, 9.f)}}), "cat");
        QVERIFY(close(y, at::tensor({1.f, 2.f, 9.f, 1.f, 2.f}).reshape({1, 5})));
    }

    void optionalTensorDoesNotSwallowLaterTensor() {
        // _native_batch_norm_legit_no_training(input, weight=None, bias=None, running_mean, running_var, ...):
        // inputs [x, rm, rv] must not put rm into the weight slot (BatchNorm(affine=False)).
        at::Tensor x = at::tensor({1.f, 2.f, 3.f, 4.f}).reshape({2, 2});
        at::Tensor rm = at::tensor({1.f, 2.f}), rv = at::tensor({4.f, 16.f});
        auto g = graphOf(
            json::array({meta("x", {2, 2}), meta("rm", {2}), meta("rv", {2})}), json::array({meta("bn_0", {2, 2})}),
            json::array({node("bn", "aten._native_batch_norm_legit_no_training.default",
                              json::array({meta("x", {2, 2}, "float32", "x"), meta("rm", {2}, "float32", "rm"),
                                           meta("rv", {2}, "float32", "rv")}),
                              json::array({meta("bn_0", {2, 2}), meta("bn_1", {0}), meta("bn_2", {0})}),
                              json{{"momentum", 0.1}, {"eps", 0.0}})}));
        at::Tensor y = runAndGet(g, mapOf({{"x", x}, {"rm", rm}, {"rv", rv}}), "bn_0");
        // (x - rm) / sqrt(rv): [[0, 0], [1, 0.5]]
        QVERIFY(close(y, at::tensor({0.f, 0.f, 1.f, 0.5f}).reshape({2, 2})));
    }

    // clamp(x, max=t) is written as clamp.Tensor with inputs [x, t]: min or
    // max? The node runs as pytorch-ir reads it (min=t) and says, with both
    // readings, that it is a reading; an attr saying which one was None settles it.
    void droppedNoneThatCouldBeEitherIsReported() {
        auto clampGraph = [](json attrs) {
            return graphOf(
                json::array({meta("x", {3}), meta("t", {3})}), json::array({meta("clamp", {3})}),
                json::array({node("clamp", "aten.clamp.Tensor",
                                  json::array({meta("x", {3}, "float32", "x"), meta("t", {3}, "float32", "t")}),
                                  json::array({meta("clamp", {3})}), std::move(attrs))}));
        };
        const at::Tensor x = at::tensor({-1.f, 5.f, 2.f}), t = at::tensor({0.f, 1.f, 3.f});
        {
            std::vector<std::string> diags;
            at::Tensor y = runAndGet(clampGraph(json::object()), mapOf({{"x", x}, {"t", t}}), "clamp", &diags);
            QVERIFY(close(y, at::tensor({0.f, 5.f, 3.f})));  // max(x, t): t read as min
            QCOMPARE(diags.size(), size_t(1));
            QVERIFY2(diags[0].find("min=t or max=t") != std::string::npos, diags[0].c_str());
            QVERIFY2(diags[0].find("(\"min\": null or \"max\": null)") != std::string::npos, diags[0].c_str());
        }
        // Settled: min was None, so t is max -> min(x, t) = [-1, 1, 2].
        at::Tensor y = runAndGet(clampGraph(json{{"min", nullptr}}), mapOf({{"x", x}, {"t", t}}), "clamp");
        QVERIFY(close(y, at::tensor({-1.f, 1.f, 2.f})));
        // Settled the other way: max(x, t) = [0, 5, 3].
        y = runAndGet(clampGraph(json{{"max", nullptr}}), mapOf({{"x", x}, {"t", t}}), "clamp");
        QVERIFY(close(y, at::tensor({0.f, 5.f, 3.f})));
    }

    // batch_norm(input, weight?, bias?, running_mean?, running_var?) of a
    // BatchNorm without affine weights: inputs [x, rm, rv]. The placeholders'
    // names say where they go (b_bn_running_mean -> running_mean).
    void droppedNoneSettledByPlaceholderNames() {
        at::Tensor x = at::tensor({1.f, 2.f, 3.f, 4.f}).reshape({2, 2});
        at::Tensor rm = at::tensor({1.f, 2.f}), rv = at::tensor({4.f, 16.f});
        auto g = graphOf(
            json::array({meta("x", {2, 2})}), json::array({meta("bn", {2, 2})}),
            json::array({node("bn", "aten.batch_norm.default",
                              json::array({meta("x", {2, 2}, "float32", "x"), meta("b_bn_running_mean", {2}),
                                           meta("b_bn_running_var", {2})}),
                              json::array({meta("bn", {2, 2})}),
                              json{{"training", false}, {"momentum", 0.1}, {"eps", 0.0}, {"cudnn_enabled", false}})}),
            json::array({meta("bn.running_mean", {2}), meta("bn.running_var", {2})}),
            json{{"b_bn_running_mean", "bn.running_mean"}, {"b_bn_running_var", "bn.running_var"}});
        Session s(g);
        s.setWeights(mapOf({{"bn.running_mean", rm}, {"bn.running_var", rv}}));
        s.setInputs(mapOf({{"x", x}}));
        RunResult r = s.runToEnd();
        QVERIFY2(r.reason == StopReason::Finished, r.error ? r.error->message.c_str() : "");
        at::Tensor y;
        QVERIFY(s.value("bn", y));
        // (x - rm) / sqrt(rv): [[0, 0], [1, 0.5]]
        QVERIFY(close(y, at::tensor({0.f, 0.f, 1.f, 0.5f}).reshape({2, 2})));
    }

    void badAttrNamesNodeArgAndValue() {
        auto g = graphOf(json::array({meta("x", {2})}), json::array({meta("c", {2})}),
                         json::array({node("c", "aten._to_copy.default", json::array({meta("x", {2}, "float32", "x")}),
                                           json::array({meta("c", {2})}), json{{"dtype", "torch.bogus16"}})}));
        Session s(g);
        s.setInputs(mapOf({{"x", at::zeros({2})}}));
        RunResult r = s.runToEnd();
        QCOMPARE(r.reason, StopReason::Failed);
        QVERIFY(r.error);
        QCOMPARE(r.error->nodeName, std::string("c"));
        const std::string& m = r.error->message;
        QVERIFY2(m.find("'dtype'") != std::string::npos && m.find("torch.bogus16") != std::string::npos, m.c_str());
        QCOMPARE(s.state(0), NodeState::Failed);
    }

    void unknownOpFailsAtThatNode() {
        auto g =
            graphOf(json::array({meta("x", {2})}), json::array({meta("b", {2})}),
                    json::array({node("a", "aten.relu.default", json::array({meta("x", {2}, "float32", "x")}),
                                      json::array({meta("a", {2})})),
                                 node("b", "aten.no_such_op.default", json::array({meta("a", {2}, "float32", "a")}),
                                      json::array({meta("b", {2})}))}));
        Session s(g);
        s.setInputs(mapOf({{"x", at::tensor({-1.f, 2.f})}}));
        RunResult r = s.runToEnd();
        QCOMPARE(r.reason, StopReason::Failed);
        QCOMPARE(r.error->nodeName, std::string("b"));
        QVERIFY(r.error->message.find("no_such_op") != std::string::npos);
        // What ran stays inspectable.
        at::Tensor a;
        QVERIFY(s.value("a", a));
        QVERIFY(close(a, at::tensor({0.f, 2.f})));
        QCOMPARE(s.state(0), NodeState::Done);
    }

    // A custom op (torch.library) and a TorchBind method call are drawn, and a
    // run stops there saying what they are and what to do, not "unknown op".
    void customOpsAndTorchBindSayWhyTheyCannotRun() {
        const auto failureAt = [](const std::string& opType) {
            auto g = graphOf(json::array({meta("x", {2})}), json::array({meta("c", {2})}),
                             json::array({node("c", opType, json::array({meta("x", {2}, "float32", "x")}),
                                               json::array({meta("c", {2})}))}));
            Session s(g);
            s.setInputs(mapOf({{"x", at::zeros({2})}}));
            RunResult r = s.runToEnd();
            return r.reason == StopReason::Failed && r.error ? r.error->message : std::string("(ran)");
        };
        std::string m = failureAt("mylib.fused_gelu.default");
        QVERIFY2(m.find("custom op (namespace 'mylib'") != std::string::npos, m.c_str());
        QVERIFY2(m.find("torch.library") != std::string::npos && m.find("extract") != std::string::npos, m.c_str());
        QVERIFY2(m.find("unknown op") == std::string::npos, m.c_str());
        m = failureAt("call_torchbind");
        QVERIFY2(m.find("TorchBind") != std::string::npos && m.find("higher-order op") != std::string::npos, m.c_str());
        m = failureAt("aten.no_such_op.default");
        QVERIFY2(m.find("unknown op") != std::string::npos, m.c_str());
    }

    void libtorchErrorNamesNode() {
        auto g = graphOf(
            json::array({meta("x", {2, 3}), meta("y", {2, 3})}), json::array({meta("mm", {2, 3})}),
            json::array({node("mm", "aten.mm.default",
                              json::array({meta("x", {2, 3}, "float32", "x"), meta("y", {2, 3}, "float32", "y")}),
                              json::array({meta("mm", {2, 3})}))}));
        Session s(g);
        s.setInputs(mapOf({{"x", at::zeros({2, 3})}, {"y", at::zeros({2, 3})}}));
        RunResult r = s.runToEnd();
        QCOMPARE(r.reason, StopReason::Failed);
        QCOMPARE(r.error->opType, std::string("aten.mm.default"));
        QVERIFY2(r.error->message.find("cannot be multiplied") != std::string::npos, r.error->message.c_str());
    }

    void metaMismatchIsDiagnostic() {
        // The IR says [2, 5] but sum over dim 1 gives [2]: an IR whose attrs were lost.
        auto g =
            graphOf(json::array({meta("x", {2, 5})}), json::array({meta("sum", {2, 5})}),
                    json::array({node("sum", "aten.sum.dim_IntList", json::array({meta("x", {2, 5}, "float32", "x")}),
                                      json::array({meta("sum", {2, 5}, "float64")}), json{{"dim", {1}}})}));
        Session s(g);
        s.setInputs(mapOf({{"x", at::ones({2, 5})}}));
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        auto d = s.diagnostics(0);
        QCOMPARE(d.size(), size_t(2));
        QVERIFY(d[0].find("[2]") != std::string::npos);
        QVERIFY(d[1].find("float64") != std::string::npos);
    }

    void attrsTheSchemaLacksAreReported() {
        // A 2.x-only argument (or a typo) is not passed to the op; the node says so.
        auto g = graphOf(json::array({meta("x", {3})}), json::array({meta("relu", {3})}),
                         json::array({node("relu", "aten.relu.default", json::array({meta("x", {3}, "float32", "x")}),
                                           json::array({meta("relu", {3})}),
                                           json{{"inplace_hint", true}, {"_tensor_list_sizes", json::array()}})}));
        std::vector<std::string> diags;
        at::Tensor y = runAndGet(g, mapOf({{"x", at::tensor({-1.f, 0.f, 2.f})}}), "relu", &diags);
        QVERIFY(close(y, at::tensor({0.f, 0.f, 2.f})));
        QCOMPARE(diags.size(), size_t(1));  // internal _tensor_list_* attrs are not reported
        QVERIFY2(diags[0].find("attr 'inplace_hint' is not an argument of aten.relu.default") != std::string::npos,
                 diags[0].c_str());
    }

    void assertOpsRunAsChecks() {
        auto g =
            graphOf(json::array({meta("x", {2})}), json::array({meta("relu", {2})}),
                    json::array({node("_assert_tensor_metadata", "aten._assert_tensor_metadata.default",
                                      json::array({meta("x", {2}, "float32", "x")}), json::array(),
                                      json{{"dtype", "torch.float32"}, {"device", "cpu"}, {"layout", "torch.strided"}}),
                                 node("relu", "aten.relu.default", json::array({meta("x", {2}, "float32", "x")}),
                                      json::array({meta("relu", {2})}))}));
        Session s(g);
        s.setInputs(mapOf({{"x", at::tensor({-1.f, 1.f})}}));
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        // The same check with a wrong dtype fails, naming the node.
        Session s2(g);
        s2.setInputs(mapOf({{"x", at::tensor({-1.0, 1.0}, at::kDouble)}}));
        RunResult r = s2.runToEnd();
        QCOMPARE(r.reason, StopReason::Failed);
        QCOMPARE(r.error->nodeName, std::string("_assert_tensor_metadata"));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestOpBinding)
#include "test_op_binding.moc"
