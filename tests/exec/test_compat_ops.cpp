// The equivalents of 2.x-only ops, each run as an IR node and checked against
// a formula computed here with plain loops over doubles (not ATen's kernels).
#include "exec_test_util.h"

#include "core/exec/session.h"

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

namespace {

std::vector<int64_t> shapeOf(const at::Tensor& t) { return t.sizes().vec(); }

// One node over graph inputs a0..aN; returns its output `index`.
at::Tensor runOne(const std::string& op, const std::vector<at::Tensor>& inputs, json attrs,
                  std::vector<std::vector<int64_t>> outShapes, int64_t index = 0, std::string* error = nullptr) {
    json gin = json::array(), nin = json::array(), outs = json::array();
    io::TensorMap m;
    for (size_t i = 0; i < inputs.size(); ++i) {
        std::string n = "a" + std::to_string(i);
        std::string dt = inputs[i].scalar_type() == at::kBool ? "bool" : inputs[i].scalar_type() == at::kLong ? "int64" : "float32";
        gin.push_back(meta(n, shapeOf(inputs[i]), dt));
        nin.push_back(meta(n, shapeOf(inputs[i]), dt, n));
        m.insert(n, inputs[i]);
    }
    for (size_t k = 0; k < outShapes.size(); ++k)
        outs.push_back(json{{"name", outShapes.size() == 1 ? std::string("n") : "n_" + std::to_string(k)}, {"shape", outShapes[k]}});
    auto g = graphOf(gin, json::array({outs[index]}), json::array({node("n", op, nin, outs, attrs)}));
    Session s(g);
    s.setInputs(m);
    RunResult r = s.runToEnd();
    if (r.error) {
        if (error) *error = r.error->message;
        else qWarning("%s", r.error->message.c_str());
        return {};
    }
    if (!s.diagnostics(0).empty()) qWarning("%s", s.diagnostics(0)[0].c_str());
    at::Tensor t;
    s.value(outs[index]["name"].get<std::string>(), t);
    return t;
}

double at4(const at::Tensor& t, int64_t a, int64_t b, int64_t c, int64_t d) {
    return t.index({a, b, c, d}).item<double>();
}

// softmax(q.k * scale + bias) v with loops; `allowed(i, j)` and additive `bias(i, j)`.
at::Tensor naiveAttention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, double scale,
                          const std::function<bool(int64_t, int64_t, int64_t, int64_t)>& allowed,
                          const std::function<double(int64_t, int64_t, int64_t, int64_t)>& bias) {
    int64_t B = q.size(0), H = q.size(1), L = q.size(2), E = q.size(3), S = k.size(2), Hk = k.size(1), Ev = v.size(3);
    at::Tensor out = at::zeros({B, H, L, Ev}, at::kDouble);
    for (int64_t b = 0; b < B; ++b)
        for (int64_t h = 0; h < H; ++h) {
            int64_t hk = h / (H / Hk);   // GQA: consecutive query heads share a kv head
            for (int64_t i = 0; i < L; ++i) {
                std::vector<double> w(S, 0.0);
                double mx = -INFINITY;
                for (int64_t j = 0; j < S; ++j) {
                    if (!allowed(b, h, i, j)) { w[j] = -INFINITY; continue; }
                    double dot = 0;
                    for (int64_t e = 0; e < E; ++e) dot += at4(q, b, h, i, e) * at4(k, b, hk, j, e);
                    w[j] = dot * scale + bias(b, h, i, j);
                    mx = std::max(mx, w[j]);
                }
                if (mx == -INFINITY) continue;   // nothing to attend: zeros (2.5+)
                double sum = 0;
                for (auto& x : w) sum += (x = x == -INFINITY ? 0.0 : std::exp(x - mx));
                for (int64_t e = 0; e < Ev; ++e) {
                    double acc = 0;
                    for (int64_t j = 0; j < S; ++j) acc += w[j] / sum * at4(v, b, hk, j, e);
                    out.index_put_({b, h, i, e}, acc);
                }
            }
        }
    return out;
}

}  // namespace

