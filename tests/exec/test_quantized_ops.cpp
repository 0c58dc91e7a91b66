// PyTorch's quantized_decomposed ops (what PT2E quantization leaves in a
// program) run through irscope's equivalents (core/exec/compat/
// compat_quantized.cpp) as IR nodes, compared bit for bit with PyTorch 2.13's
// own results on the same inputs (tests/data/quantized/make_quantized_ops.py:
// elementwise arithmetic and rounding, alike on every x86-64 processor),
// inputs on the rounding boundaries included. Integer results stay integers.
#include "exec_test_util.h"
#include "test_support.h"

#include "core/exec/engine/session.h"
#include "core/io/tensor_dtype.h"
#include "core/io/tensor_file.h"

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;
using namespace irscope::exec::test;

namespace {

const io::TensorMap& quantizedFixture() {
    static const io::TensorMap m = io::readTensorFile(irscope::test::dataPath("quantized/quantized_ops.pt"));
    return m;
}

at::Tensor fixtureTensor(const std::string& name) {
    const at::Tensor* t = quantizedFixture().find(name);
    if (!t) qFatal("quantized_ops.pt has no %s: run make_quantized_ops.py", name.c_str());
    return *t;
}

// Runs op_type over the case's inputs (graph inputs q0..qN) with `attrs`;
// the outputs, or empty with `error` set.
std::vector<at::Tensor> runQuantizedOp(const std::string& opType, const std::string& caseName, size_t nInputs,
                                       size_t nOutputs, json attrs, std::string* error = nullptr) {
    json gin = json::array(), nin = json::array(), outs = json::array();
    io::TensorMap values;
    for (size_t i = 0; i < nInputs; ++i) {
        const at::Tensor t = fixtureTensor(caseName + ".in" + std::to_string(i));
        std::string name = "q";  // appended piecewise: GCC 12 -O3 warns (falsely) on "q" + std::string
        name += std::to_string(i);
        const std::string dt = io::scalarTypeName(t.scalar_type());
        gin.push_back(meta(name, t.sizes().vec(), dt));
        nin.push_back(meta(name, t.sizes().vec(), dt, name));
        values.insert(name, t);
    }
    for (size_t k = 0; k < nOutputs; ++k) {
        const at::Tensor t = fixtureTensor(caseName + ".out" + std::to_string(k));
        std::string name = "n";
        if (nOutputs > 1) {
            name += '_';
            name += std::to_string(k);
        }
        outs.push_back(meta(name, t.sizes().vec(), io::scalarTypeName(t.scalar_type())));
    }
    const ir::Graph g = graphOf(gin, outs, json::array({node("n", opType, nin, outs, std::move(attrs))}));
    Session s(g);
    s.setInputs(values);
    const RunResult r = s.runToEnd();
    if (r.error) {
        if (error) *error = r.error->message;
        return {};
    }
    std::vector<at::Tensor> results;
    for (size_t k = 0; k < nOutputs; ++k) {
        at::Tensor t;
        s.value(outs[k]["name"].get<std::string>(), t);
        results.push_back(t);
    }
    return results;
}

// Same dtype, same shape, same bits.
void verifyExact(const std::vector<at::Tensor>& got, const std::string& caseName) {
    QVERIFY2(!got.empty(), caseName.c_str());
    for (size_t k = 0; k < got.size(); ++k) {
        const at::Tensor want = fixtureTensor(caseName + ".out" + std::to_string(k));
        const std::string what = caseName + " output " + std::to_string(k);
        QVERIFY2(got[k].defined(), what.c_str());
        QVERIFY2(got[k].scalar_type() == want.scalar_type(), (what + ": " + io::scalarTypeName(got[k].scalar_type()) +
                                                              ", PyTorch's " + io::scalarTypeName(want.scalar_type()))
                                                                 .c_str());
        QVERIFY2(got[k].sizes().equals(want.sizes()), what.c_str());
        const int64_t differ = at::ne(got[k], want).sum().item<int64_t>();
        QVERIFY2(differ == 0, (what + ": " + std::to_string(differ) + " elements differ from PyTorch's").c_str());
    }
}

json qparams(double scale, int64_t zeroPoint, int64_t qmin, int64_t qmax, const char* dtype) {
    return json{
        {"scale", scale}, {"zero_point", zeroPoint}, {"quant_min", qmin}, {"quant_max", qmax}, {"dtype", dtype}};
}

json bounds(int64_t qmin, int64_t qmax, const char* dtype) {
    return json{{"quant_min", qmin}, {"quant_max", qmax}, {"dtype", dtype}};
}

}  // namespace

