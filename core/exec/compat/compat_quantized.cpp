// PyTorch's own quantize and dequantize ops (namespace quantized_decomposed),
// which PT2E quantization (torchao's prepare_pt2e / convert_pt2e) leaves in a
// program. PyTorch defines them in Python (torch/ao/quantization/fx/
// _decomposed.py), so no libtorch, 1.13 or 2.x, has a kernel for them: each
// is rebuilt here from the same ATen ops in the same order, which makes the
// result PyTorch's bit for bit (the scalar types of every step matter: a
// Python float scale is a double, `1.0 / scales` is a float32 reciprocal).
// Integer results stay integers. Tested against PyTorch's own outputs in
// tests/exec/test_compat_ops.cpp and on PT2E programs in cli.pt2_programs.
#include <limits>

#include <ATen/ATen.h>

#include "core/exec/compat/compat_ops_internal.h"

namespace irscope::exec::compat {
namespace {

using Stack = torch::jit::Stack;
using Tensors = std::vector<at::Tensor>;

at::ScalarType scalarType(const c10::IValue& v) { return static_cast<at::ScalarType>(v.toInt()); }

// The range each quantized dtype can hold, as _DTYPE_TO_QVALUE_BOUNDS.
void checkBounds(const char* op, int64_t qmin, int64_t qmax, at::ScalarType dtype) {
    int64_t lo = 0, hi = 0;
    switch (dtype) {
    case at::kByte: lo = 0, hi = 255; break;
    case at::kChar: lo = -128, hi = 127; break;
    case at::kShort: lo = -32768, hi = 32767; break;
    case at::kInt: lo = -(int64_t(1) << 31), hi = (int64_t(1) << 31) - 1; break;
    default: TORCH_CHECK(false, op, ": unsupported quantized dtype ", dtype);
    }
    TORCH_CHECK(qmin >= lo, op, ": quant_min ", qmin, " is below ", dtype, "'s lower bound ", lo);
    TORCH_CHECK(qmax <= hi, op, ": quant_max ", qmax, " is above ", dtype, "'s upper bound ", hi);
}

// float16 and bfloat16 are quantized from float32, as PyTorch does.
at::Tensor floatInput(const char* op, at::Tensor x) {
    if (x.scalar_type() == at::kHalf || x.scalar_type() == at::kBFloat16) x = x.to(at::kFloat);
    TORCH_CHECK(x.scalar_type() == at::kFloat, op, ": expected a float32 input, got ", x.scalar_type());
    return x;
}

double scalarOf(const char* op, const at::Tensor& t, const char* what) {
    TORCH_CHECK(t.numel() == 1, op, ": expected a one-element ", what, ", got ", t.sizes());
    return t.item<double>();
}

int64_t intOf(const char* op, const at::Tensor& t, const char* what) {
    TORCH_CHECK(t.numel() == 1, op, ": expected a one-element ", what, ", got ", t.sizes());
    return t.item<int64_t>();
}

at::Tensor quantizePerTensor(at::Tensor x, double scale, int64_t zeroPoint, int64_t qmin, int64_t qmax,
                             at::ScalarType dtype) {
    x = floatInput("quantize_per_tensor", x);
    checkBounds("quantize_per_tensor", qmin, qmax, dtype);
    const double invScale = 1.0 / scale;
    return at::clamp(at::round(x * invScale) + zeroPoint, qmin, qmax).to(dtype);
}

at::Tensor dequantizePerTensor(const at::Tensor& q, double scale, int64_t zeroPoint, at::ScalarType dtype,
                               const c10::IValue& outDtype) {
    TORCH_CHECK(q.scalar_type() == dtype, "dequantize_per_tensor: expected a ", dtype, " input, got ", q.scalar_type());
    const at::ScalarType out = outDtype.isNone() ? at::kFloat : scalarType(outDtype);
    return (q.to(out) - zeroPoint) * scale;
}

// (input, scale, zero_point, quant_min, quant_max, dtype)
Tensors quantizePerTensorDefault(Stack& s) {
    return {quantizePerTensor(s[0].toTensor(), s[1].toDouble(), s[2].toInt(), s[3].toInt(), s[4].toInt(),
                              scalarType(s[5]))};
}
Tensors quantizePerTensorTensor(Stack& s) {
    const char* op = "quantize_per_tensor.tensor";
    return {quantizePerTensor(s[0].toTensor(), scalarOf(op, s[1].toTensor(), "scale"),
                              intOf(op, s[2].toTensor(), "zero_point"), s[3].toInt(), s[4].toInt(), scalarType(s[5]))};
}
Tensors quantizePerTensorTensor2(Stack& s) {
    const char* op = "quantize_per_tensor.tensor2";
    return {quantizePerTensor(s[0].toTensor(), scalarOf(op, s[1].toTensor(), "scale"),
                              intOf(op, s[2].toTensor(), "zero_point"), intOf(op, s[3].toTensor(), "quant_min"),
                              intOf(op, s[4].toTensor(), "quant_max"), scalarType(s[5]))};
}

// (input, scale, zero_point, quant_min, quant_max, dtype, *, out_dtype)
Tensors dequantizePerTensorDefault(Stack& s) {
    return {dequantizePerTensor(s[0].toTensor(), s[1].toDouble(), s[2].toInt(), scalarType(s[5]), s[6])};
}
Tensors dequantizePerTensorTensor(Stack& s) {
    const char* op = "dequantize_per_tensor.tensor";
    return {dequantizePerTensor(s[0].toTensor(), scalarOf(op, s[1].toTensor(), "scale"),
                                intOf(op, s[2].toTensor(), "zero_point"), scalarType(s[5]), s[6])};
}

// Swaps `axis` with dim 0 (what _permute_to_axis_zero does; its own inverse).
std::vector<int64_t> swapWithFirst(int64_t dims, int64_t axis) {
    std::vector<int64_t> order(static_cast<size_t>(dims));
    for (int64_t i = 0; i < dims; ++i) order[static_cast<size_t>(i)] = i;
    order[static_cast<size_t>(axis)] = 0;
    order[0] = axis;
    return order;
}

// scales viewed as [C, 1, 1, ...] against the input moved to channels first.
std::vector<int64_t> channelShape(int64_t dims, const at::Tensor& scales) {
    std::vector<int64_t> shape(static_cast<size_t>(dims), 1);
    shape[0] = scales.size(0);
    return shape;
}

int64_t checkedAxis(const char* op, int64_t axis, const at::Tensor& x) {
    TORCH_CHECK(axis >= 0 && axis < x.dim(), op, ": axis ", axis, " is not a dim of a ", x.dim(), "-d input");
    return axis;
}

// (input, scales, zero_points, axis, quant_min, quant_max, dtype)
Tensors quantizePerChannel(Stack& s) {
    const char* op = "quantize_per_channel";
    at::Tensor x = floatInput(op, s[0].toTensor());
    const at::Tensor scales = s[1].toTensor(), zeroPoints = s[2].toTensor();
    const int64_t axis = checkedAxis(op, s[3].toInt(), x), qmin = s[4].toInt(), qmax = s[5].toInt();
    const at::ScalarType dtype = scalarType(s[6]);
    checkBounds(op, qmin, qmax, dtype);
    const auto order = swapWithFirst(x.dim(), axis);
    const at::Tensor y = x.permute(order);
    const auto shape = channelShape(y.dim(), scales);
    // Python's `1.0 / scales` is Tensor.__rtruediv__: reciprocal, times 1.0.
    const at::Tensor inv = scales.view(shape).reciprocal() * 1.0;
    const at::Tensor res = at::clamp(at::round(y * inv) + zeroPoints.view(shape), qmin, qmax);
    return {res.permute(order).to(dtype)};
}

// (input, scales, zero_points?, axis, quant_min, quant_max, dtype, *, out_dtype)
Tensors dequantizePerChannel(Stack& s) {
    const char* op = "dequantize_per_channel";
    const at::Tensor q = s[0].toTensor(), scales = s[1].toTensor();
    const int64_t axis = checkedAxis(op, s[3].toInt(), q), qmin = s[4].toInt(), qmax = s[5].toInt();
    const at::ScalarType dtype = scalarType(s[6]);
    TORCH_CHECK(q.scalar_type() == dtype, op, ": expected a ", dtype, " input, got ", q.scalar_type());
    checkBounds(op, qmin, qmax, dtype);
    const at::ScalarType out = s[7].isNone() ? at::kFloat : scalarType(s[7]);
    const auto order = swapWithFirst(q.dim(), axis);
    const at::Tensor y = q.permute(order);
    const auto shape = channelShape(y.dim(), scales);
    at::Tensor res = s[2].isNone() ? y * scales.view(shape) : (y - s[2].toTensor().view(shape)) * scales.view(shape);
    return {res.to(out).permute(order)};
}

// determine_qparams (torch/ao/quantization/utils.py) for one min and max,
// affine or symmetric: scale as float64 and zero point as int64, shape [1].
Tensors determineQParams(const char* op, const at::Tensor& input, int64_t qmin, int64_t qmax, double eps,
                         at::ScalarType dtype, bool symmetric) {
    const auto t = input.scalar_type();
    TORCH_CHECK(t == at::kFloat || t == at::kHalf || t == at::kBFloat16, op,
                ": expected a float32, float16 or bfloat16 input, got ", t);
    checkBounds(op, qmin, qmax, dtype);
    TORCH_CHECK(qmin <= qmax, op, ": quant_min ", qmin, " is above quant_max ", qmax);
    TORCH_CHECK(input.numel() > 0, op, ": an empty input has no range");
    auto [minVal, maxVal] = at::aminmax(input);
    TORCH_CHECK(!(minVal.item<double>() > maxVal.item<double>()), op, ": the input's minimum is above its maximum");
    at::Tensor minNeg = at::minimum(minVal, at::zeros_like(minVal));
    at::Tensor maxPos = at::maximum(maxVal, at::zeros_like(maxVal));
    const at::Tensor epsT = at::tensor({static_cast<float>(eps)});  // torch.Tensor([eps]): float32, shape [1]
    at::Tensor zeroPoint = at::zeros(minNeg.sizes(), at::kLong);
    at::Tensor scale;
    if (symmetric) {
        maxPos = at::maximum(-minNeg, maxPos);
        scale = at::maximum(maxPos / (static_cast<double>(qmax - qmin) / 2), epsT);
        if (dtype == at::kByte) zeroPoint = at::full(zeroPoint.sizes(), 128, at::kLong);
    } else {
        scale = at::maximum((maxPos - minNeg) / static_cast<double>(qmax - qmin), epsT);
        zeroPoint = at::clamp(at::rsub(at::round(minNeg / scale).to(at::kInt), qmin), qmin, qmax);
    }
    if (scale.dim() == 0) scale = scale.reshape({1});
    if (zeroPoint.dim() == 0) zeroPoint = zeroPoint.reshape({1});
    return {scale.to(at::kDouble), zeroPoint.to(at::kLong)};
}

// (input, quant_min, quant_max, eps, dtype) -> (scale, zero_point)
Tensors chooseQParamsTensor(Stack& s) {
    return determineQParams("choose_qparams.tensor", s[0].toTensor(), s[1].toInt(), s[2].toInt(), s[3].toDouble(),
                            scalarType(s[4]), false);
}
Tensors chooseQParamsSymmetricTensor(Stack& s) {
    return determineQParams("choose_qparams_symmetric.tensor", s[0].toTensor(), s[1].toInt(), s[2].toInt(),
                            s[3].toDouble(), scalarType(s[4]), true);
}

// (input, dtype) -> (scales, zero_points), one per token (every dim but the
// last), as XNNPACK chooses them: _choose_qparams_per_token_asymmetric_impl.
Tensors chooseQParamsPerTokenAsymmetric(Stack& s) {
    const at::Tensor input = s[0].toTensor();
    const int64_t qmin = -128, qmax = 127;
    const at::Tensor minVal = at::amin(input, {-1}, true), maxVal = at::amax(input, {-1}, true);
    const at::Tensor minNeg = at::minimum(minVal, at::zeros_like(minVal));
    const at::Tensor maxPos = at::maximum(maxVal, at::zeros_like(maxVal));
    const double eps = std::numeric_limits<float>::epsilon();
    const at::Tensor scale = ((maxPos - minNeg) / static_cast<double>(qmax - qmin)).clamp_min(eps);
    const at::Tensor descaledMin = minNeg / scale, descaledMax = maxPos / scale;
    const at::Tensor fromMin = descaledMin + qmin, fromMax = descaledMax + qmax;
    const at::Tensor zeroPoint =
        at::where(fromMin + fromMax > 0, at::rsub(descaledMin, qmin), at::rsub(descaledMax, qmax));
    return {scale.to(at::kDouble), at::clamp(zeroPoint, qmin, qmax).round().to(at::kLong)};
}

void checkPerToken(const char* op, const at::Tensor& input, const at::Tensor& scales, const at::Tensor& zeroPoints) {
    int64_t tokens = 1;
    for (int64_t d = 0; d + 1 < input.dim(); ++d) tokens *= input.size(d);
    TORCH_CHECK(tokens == scales.numel() && tokens == zeroPoints.numel(), op, ": ", tokens, " tokens but ",
                scales.numel(), " scales and ", zeroPoints.numel(), " zero points");
}

// (input, scales, zero_points, quant_min, quant_max, dtype)
Tensors quantizePerToken(Stack& s) {
    const char* op = "quantize_per_token";
    const at::Tensor input = s[0].toTensor(), scales = s[1].toTensor(), zeroPoints = s[2].toTensor();
    const int64_t qmin = s[3].toInt(), qmax = s[4].toInt();
    const at::ScalarType dtype = scalarType(s[5]);
    checkBounds(op, qmin, qmax, dtype);
    checkPerToken(op, input, scales, zeroPoints);
    const at::Tensor inv = scales.reciprocal() * 1.0;
    return {input.mul(inv).add(zeroPoints).round().clamp(qmin, qmax).to(dtype)};
}

// (input, scales, zero_points, quant_min, quant_max, dtype, output_dtype)
Tensors dequantizePerToken(Stack& s) {
    const at::Tensor input = s[0].toTensor(), scales = s[1].toTensor(), zeroPoints = s[2].toTensor();
    return {((input - zeroPoints) * scales).to(scalarType(s[6]))};
}

}  // namespace

std::vector<Entry> quantizedEntries() {
    return {
        {"quantized_decomposed::quantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, "
         "int quant_max, ScalarType dtype) -> Tensor",
         quantizePerTensorDefault},
        {"quantized_decomposed::quantize_per_tensor.tensor(Tensor input, Tensor scale, Tensor zero_point, "
         "int quant_min, int quant_max, ScalarType dtype) -> Tensor",
         quantizePerTensorTensor},
        {"quantized_decomposed::quantize_per_tensor.tensor2(Tensor input, Tensor scale, Tensor zero_point, "
         "Tensor quant_min, Tensor quant_max, ScalarType dtype) -> Tensor",
         quantizePerTensorTensor2},
        {"quantized_decomposed::dequantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, "
         "int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
         dequantizePerTensorDefault},
        {"quantized_decomposed::dequantize_per_tensor.tensor(Tensor input, Tensor scale, Tensor zero_point, "
         "int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
         dequantizePerTensorTensor},
        {"quantized_decomposed::quantize_per_channel(Tensor input, Tensor scales, Tensor zero_points, int axis, "
         "int quant_min, int quant_max, ScalarType dtype) -> Tensor",
         quantizePerChannel},
        {"quantized_decomposed::dequantize_per_channel(Tensor input, Tensor scales, Tensor? zero_points, int axis, "
         "int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
         dequantizePerChannel},
        {"quantized_decomposed::choose_qparams.tensor(Tensor input, int quant_min, int quant_max, float eps, "
         "ScalarType dtype) -> (Tensor, Tensor)",
         chooseQParamsTensor},
        {"quantized_decomposed::choose_qparams_symmetric.tensor(Tensor input, int quant_min, int quant_max, "
         "float eps, ScalarType dtype) -> (Tensor, Tensor)",
         chooseQParamsSymmetricTensor},
        {"quantized_decomposed::choose_qparams_per_token_asymmetric(Tensor input, ScalarType dtype) -> "
         "(Tensor, Tensor)",
         chooseQParamsPerTokenAsymmetric},
        {"quantized_decomposed::quantize_per_token(Tensor input, Tensor scales, Tensor zero_points, "
         "int quant_min, int quant_max, ScalarType dtype) -> Tensor",
         quantizePerToken},
        {"quantized_decomposed::dequantize_per_token(Tensor input, Tensor scales, Tensor zero_points, "
         "int quant_min, int quant_max, ScalarType dtype, ScalarType output_dtype) -> Tensor",
         dequantizePerToken},
    };
}

}  // namespace irscope::exec::compat