class TestCompatOps : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { at::manual_seed(7); }

    void sdpaPlain() {
        at::Tensor q = at::randn({1, 2, 3, 4}), k = at::randn({1, 2, 5, 4}), v = at::randn({1, 2, 5, 3});
        at::Tensor y = runOne("aten.scaled_dot_product_attention.default", {q, k, v}, json::object(), {{1, 2, 3, 3}});
        auto ref = naiveAttention(q, k, v, 0.5, [](auto...) { return true; }, [](auto...) { return 0.0; });
        QVERIFY(close(y, ref));
    }

    void sdpaCausalScaleGqa() {
        at::Tensor q = at::randn({1, 4, 5, 4}), k = at::randn({1, 2, 5, 4}), v = at::randn({1, 2, 5, 4});
        at::Tensor y = runOne("aten.scaled_dot_product_attention.default", {q, k, v},
                              json{{"is_causal", true}, {"scale", 0.3}, {"enable_gqa", true}}, {{1, 4, 5, 4}});
        auto ref = naiveAttention(q, k, v, 0.3, [](int64_t, int64_t, int64_t i, int64_t j) { return j <= i; },
                                  [](auto...) { return 0.0; });
        QVERIFY(close(y, ref));
    }

    void sdpaBoolMaskWithFullyMaskedRow() {
        at::Tensor q = at::randn({1, 1, 3, 2}), k = at::randn({1, 1, 4, 2}), v = at::randn({1, 1, 4, 2});
        at::Tensor mask = at::tensor({1, 0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1}).to(at::kBool)
                              .reshape({3, 4});   // row 1 attends to nothing
        at::Tensor y = runOne("aten.scaled_dot_product_attention.default", {q, k, v, mask}, json::object(), {{1, 1, 3, 2}});
        auto ref = naiveAttention(q, k, v, 1 / std::sqrt(2.0),
                                  [&](int64_t, int64_t, int64_t i, int64_t j) { return mask.index({i, j}).item<bool>(); },
                                  [](auto...) { return 0.0; });
        QVERIFY(close(y, ref));
        QVERIFY(!y.isnan().any().item<bool>());
        QVERIFY(at::equal(y.index({0, 0, 1}), at::zeros({2})));
    }

    void sdpaFloatMaskIsAdditive() {
        at::Tensor q = at::randn({2, 1, 3, 2}), k = at::randn({2, 1, 3, 2}), v = at::randn({2, 1, 3, 2});
        at::Tensor mask = at::randn({3, 3});
        at::Tensor y = runOne("aten.scaled_dot_product_attention.default", {q, k, v, mask}, json::object(), {{2, 1, 3, 2}});
        auto ref = naiveAttention(q, k, v, 1 / std::sqrt(2.0), [](auto...) { return true; },
                                  [&](int64_t, int64_t, int64_t i, int64_t j) { return mask.index({i, j}).item<double>(); });
        QVERIFY(close(y, ref));
    }

    void flashForCpuReturnsOutputAndLogsumexp() {
        at::Tensor q = at::randn({1, 1, 2, 2}), k = at::randn({1, 1, 2, 2}), v = at::randn({1, 1, 2, 2});
        at::Tensor y = runOne("aten._scaled_dot_product_flash_attention_for_cpu.default", {q, k, v},
                              json{{"is_causal", true}}, {{1, 1, 2, 2}, {1, 1, 2}}, 0);
        auto ref = naiveAttention(q, k, v, 1 / std::sqrt(2.0), [](int64_t, int64_t, int64_t i, int64_t j) { return j <= i; },
                                  [](auto...) { return 0.0; });
        QVERIFY(close(y, ref));
        at::Tensor lse = runOne("aten._scaled_dot_product_flash_attention_for_cpu.default", {q, k, v},
                                json{{"is_causal", true}}, {{1, 1, 2, 2}, {1, 1, 2}}, 1);
        // Row 0 attends to key 0 only: logsumexp = q0.k0 * scale.
        double s00 = (at4(q, 0, 0, 0, 0) * at4(k, 0, 0, 0, 0) + at4(q, 0, 0, 0, 1) * at4(k, 0, 0, 0, 1)) / std::sqrt(2.0);
        QVERIFY(std::abs(lse.index({0, 0, 0}).item<double>() - s00) < 1e-5);
    }

    void batchNormNoTraining() {
        at::Tensor x = at::randn({2, 3, 2, 2}), w = at::rand({3}) + 0.5, b = at::randn({3}), rm = at::randn({3}),
                   rv = at::rand({3}) + 0.5;
        at::Tensor y = runOne("aten._native_batch_norm_legit_no_training.default", {x, w, b, rm, rv},
                              json{{"momentum", 0.1}, {"eps", 1e-3}}, {{2, 3, 2, 2}, {0}, {0}});
        at::Tensor ref = at::empty({2, 3, 2, 2}, at::kDouble);
        for (int64_t n = 0; n < 2; ++n)
            for (int64_t c = 0; c < 3; ++c)
                for (int64_t i = 0; i < 4; ++i) {
                    double xv = x.index({n, c, i / 2, i % 2}).item<double>();
                    double r = (xv - rm[c].item<double>()) / std::sqrt(rv[c].item<double>() + 1e-3) * w[c].item<double>() +
                               b[c].item<double>();
                    ref.index_put_({n, c, i / 2, i % 2}, r);
                }
        QVERIFY(close(y, ref));
    }

    void rmsNorm() {
        at::Tensor x = at::randn({2, 5}), w = at::randn({5});
        at::Tensor y = runOne("aten.rms_norm.default", {x, w}, json{{"normalized_shape", {5}}, {"eps", 1e-4}}, {{2, 5}});
        at::Tensor noEps = runOne("aten.rms_norm.default", {x}, json{{"normalized_shape", {5}}}, {{2, 5}});
        at::Tensor ref = at::empty({2, 5}, at::kDouble), ref2 = at::empty({2, 5}, at::kDouble);
        for (int64_t r = 0; r < 2; ++r) {
            double ss = 0;
            for (int64_t c = 0; c < 5; ++c) ss += std::pow(x.index({r, c}).item<double>(), 2);
            for (int64_t c = 0; c < 5; ++c) {
                ref.index_put_({r, c}, x.index({r, c}).item<double>() / std::sqrt(ss / 5 + 1e-4) * w[c].item<double>());
                ref2.index_put_({r, c}, x.index({r, c}).item<double>() /
                                            std::sqrt(ss / 5 + std::numeric_limits<float>::epsilon()));
            }
        }
        QVERIFY(close(y, ref));
        QVERIFY(close(noEps, ref2));
    }

    void safeSoftmax() {
        const float ninf = -std::numeric_limits<float>::infinity();
        at::Tensor x = at::tensor({1.f, 2.f, ninf, ninf, ninf, ninf}).reshape({2, 3});
        at::Tensor y = runOne("aten._safe_softmax.default", {x}, json{{"dim", -1}}, {{2, 3}});
        double e1 = std::exp(1.0), e2 = std::exp(2.0);
        QVERIFY(close(y, at::tensor({e1 / (e1 + e2), e2 / (e1 + e2), 0.0, 0.0, 0.0, 0.0}).reshape({2, 3})));
    }

    void squeezeDims() {
        at::Tensor x = at::randn({1, 3, 1, 2, 1});
        at::Tensor y = runOne("aten.squeeze.dims", {x}, json{{"dim", {0, -1, 1}}}, {{3, 1, 2}});
        QCOMPARE(y.sizes().vec(), (std::vector<int64_t>{3, 1, 2}));
        QVERIFY(at::equal(y, x.reshape({3, 1, 2})));
    }

    void anyAllDims() {
        at::Tensor x = at::tensor({0, 0, 1, 0, 1, 1, 1, 1}, at::kLong).reshape({2, 2, 2});
        at::Tensor a = runOne("aten.any.dims", {x}, json{{"dim", {0, 2}}}, {{2}});
        at::Tensor b = runOne("aten.all.dims", {x}, json{{"dim", {1, 2}}, {"keepdim", true}}, {{2, 1, 1}});
        // any over dims 0,2 for j: j=0 -> {0,0,1,1} true; j=1 -> {1,0,1,1} true
        QVERIFY(at::equal(a, at::tensor({1, 1}).to(at::kBool)));
        // all over dims 1,2 for i: i=0 -> {0,0,1,0} false; i=1 -> all ones true
        QVERIFY(at::equal(b, at::tensor({0, 1}).to(at::kBool).reshape({2, 1, 1})));
    }

    void unsafeIndexAndSymSize() {
        at::Tensor x = at::arange(6, at::kFloat).reshape({2, 3});
        at::Tensor y = runOne("aten._unsafe_index.Tensor", {x, at::tensor({2, 0}, at::kLong)},
                              json{{"_tensor_list_sizes", {1}}, {"_tensor_list_none_masks", {{true, false}}}}, {{2, 2}});
        QVERIFY(at::equal(y, at::tensor({2.f, 0.f, 5.f, 3.f}).reshape({2, 2})));
        at::Tensor n = runOne("aten.sym_size.int", {x}, json{{"dim", 1}}, {{}});
        QCOMPARE(n.item<int64_t>(), int64_t(3));
    }

    void preluKernel() {
        at::Tensor x = at::tensor({-2.f, 3.f}), w = at::tensor({0.25f});
        at::Tensor y = runOne("aten._prelu_kernel.default", {x, w}, json::object(), {{2}});
        QVERIFY(close(y, at::tensor({-0.5f, 3.f})));
    }
};

QTEST_APPLESS_MAIN(TestCompatOps)
#include "test_compat_ops.moc"
