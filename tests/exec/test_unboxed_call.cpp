// Unboxed calls: which bound ops take the typed path, that it computes what
// the op computes (expected values worked out by hand), and that scalars
// given as attrs share one wrapped-number tensor per value.
#include "exec_test_util.h"

#include "core/exec/engine/attr_convert.h"
#include "core/exec/engine/op_binding.h"
#include "core/exec/engine/session.h"

#include <cmath>

#include <QtTest/QtTest>

// The core suites build with QT_NO_KEYWORDS, so Qt's `slots` macro leaves
// BoundOp::slots alone.
static const c10::IValue& constantOf(const irscope::exec::BoundOp& op, size_t arg) { return op.slots[arg].constant; }

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

namespace {

ir::Graph oneNode(const std::string& op, json inputs, json attrs, std::vector<int64_t> outShape) {
    json graphInputs = json::array();
    for (const auto& in : inputs) graphInputs.push_back(meta(in["name"], in["shape"].get<std::vector<int64_t>>()));
    return graphOf(graphInputs, json::array({meta("y", outShape)}),
                   json::array({node("y", op, inputs, json::array({meta("y", outShape)}), attrs)}));
}

json in(const std::string& name, std::vector<int64_t> shape) { return meta(name, std::move(shape), "float32", name); }

// Runs the one-node graph; the result and whether its op was bound unboxed.
at::Tensor run(const ir::Graph& g, const io::TensorMap& inputs, bool* unboxed = nullptr) {
    if (unboxed) *unboxed = static_cast<bool>(bindNode(g.nodes[0]).unboxed);
    Session s(g);
    s.setInputs(inputs);
    RunResult r = s.runToEnd();
    if (r.error) qWarning("%s", r.error->message.c_str());
    at::Tensor t;
    s.value("y", t);
    return t;
}

bool sameValues(const at::Tensor& a, const at::Tensor& b) {
    return a.defined() && a.sizes().equals(b.sizes()) && at::allclose(a, b, 1e-6, 1e-6);
}

}  // namespace

