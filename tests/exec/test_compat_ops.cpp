// The equivalents of 2.x-only ops, each run as an IR node and checked against
// a formula computed here with plain loops over doubles (not ATen's kernels).
#include "exec_test_util.h"

#include <torch/version.h>

#include "core/exec/compat/compat_ops.h"
#include "core/exec/engine/session.h"
#include "core/io/tensor_dtype.h"
#include "core/ir/op_schema_table.h"

#include <cmath>
#include <limits>

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

namespace {

std::vector<int64_t> shapeOf(const at::Tensor& t) { return t.sizes().vec(); }

// One node over graph inputs a0..aN; returns its output `index`.
// Graph inputs a0..aN for `inputs`: their metas as graph inputs and as node inputs.
void inputMetas(const std::vector<at::Tensor>& inputs, json& gin, json& nin, io::TensorMap& m) {
    for (size_t i = 0; i < inputs.size(); ++i) {
        std::string n = "a";  // appended piecewise: GCC 12 -O3 warns (-Wrestrict, falsely) on "a" + std::string
        n += std::to_string(i);
        std::string dt = io::scalarTypeName(inputs[i].scalar_type());
        gin.push_back(meta(n, shapeOf(inputs[i]), dt));
        nin.push_back(meta(n, shapeOf(inputs[i]), dt, n));
        m.insert(n, inputs[i]);
    }
}

at::Tensor runOne(const std::string& op, const std::vector<at::Tensor>& inputs, json attrs,
                  std::vector<std::vector<int64_t>> outShapes, int64_t index = 0, std::string* error = nullptr) {
    json gin = json::array(), nin = json::array(), outs = json::array();
    io::TensorMap m;
    inputMetas(inputs, gin, nin, m);
    for (size_t k = 0; k < outShapes.size(); ++k)
        outs.push_back(json{{"name", outShapes.size() == 1 ? std::string("n") : "n_" + std::to_string(k)},
                            {"shape", outShapes[k]}});
    auto g = graphOf(gin, json::array({outs[index]}), json::array({node("n", op, nin, outs, attrs)}));
    Session s(g);
    s.setInputs(m);
    RunResult r = s.runToEnd();
    if (r.error) {
        if (error)
            *error = r.error->message;
        else
            qWarning("%s", r.error->message.c_str());
        return {};
    }
    if (!s.diagnostics(0).empty()) qWarning("%s", s.diagnostics(0)[0].c_str());
    at::Tensor t;
    s.value(outs[index]["name"].get<std::string>(), t);
    return t;
}

// Runs a one-node graph that must fail; returns "<node>|<message>".
std::string failureOf(const std::string& op, const std::vector<at::Tensor>& inputs, json attrs) {
    json gin = json::array(), nin = json::array();
    io::TensorMap m;
    inputMetas(inputs, gin, nin, m);
    json out = json{{"name", "bad"}, {"shape", json::array()}};
    auto g = graphOf(gin, json::array({out}), json::array({node("bad", op, nin, json::array({out}), attrs)}));
    Session s(g);
    s.setInputs(m);
    RunResult r = s.runToEnd();
    if (r.reason != StopReason::Failed || !r.error) return "did not fail";
    return r.error->nodeName + "|" + r.error->message;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// c[i][j] = sum_k a[i][k] * b[k][j], in doubles, for 2-D tensors of any dtype.
at::Tensor naiveMm(const at::Tensor& a, const at::Tensor& b) {
    at::Tensor ad = a.to(at::kDouble), bd = b.to(at::kDouble);
    at::Tensor c = at::zeros({a.size(0), b.size(1)}, at::kDouble);
    for (int64_t i = 0; i < a.size(0); ++i)
        for (int64_t j = 0; j < b.size(1); ++j) {
            double acc = 0;
            for (int64_t k = 0; k < a.size(1); ++k)
                acc += ad.index({i, k}).item<double>() * bd.index({k, j}).item<double>();
            c.index_put_({i, j}, acc);
        }
    return c;
}

// Sum of squared deviations from the mean of `v` and its count.
double sumSquares(const std::vector<double>& v) {
    double mean = 0;
    for (double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    double ss = 0;
    for (double x : v) ss += (x - mean) * (x - mean);
    return ss;
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
            int64_t hk = h / (H / Hk);  // GQA: consecutive query heads share a kv head
            for (int64_t i = 0; i < L; ++i) {
                std::vector<double> w(S, 0.0);
                double mx = -INFINITY;
                for (int64_t j = 0; j < S; ++j) {
                    if (!allowed(b, h, i, j)) {
                        w[j] = -INFINITY;
                        continue;
                    }
                    double dot = 0;
                    for (int64_t e = 0; e < E; ++e) dot += at4(q, b, h, i, e) * at4(k, b, hk, j, e);
                    w[j] = dot * scale + bias(b, h, i, j);
                    mx = std::max(mx, w[j]);
                }
                if (mx == -INFINITY) continue;  // nothing to attend: zeros (2.5+)
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

private Q_SLOTS:
    void initTestCase() { at::manual_seed(7); }

    void sdpaPlain() {
        at::Tensor q = at::randn({1, 2, 3, 4}), k = at::randn({1, 2, 5, 4}), v = at::randn({1, 2, 5, 3});
        at::Tensor y = runOne("aten.scaled_dot_product_attention.default", {q, k, v}, json::object(), {{1, 2, 3, 3}});
        auto ref = naiveAttention(
            q, k, v, 0.5, [](auto...) { return true; }, [](auto...) { return 0.0; });
        QVERIFY(close(y, ref));
        // Laid out as PyTorch 2.x's CPU kernel returns it: transposed back to
        // (B, L, H, E) it is contiguous, so an exported transpose + view runs.
        // (On a 2.x libtorch the op is libtorch's own, laid out as it likes.)
        if (TORCH_VERSION_MAJOR < 2) {
            QVERIFY(y.transpose(1, 2).is_contiguous());
            QVERIFY(!y.is_contiguous());
        }
    }

    void sdpaCausalScaleGqa() {
        at::Tensor q = at::randn({1, 4, 5, 4}), k = at::randn({1, 2, 5, 4}), v = at::randn({1, 2, 5, 4});
        at::Tensor y = runOne("aten.scaled_dot_product_attention.default", {q, k, v},
                              json{{"is_causal", true}, {"scale", 0.3}, {"enable_gqa", true}}, {{1, 4, 5, 4}});
        auto ref = naiveAttention(
            q, k, v, 0.3, [](int64_t, int64_t, int64_t i, int64_t j) { return j <= i; }, [](auto...) { return 0.0; });
        QVERIFY(close(y, ref));
    }

    void sdpaBoolMaskWithFullyMaskedRow() {
        at::Tensor q = at::randn({1, 1, 3, 2}), k = at::randn({1, 1, 4, 2}), v = at::randn({1, 1, 4, 2});
        at::Tensor mask =
            at::tensor({1, 0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1}).to(at::kBool).reshape({3, 4});  // row 1 attends to nothing
        at::Tensor y =
            runOne("aten.scaled_dot_product_attention.default", {q, k, v, mask}, json::object(), {{1, 1, 3, 2}});
        auto ref = naiveAttention(
            q, k, v, 1 / std::sqrt(2.0),
            [&](int64_t, int64_t, int64_t i, int64_t j) {
                return mask.index({i, j}).item<bool>();
            },
            [](auto...) { return 0.0; });
        QVERIFY(close(y, ref));
        QVERIFY(!y.isnan().any().item<bool>());
        QVERIFY(at::equal(y.index({0, 0, 1}), at::zeros({2})));
    }

    void sdpaFloatMaskIsAdditive() {
        at::Tensor q = at::randn({2, 1, 3, 2}), k = at::randn({2, 1, 3, 2}), v = at::randn({2, 1, 3, 2});
        at::Tensor mask = at::randn({3, 3});
        at::Tensor y =
            runOne("aten.scaled_dot_product_attention.default", {q, k, v, mask}, json::object(), {{2, 1, 3, 2}});
        auto ref = naiveAttention(
            q, k, v, 1 / std::sqrt(2.0), [](auto...) { return true; },
            [&](int64_t, int64_t, int64_t i, int64_t j) {
                return mask.index({i, j}).item<double>();
            });
        QVERIFY(close(y, ref));
    }

    void flashForCpuReturnsOutputAndLogsumexp() {
        at::Tensor q = at::randn({1, 1, 2, 2}), k = at::randn({1, 1, 2, 2}), v = at::randn({1, 1, 2, 2});
        at::Tensor y = runOne("aten._scaled_dot_product_flash_attention_for_cpu.default", {q, k, v},
                              json{{"is_causal", true}}, {{1, 1, 2, 2}, {1, 1, 2}}, 0);
        auto ref = naiveAttention(
            q, k, v, 1 / std::sqrt(2.0), [](int64_t, int64_t, int64_t i, int64_t j) { return j <= i; },
            [](auto...) { return 0.0; });
        QVERIFY(close(y, ref));
        at::Tensor lse = runOne("aten._scaled_dot_product_flash_attention_for_cpu.default", {q, k, v},
                                json{{"is_causal", true}}, {{1, 1, 2, 2}, {1, 1, 2}}, 1);
        // Row 0 attends to key 0 only: logsumexp = q0.k0 * scale.
        double s00 =
            (at4(q, 0, 0, 0, 0) * at4(k, 0, 0, 0, 0) + at4(q, 0, 0, 0, 1) * at4(k, 0, 0, 0, 1)) / std::sqrt(2.0);
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
                    double r =
                        (xv - rm[c].item<double>()) / std::sqrt(rv[c].item<double>() + 1e-3) * w[c].item<double>() +
                        b[c].item<double>();
                    ref.index_put_({n, c, i / 2, i % 2}, r);
                }
        QVERIFY(close(y, ref));
    }

    void rmsNorm() {
        at::Tensor x = at::randn({2, 5}), w = at::randn({5});
        at::Tensor y =
            runOne("aten.rms_norm.default", {x, w}, json{{"normalized_shape", {5}}, {"eps", 1e-4}}, {{2, 5}});
        at::Tensor noEps = runOne("aten.rms_norm.default", {x}, json{{"normalized_shape", {5}}}, {{2, 5}});
        at::Tensor ref = at::empty({2, 5}, at::kDouble), ref2 = at::empty({2, 5}, at::kDouble);
        for (int64_t r = 0; r < 2; ++r) {
            double ss = 0;
            for (int64_t c = 0; c < 5; ++c) ss += std::pow(x.index({r, c}).item<double>(), 2);
            for (int64_t c = 0; c < 5; ++c) {
                ref.index_put_({r, c}, x.index({r, c}).item<double>() / std::sqrt(ss / 5 + 1e-4) * w[c].item<double>());
                ref2.index_put_(
                    {r, c}, x.index({r, c}).item<double>() / std::sqrt(ss / 5 + std::numeric_limits<float>::epsilon()));
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
        at::Tensor y =
            runOne("aten._unsafe_index.Tensor", {x, at::tensor({2, 0}, at::kLong)},
                   json{{"_tensor_list_sizes", {1}}, {"_tensor_list_none_masks", {{true, false}}}}, {{2, 2}});
        QVERIFY(at::equal(y, at::tensor({2.f, 0.f, 5.f, 3.f}).reshape({2, 2})));
        at::Tensor n = runOne("aten.sym_size.int", {x}, json{{"dim", 1}}, {{}});
        QCOMPARE(n.item<int64_t>(), int64_t(3));
    }

    // ---- linspace with tensor ends: .item() them ------------------------------

    void linspaceTensorOverloads() {
        at::Tensor y = runOne("aten.linspace.Tensor_Tensor", {at::scalar_tensor(1.0), at::scalar_tensor(3.0)},
                              json{{"steps", 5}}, {{5}});
        QVERIFY(close(y, at::tensor({1.0, 1.5, 2.0, 2.5, 3.0})));
        QCOMPARE(y.scalar_type(), at::kFloat);  // the default dtype, as in 2.x
        // Tensor_Scalar with an int64 start and an explicit dtype string.
        at::Tensor z = runOne(
            "aten.linspace.Tensor_Scalar", {at::scalar_tensor(0, at::kLong)},
            json{{"end", 1.0}, {"steps", 3}, {"dtype", "torch.float64"}, {"device", "cpu"}, {"pin_memory", false}},
            {{3}});
        QCOMPARE(z.scalar_type(), at::kDouble);
        QVERIFY(close(z, at::tensor({0.0, 0.5, 1.0})));
        // Scalar_Tensor: start from attrs, end from an int64 tensor; still float32.
        at::Tensor w = runOne("aten.linspace.Scalar_Tensor", {at::scalar_tensor(2, at::kLong)},
                              json{{"start", -2}, {"steps", 5}}, {{5}});
        QCOMPARE(w.scalar_type(), at::kFloat);
        QVERIFY(close(w, at::tensor({-2.0, -1.0, 0.0, 1.0, 2.0})));
        std::string err =
            failureOf("aten.linspace.Tensor_Tensor", {at::ones({2}), at::scalar_tensor(3.0)}, json{{"steps", 2}});
        QVERIFY2(contains(err, "0-dimensional"), err.c_str());
    }

    // ---- matmul family --------------------------------------------------------

    void mmBmmAddmmWithOutDtype() {
        at::Tensor a = at::randn({3, 4}).to(at::kHalf), b = at::randn({4, 2}).to(at::kHalf);
        at::Tensor y = runOne("aten.mm.dtype", {a, b}, json{{"out_dtype", "torch.float32"}}, {{3, 2}});
        QCOMPARE(y.scalar_type(), at::kFloat);
        QVERIFY(close(y, naiveMm(a, b), 1e-5, 1e-5));  // fp32 accumulation of the half values: no half rounding

        at::Tensor ba = at::randn({2, 3, 4}).to(at::kBFloat16), bb = at::randn({2, 4, 5}).to(at::kBFloat16);
        at::Tensor by = runOne("aten.bmm.dtype", {ba, bb}, json{{"out_dtype", "torch.float32"}}, {{2, 3, 5}});
        QCOMPARE(by.scalar_type(), at::kFloat);
        for (int64_t g = 0; g < 2; ++g) QVERIFY(close(by[g], naiveMm(ba[g], bb[g]), 1e-5, 1e-5));

        at::Tensor bias = at::randn({2}), m1 = at::randn({3, 4}), m2 = at::randn({4, 2});
        at::Tensor ay = runOne("aten.addmm.dtype", {bias, m1, m2},
                               json{{"out_dtype", "torch.float16"}, {"beta", 0.5}, {"alpha", 2}}, {{3, 2}});
        QCOMPARE(ay.scalar_type(), at::kHalf);
        at::Tensor ref = naiveMm(m1, m2) * 2.0 + bias.to(at::kDouble) * 0.5;
        QVERIFY(close(ay, ref, 2e-3, 2e-3));  // one rounding to half
    }

    // _int_mm takes int8 or uint8 activations (PyTorch 2.x's CPU path of
    // torchao's dynamic quantization shifts them by 128 into uint8) against
    // int8 weights; sums worked out by hand.
    void intMmOfInt8AndUint8() {
        const at::Tensor b = at::tensor({1, -1, 2, 3}, at::kChar).view({2, 2});
        const at::Tensor u = at::tensor({255, 0, 1, 2}, at::kByte).view({2, 2});
        const at::Tensor yu = runOne("aten._int_mm.default", {u, b}, json::object(), {{2, 2}});
        QCOMPARE(yu.scalar_type(), at::kInt);
        QVERIFY(at::equal(yu, at::tensor({255, -255, 5, 5}, at::kInt).view({2, 2})));
        const at::Tensor c = at::tensor({-128, 127, 1, 0}, at::kChar).view({2, 2});
        const at::Tensor yc = runOne("aten._int_mm.default", {c, b}, json::object(), {{2, 2}});
        QVERIFY(at::equal(yc, at::tensor({126, 509, 1, -1}, at::kInt).view({2, 2})));
        if (TORCH_VERSION_MAJOR < 2)  // irscope's own _int_mm; 2.x has PyTorch's, with its own words
            QVERIFY(contains(failureOf("aten._int_mm.default", {b, u}, json::object()), "int8 mat2"));
    }

    void weightInt8PackMm() {
        // K = 64: PyTorch 2.x's own bfloat16 kernel reads whole blocks of K (K = 4 crashed it).
        at::Tensor x = at::randn({3, 64}), w = at::randint(-128, 128, {2, 64}).to(at::kChar), sc = at::rand({2}) + 0.1;
        // y[m, n] = sum_k x[m, k] * w[n, k] * sc[n], in double from the values the op is given.
        auto reference = [&](const at::Tensor& xs, const at::Tensor& scales) {
            at::Tensor ref = at::empty({3, 2}, at::kDouble);
            for (int64_t m = 0; m < 3; ++m)
                for (int64_t n = 0; n < 2; ++n) {
                    double acc = 0;
                    for (int64_t k = 0; k < 64; ++k)
                        acc += xs.index({m, k}).item<double>() * w.index({n, k}).item<double>();
                    ref.index_put_({m, n}, acc * scales[n].item<double>());
                }
            return ref;
        };
        at::Tensor y = runOne("aten._weight_int8pack_mm.default", {x, w, sc}, json::object(), {{3, 2}});
        QCOMPARE(y.scalar_type(), at::kFloat);
        QVERIFY(close(y, reference(x, sc), 1e-5, 1e-4));
        // Scales in x's dtype, as PyTorch 2.x's own kernel requires; the
        // reference uses the same bfloat16-rounded values, so what is left is
        // the output's rounding.
        const at::Tensor xb = x.to(at::kBFloat16), sb = sc.to(at::kBFloat16);
        at::Tensor yb = runOne("aten._weight_int8pack_mm.default", {xb, w, sb}, json::object(), {{3, 2}});
        QCOMPARE(yb.scalar_type(), at::kBFloat16);
        QVERIFY(close(yb, reference(xb, sb), 2e-2, 2e-1));
    }

    void groupedMm() {
        if (TORCH_VERSION_MAJOR >= 2)
            QSKIP("tests irscope's equivalent for libtorch 1.13; a 2.x libtorch runs its own op");
        at::Tensor offs = at::tensor({2, 5}, at::kInt);
        // 2-D x 3-D: rows [0,2) use expert 0, [2,5) expert 1, row 5 is past the last offset -> zeros.
        at::Tensor a = at::randn({6, 3}), b = at::randn({2, 3, 4});
        at::Tensor y = runOne("aten._grouped_mm.default", {a, b, offs}, json::object(), {{6, 4}});
        at::Tensor ref = at::zeros({6, 4}, at::kDouble);
        ref.narrow(0, 0, 2).copy_(naiveMm(a.narrow(0, 0, 2), b[0]));
        ref.narrow(0, 2, 3).copy_(naiveMm(a.narrow(0, 2, 3), b[1]));
        QVERIFY(close(y, ref));
        // 3-D x 2-D: columns ragged.
        at::Tensor a3 = at::randn({2, 3, 4}), b2 = at::randn({4, 5});
        at::Tensor y2 = runOne("aten._grouped_mm.default", {a3, b2, offs}, json::object(), {{3, 5}});
        at::Tensor ref2 = at::zeros({3, 5}, at::kDouble);
        ref2.narrow(1, 0, 2).copy_(naiveMm(a3[0], b2.narrow(1, 0, 2)));
        ref2.narrow(1, 2, 3).copy_(naiveMm(a3[1], b2.narrow(1, 2, 3)));
        QVERIFY(close(y2, ref2));
        // 2-D x 2-D: K ragged, one output per group; bf16 in, out_dtype float32.
        at::Tensor ak = at::randn({3, 5}).to(at::kBFloat16), bk = at::randn({5, 2}).to(at::kBFloat16);
        at::Tensor y3 =
            runOne("aten._grouped_mm.default", {ak, bk, offs}, json{{"out_dtype", "torch.float32"}}, {{2, 3, 2}});
        QCOMPARE(y3.scalar_type(), at::kFloat);
        QVERIFY(close(y3[0], naiveMm(ak.narrow(1, 0, 2), bk.narrow(0, 0, 2)), 1e-5, 1e-5));
        QVERIFY(close(y3[1], naiveMm(ak.narrow(1, 2, 3), bk.narrow(0, 2, 3)), 1e-5, 1e-5));
        // 3-D x 3-D: plain batched matmul, no offsets.
        at::Tensor y4 = runOne("aten._grouped_mm.default", {a3, at::randn({2, 4, 2})}, json::object(), {{2, 3, 2}});
        QCOMPARE(y4.sizes().vec(), (std::vector<int64_t>{2, 3, 2}));
    }

    void fp8AndInt4AreReportedAsUnsupported() {
        if (TORCH_VERSION_MAJOR >= 2)
            QSKIP("tests irscope's equivalent for libtorch 1.13; a 2.x libtorch runs its own op");
        const char* ops[] = {"aten._scaled_mm.default", "aten._weight_int4pack_mm.default",
                             "aten._convert_weight_to_int4pack.default"};
        for (const char* op : ops) {
            std::string err = failureOf(op, {at::ones({2, 2}), at::ones({2, 2})}, json::object());
            QVERIFY2(contains(err, "bad|"), err.c_str());  // names the node
            QVERIFY2(contains(err, "is not supported on this libtorch (1.13)"), err.c_str());
            QVERIFY2(!contains(err, "unknown op"), err.c_str());
        }
    }

    void nonzeroStaticPadsAndTrims() {
        at::Tensor x = at::tensor({0, 1, 2, 0, 3, 4}, at::kLong).reshape({3, 2});
        // nonzero in row-major order: (0,1) (1,0) (2,0) (2,1)
        at::Tensor padded = runOne("aten.nonzero_static.default", {x}, json{{"size", 6}}, {{6, 2}});
        QVERIFY(at::equal(padded, at::tensor({0, 1, 1, 0, 2, 0, 2, 1, -1, -1, -1, -1}, at::kLong).reshape({6, 2})));
        at::Tensor trimmed = runOne("aten.nonzero_static.default", {x}, json{{"size", 2}, {"fill_value", 7}}, {{2, 2}});
        QVERIFY(at::equal(trimmed, at::tensor({0, 1, 1, 0}, at::kLong).reshape({2, 2})));
    }

    // ---- schemas 2.x changed --------------------------------------------------

    void varStdCorrectionWith2xAttrs() {
        at::Tensor x = at::randn({2, 3});
        auto row = [&](int64_t r) {
            std::vector<double> v;
            for (int64_t c = 0; c < 3; ++c) v.push_back(x.index({r, c}).item<double>());
            return v;
        };
        auto col = [&](int64_t c) {
            return std::vector<double>{x.index({0, c}).item<double>(), x.index({1, c}).item<double>()};
        };
        std::vector<double> all = row(0);
        for (double v : row(1)) all.push_back(v);

        // {"correction": 0}: population variance over everything.
        at::Tensor v0 = runOne("aten.var.correction", {x}, json{{"correction", 0}}, {{}});
        QVERIFY(close(v0, at::scalar_tensor(sumSquares(all) / 6, at::kDouble)));
        // {"dim": [1], "correction": 1.0, "keepdim": true}: a float correction that is whole.
        at::Tensor v1 =
            runOne("aten.var.correction", {x}, json{{"dim", {1}}, {"correction", 1.0}, {"keepdim", true}}, {{2, 1}});
        QVERIFY(close(v1, at::tensor({sumSquares(row(0)) / 2, sumSquares(row(1)) / 2}).reshape({2, 1})));
        // No attrs at all: every dim, Bessel's correction.
        at::Tensor v2 = runOne("aten.var.correction", {x}, json::object(), {{}});
        QVERIFY(close(v2, at::scalar_tensor(sumSquares(all) / 5, at::kDouble)));
        // dim passed as None.
        at::Tensor v3 = runOne("aten.std.correction", {x}, json{{"dim", nullptr}, {"correction", 0}}, {{}});
        QVERIFY(close(v3, at::scalar_tensor(std::sqrt(sumSquares(all) / 6), at::kDouble)));
        // A fractional correction, which 1.13 cannot take as such: N - 0.5 = 1.5.
        at::Tensor v4 = runOne("aten.std.correction", {x}, json{{"dim", {0}}, {"correction", 0.5}}, {{3}});
        QVERIFY(close(v4, at::tensor({std::sqrt(sumSquares(col(0)) / 1.5), std::sqrt(sumSquares(col(1)) / 1.5),
                                      std::sqrt(sumSquares(col(2)) / 1.5)})));
        // var_mean / std_mean: both outputs.
        at::Tensor vm = runOne("aten.var_mean.correction", {x}, json{{"dim", {1}}, {"correction", 0}}, {{2}, {2}}, 0);
        at::Tensor mm = runOne("aten.var_mean.correction", {x}, json{{"dim", {1}}, {"correction", 0}}, {{2}, {2}}, 1);
        QVERIFY(close(vm, at::tensor({sumSquares(row(0)) / 3, sumSquares(row(1)) / 3})));
        double m0 = (row(0)[0] + row(0)[1] + row(0)[2]) / 3, m1 = (row(1)[0] + row(1)[1] + row(1)[2]) / 3;
        QVERIFY(close(mm, at::tensor({m0, m1})));
        at::Tensor sm = runOne("aten.std_mean.correction", {x}, json::object(), {{}, {}}, 0);
        QVERIFY(close(sm, at::scalar_tensor(std::sqrt(sumSquares(all) / 5), at::kDouble)));
    }

    void stftDropsDefaultAlignToWindow() {
        if (TORCH_VERSION_MAJOR >= 2)
            QSKIP("tests irscope's equivalent for libtorch 1.13; a 2.x libtorch runs its own op");
        at::Tensor x = at::randn({16}), win = at::rand({8}) + 0.5;
        // What torch.stft(x, 8, 4, window=win, center=False, return_complex=True) exports.
        json attrs{{"n_fft", 8},          {"hop_length", 4},        {"win_length", nullptr},     {"normalized", false},
                   {"onesided", nullptr}, {"return_complex", true}, {"align_to_window", nullptr}};
        at::Tensor y = runOne("aten.stft.default", {x, win}, attrs, {{5, 3}});
        QVERIFY(y.defined() && y.is_complex());
        // X[f, m] = sum_k win[k] x[m*4 + k] exp(-2 pi i f k / 8), onesided: f = 0..4, frames m = 0..2.
        at::Tensor ref = at::empty({5, 3, 2}, at::kDouble);
        for (int64_t f = 0; f < 5; ++f)
            for (int64_t m = 0; m < 3; ++m) {
                double re = 0, im = 0;
                for (int64_t k = 0; k < 8; ++k) {
                    double v = win[k].item<double>() * x[m * 4 + k].item<double>(), ang = -2 * M_PI * f * k / 8.0;
                    re += v * std::cos(ang);
                    im += v * std::sin(ang);
                }
                ref.index_put_({f, m, 0}, re);
                ref.index_put_({f, m, 1}, im);
            }
        QVERIFY(close(at::view_as_real(y), ref, 1e-5, 1e-5));
        // Any align_to_window is harmless when the window fills n_fft...
        attrs["align_to_window"] = true;
        at::Tensor y2 = runOne("aten.stft.default", {x, win}, attrs, {{5, 3}});
        QVERIFY(y2.defined() && at::equal(y2, y));
        // ... but not with a shorter window, where it moves the window: a clear error.
        attrs["win_length"] = 4;
        std::string err = failureOf("aten.stft.default", {x, at::ones({4})}, attrs);
        QVERIFY2(contains(err, "bad|") && contains(err, "align_to_window") && contains(err, "1.13"), err.c_str());
    }

    void padSequenceSides() {
        at::Tensor a = at::tensor({1.f, 2.f}), b = at::tensor({3.f, 4.f, 5.f});
        json lists{{"_tensor_list_sizes", {2}}};
        json right = lists;
        right["batch_first"] = true;
        right["padding_side"] = "right";
        QVERIFY(close(runOne("aten.pad_sequence.default", {a, b}, right, {{2, 3}}),
                      at::tensor({1.f, 2.f, 0.f, 3.f, 4.f, 5.f}).reshape({2, 3})));
        json left = lists;
        left["padding_value"] = -1.0;
        left["padding_side"] = "left";  // time-major: [T, B]
        QVERIFY(close(runOne("aten.pad_sequence.default", {a, b}, left, {{3, 2}}),
                      at::tensor({-1.f, 3.f, 1.f, 4.f, 2.f, 5.f}).reshape({3, 2})));
        json bad = lists;
        bad["padding_side"] = "middle";
        std::string err = failureOf("aten.pad_sequence.default", {a, b}, bad);
        QVERIFY2(contains(err, "padding_side") && contains(err, "middle"), err.c_str());
    }

    void onlyChangedSchemasShadow113Ops() {
        if (TORCH_VERSION_MAJOR >= 2)
            QSKIP("tests irscope's equivalent for libtorch 1.13; a 2.x libtorch runs its own op");
        // An equivalent is taken before the dispatcher; only ops whose schema 2.x changed may do that.
        // (_assert_tensor_metadata: 2.x added keyword device and layout.)
        std::vector<std::string> expected{"aten::_assert_tensor_metadata",
                                          "aten::pad_sequence",
                                          "aten::std.correction",
                                          "aten::std_mean.correction",
                                          "aten::stft",
                                          "aten::stft.center",
                                          "aten::var.correction",
                                          "aten::var_mean.correction"};
        QCOMPARE(compatOpsShadowingDispatcher(), expected);
    }

    // validate and the .pt2 reader read arguments from the light op-schema
    // table (core/ir/op_schema_table.h, its own parser); the executor binds
    // with libtorch's parse of the schema it resolves (an equivalent's 2.x
    // schema or the dispatcher's). Every op of the table must read the same
    // argument names and tensor kinds both ways, and every op the table lists
    // must be one the executor can resolve.
    void opSchemaTableReadsAsTheExecutorBinds() {
        QStringList differ, unresolved;
        for (size_t i = 0; i < ir::opSchemaCount(); ++i) {
            const std::string opType(ir::opSchemaTypeAt(i));
            const ir::OpSchema* light = ir::findOpSchema(opType);
            QVERIFY(light);
            auto name = operatorNameOf(opType);
            QVERIFY2(name, opType.c_str());
            const c10::FunctionSchema* schema = nullptr;
            auto handle = c10::Dispatcher::singleton().findSchema(*name);
            const CompatOp* compat = findCompatOp(*name);
            if (compat && (!handle || (compat->shadowsDispatcherOp && TORCH_VERSION_MAJOR < 2)))
                schema = compat->schema;
            else if (handle)
                schema = &handle->schema();
            if (!schema) {
                if (!unsupportedReason(*name)) unresolved << QString::fromStdString(opType);
                continue;
            }
            bool same = schema->arguments().size() == light->args.size();
            for (size_t a = 0; same && a < light->args.size(); ++a) {
                const auto& arg = schema->arguments()[a];
                const auto kind = arg.type()->kind();
                ir::SchemaArgKind expected = ir::SchemaArgKind::Other;
                if (kind == c10::TypeKind::TensorType) expected = ir::SchemaArgKind::Tensor;
                if (kind == c10::TypeKind::OptionalType &&
                    arg.type()->castRaw<c10::OptionalType>()->getElementType()->kind() == c10::TypeKind::TensorType)
                    expected = ir::SchemaArgKind::OptionalTensor;
                if (kind == c10::TypeKind::ListType) {
                    const auto& e = arg.type()->castRaw<c10::ListType>()->getElementType();
                    if (e->kind() == c10::TypeKind::TensorType) expected = ir::SchemaArgKind::TensorList;
                    if (e->kind() == c10::TypeKind::OptionalType &&
                        e->castRaw<c10::OptionalType>()->getElementType()->kind() == c10::TypeKind::TensorType)
                        expected = ir::SchemaArgKind::OptionalTensorList;
                }
                same = arg.name() == light->args[a].name && expected == light->args[a].kind &&
                       arg.kwarg_only() == light->args[a].kwargOnly &&
                       (arg.alias_info() && arg.alias_info()->isWrite()) == light->args[a].writes;
            }
            if (!same) differ << QString::fromStdString(opType);
        }
        QVERIFY2(differ.isEmpty(), qPrintable("read differently: " + differ.join(", ")));
        QVERIFY2(unresolved.isEmpty(), qPrintable("listed but not runnable: " + unresolved.join(", ")));
    }

    void functionalAssertScalar() {
        at::Tensor token = at::empty({0});
        at::Tensor y =
            runOne("aten._functional_assert_scalar.default", {token}, json{{"self", 1}, {"assert_msg", "ok"}}, {{0}});
        QVERIFY(y.defined());
        std::string err = failureOf("aten._functional_assert_scalar.default", {token},
                                    json{{"self", 0}, {"assert_msg", "u0 >= 0 failed"}});
        QVERIFY2(contains(err, "u0 >= 0 failed"), err.c_str());
    }

    void preluKernel() {
        at::Tensor x = at::tensor({-2.f, 3.f}), w = at::tensor({0.25f});
        at::Tensor y = runOne("aten._prelu_kernel.default", {x, w}, json::object(), {{2}});
        QVERIFY(close(y, at::tensor({-0.5f, 3.f})));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestCompatOps)
#include "test_compat_ops.moc"