class TestQuantizedOps : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void perTensor() {
        verifyExact(runQuantizedOp("quantized_decomposed.quantize_per_tensor.default", "quantize_per_tensor", 1, 1,
                                   qparams(0.0237, 3, -128, 127, "torch.int8")),
                    "quantize_per_tensor");
        verifyExact(runQuantizedOp("quantized_decomposed.dequantize_per_tensor.default", "dequantize_per_tensor", 1, 1,
                                   qparams(0.0237, 3, -128, 127, "torch.int8")),
                    "dequantize_per_tensor");
        verifyExact(runQuantizedOp("quantized_decomposed.quantize_per_tensor.default", "quantize_per_tensor_uint8", 1,
                                   1, qparams(0.05, 128, 0, 255, "torch.uint8")),
                    "quantize_per_tensor_uint8");
        // float16 is quantized from float32, as PyTorch does.
        verifyExact(runQuantizedOp("quantized_decomposed.quantize_per_tensor.default", "quantize_per_tensor_half", 1, 1,
                                   qparams(0.0237, -2, -128, 127, "torch.int8")),
                    "quantize_per_tensor_half");
    }

    void perTensorWithTensorQParams() {
        verifyExact(runQuantizedOp("quantized_decomposed.quantize_per_tensor.tensor", "quantize_per_tensor_tensor", 3,
                                   1, bounds(-128, 127, "torch.int8")),
                    "quantize_per_tensor_tensor");
        verifyExact(runQuantizedOp("quantized_decomposed.dequantize_per_tensor.tensor", "dequantize_per_tensor_tensor",
                                   3, 1, bounds(-128, 127, "torch.int8")),
                    "dequantize_per_tensor_tensor");
    }

    void perChannel() {
        json attrs = bounds(-128, 127, "torch.int8");
        attrs["axis"] = 1;
        verifyExact(
            runQuantizedOp("quantized_decomposed.quantize_per_channel.default", "quantize_per_channel", 3, 1, attrs),
            "quantize_per_channel");
        verifyExact(runQuantizedOp("quantized_decomposed.dequantize_per_channel.default", "dequantize_per_channel", 3,
                                   1, attrs),
                    "dequantize_per_channel");
        // zero_points=None: pytorch-ir's JSON drops it, so two inputs read as (input, scales).
        verifyExact(runQuantizedOp("quantized_decomposed.dequantize_per_channel.default",
                                   "dequantize_per_channel_no_zero_points", 2, 1, attrs),
                    "dequantize_per_channel_no_zero_points");
    }

    void chooseQParams() {
        const double eps = std::numeric_limits<float>::epsilon();
        json attrs = bounds(-128, 127, "torch.int8");
        attrs["eps"] = eps;
        verifyExact(runQuantizedOp("quantized_decomposed.choose_qparams.tensor", "choose_qparams", 1, 2, attrs),
                    "choose_qparams");
        json symmetric = bounds(0, 255, "torch.uint8");
        symmetric["eps"] = eps;
        verifyExact(runQuantizedOp("quantized_decomposed.choose_qparams_symmetric.tensor", "choose_qparams_symmetric",
                                   1, 2, symmetric),
                    "choose_qparams_symmetric");
        verifyExact(runQuantizedOp("quantized_decomposed.quantize_per_tensor.tensor", "quantize_chosen", 3, 1,
                                   bounds(-128, 127, "torch.int8")),
                    "quantize_chosen");
    }

    void perToken() {
        verifyExact(runQuantizedOp("quantized_decomposed.choose_qparams_per_token_asymmetric.default",
                                   "choose_qparams_per_token_asymmetric", 1, 2, json{{"dtype", "torch.int8"}}),
                    "choose_qparams_per_token_asymmetric");
        verifyExact(runQuantizedOp("quantized_decomposed.quantize_per_token.default", "quantize_per_token", 3, 1,
                                   bounds(-128, 127, "torch.int8")),
                    "quantize_per_token");
        json attrs = bounds(-128, 127, "torch.int8");
        attrs["output_dtype"] = "torch.float32";
        verifyExact(
            runQuantizedOp("quantized_decomposed.dequantize_per_token.default", "dequantize_per_token", 3, 1, attrs),
            "dequantize_per_token");
    }

    // torchao's affine ops: per row, per group of 4, an int4 range kept in
    // int8, bfloat16 in and out; scale and zero point chosen by torchao's
    // choose_qparams_affine (SYMMETRIC, ASYMMETRIC, SYMMETRIC_NO_CLIPPING_ERR).
    void torchaoAffine() {
        verifyExact(runQuantizedOp(
                        "torchao.choose_qparams_affine.default", "choose_qparams_affine_symmetric", 1, 2,
                        json{{"mapping_type", "SYMMETRIC"}, {"block_size", {1, 16}}, {"target_dtype", "torch.int8"}}),
                    "choose_qparams_affine_symmetric");
        const json perRow{{"block_size", {1, 16}}, {"output_dtype", "torch.int8"}};
        verifyExact(runQuantizedOp("torchao.quantize_affine.default", "quantize_affine_per_row", 3, 1, perRow),
                    "quantize_affine_per_row");
        verifyExact(runQuantizedOp("torchao.dequantize_affine.default", "dequantize_affine_per_row", 3, 1,
                                   json{{"block_size", {1, 16}}, {"input_dtype", "torch.int8"}}),
                    "dequantize_affine_per_row");
        verifyExact(
            runQuantizedOp("torchao.choose_qparams_affine.default", "choose_qparams_affine_asymmetric_groups", 1, 2,
                           json{{"mapping_type", "ASYMMETRIC"},
                                {"block_size", {1, 4}},
                                {"target_dtype", "torch.uint8"},
                                {"scale_dtype", "torch.float32"},
                                {"zero_point_dtype", "torch.int32"}}),
            "choose_qparams_affine_asymmetric_groups");
        verifyExact(runQuantizedOp("torchao.quantize_affine.default", "quantize_affine_groups", 3, 1,
                                   json{{"block_size", {1, 4}}, {"output_dtype", "torch.uint8"}}),
                    "quantize_affine_groups");
        verifyExact(
            runQuantizedOp(
                "torchao.dequantize_affine.default", "dequantize_affine_groups_bf16", 3, 1,
                json{{"block_size", {1, 4}}, {"input_dtype", "torch.uint8"}, {"output_dtype", "torch.bfloat16"}}),
            "dequantize_affine_groups_bf16");
        verifyExact(runQuantizedOp("torchao.choose_qparams_affine.default", "choose_qparams_affine_int4_keepdim", 1, 2,
                                   json{{"mapping_type", "SYMMETRIC_NO_CLIPPING_ERR"},
                                        {"block_size", {1, 8}},
                                        {"target_dtype", "torch.int8"},
                                        {"quant_min", -8},
                                        {"quant_max", 7},
                                        {"keepdim", true}}),
                    "choose_qparams_affine_int4_keepdim");
        verifyExact(
            runQuantizedOp(
                "torchao.quantize_affine.default", "quantize_affine_bf16_int4", 3, 1,
                json{{"block_size", {1, 8}}, {"output_dtype", "torch.int8"}, {"quant_min", -8}, {"quant_max", 7}}),
            "quantize_affine_bf16_int4");
    }

    // PyTorch's own checks: an int8 range beyond int8, an input of the wrong dtype.
    void refusesWhatPyTorchRefuses() {
        std::string error;
        const auto wide = runQuantizedOp("quantized_decomposed.quantize_per_tensor.default", "quantize_per_tensor", 1,
                                         1, qparams(0.0237, 3, -200, 127, "torch.int8"), &error);
        QVERIFY(wide.empty());
        QVERIFY2(error.find("quant_min -200 is below") != std::string::npos, error.c_str());
        const auto wrong = runQuantizedOp("quantized_decomposed.dequantize_per_tensor.default", "dequantize_per_tensor",
                                          1, 1, qparams(0.0237, 3, 0, 255, "torch.uint8"), &error);
        QVERIFY(wrong.empty());
        QVERIFY2(error.find("expected a Byte input, got Char") != std::string::npos, error.c_str());
    }

    // An op of the namespace irscope has no equivalent for says whose it is.
    void otherPythonDefinedOpsSayWhoseTheyAre() {
        std::string error;
        const auto r = runQuantizedOp("quantized_decomposed.fake_quant_per_channel.default", "quantize_per_channel", 3,
                                      1, json::object(), &error);
        QVERIFY(r.empty());
        QVERIFY2(error.find("PyTorch defines it in Python") != std::string::npos &&
                     error.find("custom op") == std::string::npos,
                 error.c_str());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestQuantizedOps)
#include "test_quantized_ops.moc"