class TestUnboxedCall : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void binaryWithScalarAlpha() {
        // add.Tensor(x, z, alpha=2): [1, 2] + 2 * [3, 4] = [7, 10].
        auto g = oneNode("aten.add.Tensor", json::array({in("x", {2}), in("z", {2})}), json{{"alpha", 2}}, {2});
        bool unboxed = false;
        at::Tensor y = run(g, mapOf({{"x", at::tensor({1.f, 2.f})}, {"z", at::tensor({3.f, 4.f})}}), &unboxed);
        QVERIFY(unboxed);
        QVERIFY(sameValues(y, at::tensor({7.f, 10.f})));
    }

    void scalarAttrInATensorSlot() {
        // mul.Tensor(x, other=0.5) on int64 [2, 3]: a Python scalar, so float32 [1, 1.5].
        auto g = graphOf(json::array({meta("x", {2}, "int64")}), json::array({meta("y", {2})}),
                         json::array({node("y", "aten.mul.Tensor", json::array({meta("x", {2}, "int64", "x")}),
                                           json::array({meta("y", {2})}), json{{"other", 0.5}})}));
        bool unboxed = false;
        at::Tensor y = run(g, mapOf({{"x", at::tensor({int64_t{2}, int64_t{3}})}}), &unboxed);
        QVERIFY(unboxed);
        QCOMPARE(y.scalar_type(), at::kFloat);
        QVERIFY(sameValues(y, at::tensor({1.f, 1.5f})));
    }

    void intListArgument() {
        // permute(arange(6).reshape(2, 3), [1, 0]) = [[0, 3], [1, 4], [2, 5]].
        auto g = oneNode("aten.permute.default", json::array({in("x", {2, 3})}), json{{"dims", {1, 0}}}, {3, 2});
        bool unboxed = false;
        at::Tensor y = run(g, mapOf({{"x", at::arange(6, at::kFloat).reshape({2, 3})}}), &unboxed);
        QVERIFY(unboxed);
        QVERIFY(sameValues(y, at::tensor({0.f, 3.f, 1.f, 4.f, 2.f, 5.f}).reshape({3, 2})));
    }

    void optionalTensorPresentAndAbsent() {
        // linear([[1, 2]], [[1, 0], [0, 1], [1, 1]]) = [[1, 2, 3]]; with bias [1, 1, 1]: [[2, 3, 4]].
        const at::Tensor x = at::tensor({1.f, 2.f}).reshape({1, 2});
        const at::Tensor w = at::tensor({1.f, 0.f, 0.f, 1.f, 1.f, 1.f}).reshape({3, 2});
        bool unboxed = false;
        auto noBias =
            oneNode("aten.linear.default", json::array({in("x", {1, 2}), in("w", {3, 2})}), json::object(), {1, 3});
        QVERIFY(sameValues(run(noBias, mapOf({{"x", x}, {"w", w}}), &unboxed),
                           at::tensor({1.f, 2.f, 3.f}).reshape({1, 3})));
        QVERIFY(unboxed);
        auto withBias = oneNode("aten.linear.default", json::array({in("x", {1, 2}), in("w", {3, 2}), in("b", {3})}),
                                json::object(), {1, 3});
        QVERIFY(sameValues(run(withBias, mapOf({{"x", x}, {"w", w}, {"b", at::ones({3})}}), &unboxed),
                           at::tensor({2.f, 3.f, 4.f}).reshape({1, 3})));
        QVERIFY(unboxed);
    }

    void intAndBoolArguments() {
        // _softmax([0, ln 3], dim=0, half_to_float=False) = [1/4, 3/4].
        auto g = oneNode("aten._softmax.default", json::array({in("x", {2})}),
                         json{{"dim", 0}, {"half_to_float", false}}, {2});
        bool unboxed = false;
        at::Tensor y = run(g, mapOf({{"x", at::tensor({0.f, static_cast<float>(std::log(3.0))})}}), &unboxed);
        QVERIFY(unboxed);
        QVERIFY(sameValues(y, at::tensor({0.25f, 0.75f})));
    }

    void otherShapesStayBoxed() {
        // In-place (a written argument), a list of tensors, SymInt lists:
        // the boxed path, with the same results.
        auto inplace = oneNode("aten.add_.Tensor", json::array({in("x", {2}), in("z", {2})}), json::object(), {2});
        bool unboxed = true;
        QVERIFY(
            sameValues(run(inplace, mapOf({{"x", at::tensor({1.f, 2.f})}, {"z", at::tensor({3.f, 4.f})}}), &unboxed),
                       at::tensor({4.f, 6.f})));
        QVERIFY(!unboxed);

        auto cat = oneNode("aten.cat.default", json::array({in("x", {1}), in("z", {1})}),
                           json{{"_tensor_list_sizes", {2}}}, {2});
        QVERIFY(sameValues(run(cat, mapOf({{"x", at::tensor({1.f})}, {"z", at::tensor({2.f})}}), &unboxed),
                           at::tensor({1.f, 2.f})));
        QVERIFY(!unboxed);

        auto view = oneNode("aten.view.default", json::array({in("x", {4})}), json{{"size", {2, 2}}}, {2, 2});
        QVERIFY(sameValues(run(view, mapOf({{"x", at::arange(4, at::kFloat)}}), &unboxed),
                           at::arange(4, at::kFloat).reshape({2, 2})));
        QVERIFY(!unboxed);  // view takes SymInt[] in 1.13
    }

    void sharedScalarsAreOnePerValue() {
        const at::Tensor a = sharedWrappedScalarTensor(c10::Scalar(1.0));
        const at::Tensor b = sharedWrappedScalarTensor(c10::Scalar(1.0));
        QCOMPARE(a.unsafeGetTensorImpl(), b.unsafeGetTensorImpl());
        QVERIFY(a.unsafeGetTensorImpl()->is_wrapped_number());
        QCOMPARE(a.scalar_type(), at::kDouble);
        // 1 and 1.0, 0.0 and -0.0, true and 1 are different scalars.
        QVERIFY(sharedWrappedScalarTensor(c10::Scalar(int64_t{1})).unsafeGetTensorImpl() != a.unsafeGetTensorImpl());
        QCOMPARE(sharedWrappedScalarTensor(c10::Scalar(int64_t{1})).scalar_type(), at::kLong);
        const at::Tensor negZero = sharedWrappedScalarTensor(c10::Scalar(-0.0));
        QVERIFY(std::signbit(negZero.item<double>()));
        QVERIFY(!std::signbit(sharedWrappedScalarTensor(c10::Scalar(0.0)).item<double>()));
        QCOMPARE(sharedWrappedScalarTensor(c10::Scalar(true)).scalar_type(), at::kBool);
    }

    void twoNodesShareTheirScalarConstant() {
        auto g = graphOf(json::array({meta("x", {2})}), json::array({meta("b", {2})}),
                         json::array({node("a", "aten.add.Tensor", json::array({meta("x", {2}, "float32", "x")}),
                                           json::array({meta("a", {2})}), json{{"other", 0.25}}),
                                      node("b", "aten.add.Tensor", json::array({meta("a", {2}, "float32", "a")}),
                                           json::array({meta("b", {2})}), json{{"other", 0.25}})}));
        BoundOp a = bindNode(g.nodes[0]), b = bindNode(g.nodes[1]);
        QVERIFY(constantOf(a, 1).isTensor());
        QCOMPARE(constantOf(a, 1).toTensor().unsafeGetTensorImpl(), constantOf(b, 1).toTensor().unsafeGetTensorImpl());
        // And the result: [1, 2] + 0.25 + 0.25.
        Session s(g);
        s.setInputs(mapOf({{"x", at::tensor({1.f, 2.f})}}));
        QCOMPARE(s.runToEnd().reason, StopReason::Finished);
        at::Tensor y;
        QVERIFY(s.value("b", y));
        QVERIFY(sameValues(y, at::tensor({1.5f, 2.5f})));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestUnboxedCall)
#include "test_unboxed_call.moc"
