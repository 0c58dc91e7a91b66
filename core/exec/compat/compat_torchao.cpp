// torchao's affine quantization ops (namespace torchao): what torchao's
// quantize_ and its PT2E flows leave in an exported program as
// quantize_affine, dequantize_affine and choose_qparams_affine. torchao
// registers them from Python (torchao/quantization/quant_primitives.py), so no
// libtorch has a kernel for them: each is rebuilt here from the same ATen ops
// in the same order, with the same scalar types, which makes the result
// torchao's bit for bit. block_size says which elements share a scale: the
// input is viewed with each blocked dim split in two (_get_reduction_params)
// and the scale broadcast over the block. Integer results stay integers.
// Tested against torchao's own outputs in tests/exec/test_quantized_ops.cpp.
#include <cmath>
#include <limits>
#include <string>

#include <ATen/ATen.h>

#include "core/exec/compat/compat_ops_internal.h"

namespace irscope::exec::compat {
namespace {

using Stack = torch::jit::Stack;
using Tensors = std::vector<at::Tensor>;

at::ScalarType scalarTypeOf(const c10::IValue& v) { return static_cast<at::ScalarType>(v.toInt()); }

// The input's shape with every blocked dim split into (blocks, block), and the
// dims of that shape the blocks span (_get_reduction_params).
struct Reduction {
    std::vector<int64_t> shape;
    std::vector<int64_t> dims;
};

Reduction reductionOf(const char* op, const std::vector<int64_t>& block, at::IntArrayRef sizes) {
    TORCH_CHECK(block.size() == sizes.size(), op, ": block_size has ", block.size(), " dims, the input ", sizes.size());
    Reduction r;
    int64_t dim = 0;
    for (size_t i = 0; i < block.size(); ++i) {
        if (block[i] != sizes[i] && block[i] > 1) {
            TORCH_CHECK(sizes[i] % block[i] == 0, op, ": input size ", sizes[i], " at dim ", i,
                        " is not a multiple of its block size ", block[i]);
            r.shape.push_back(sizes[i] / block[i]);
            r.shape.push_back(block[i]);
            r.dims.push_back(dim + 1);
            dim += 2;
        } else {
            r.shape.push_back(sizes[i]);
            if (block[i] != 1) r.dims.push_back(dim);
            dim += 1;
        }
    }
    return r;
}

// The shape a per-block parameter is viewed as: the reduction's, blocks of one.
std::vector<int64_t> afterReduction(const Reduction& r) {
    std::vector<int64_t> shape = r.shape;
    for (int64_t d : r.dims) shape[static_cast<size_t>(d)] = 1;
    return shape;
}

// The value range of a quantized dtype (_DTYPE_TO_QVALUE_BOUNDS), narrowed by
// quant_min / quant_max when given (_get_and_check_qmin_qmax).
std::pair<c10::Scalar, c10::Scalar> qRange(const char* op, at::ScalarType dtype, const c10::IValue& qmin,
                                           const c10::IValue& qmax) {
    int64_t lo = 0, hi = 0;
    switch (dtype) {
    case at::kByte: lo = 0, hi = 255; break;
    case at::kChar: lo = -128, hi = 127; break;
    case at::kShort: lo = -32768, hi = 32767; break;
    case at::kInt: lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max(); break;
    default: TORCH_CHECK(false, op, ": irscope runs torchao's integer affine quantization, not ", dtype);
    }
    c10::Scalar min = qmin.isNone() ? c10::Scalar(lo) : qmin.toScalar();
    c10::Scalar max = qmax.isNone() ? c10::Scalar(hi) : qmax.toScalar();
    TORCH_CHECK(min.toDouble() >= static_cast<double>(lo), op, ": quant_min ", min.toDouble(), " is below ", dtype,
                "'s ", lo);
    TORCH_CHECK(max.toDouble() <= static_cast<double>(hi), op, ": quant_max ", max.toDouble(), " is above ", dtype,
                "'s ", hi);
    return {min, max};
}

// (input, block_size, scale, zero_point?, output_dtype, quant_min?, quant_max?)
Tensors quantizeAffine(Stack& s) {
    const char* op = "torchao.quantize_affine";
    const at::Tensor input = s[0].toTensor();
    TORCH_CHECK(
        input.scalar_type() == at::kFloat || input.scalar_type() == at::kHalf || input.scalar_type() == at::kBFloat16,
        op, ": expected a float32, float16 or bfloat16 input, got ", input.scalar_type());
    const auto block = s[1].toIntVector();
    const at::ScalarType dtype = scalarTypeOf(s[4]);
    const auto [qmin, qmax] = qRange(op, dtype, s[5], s[6]);
    const Reduction r = reductionOf(op, block, input.sizes());
    const auto paramShape = afterReduction(r);
    const at::Tensor x = input.view(r.shape);
    const at::Tensor scale = s[2].toTensor().view(paramShape);
    // Python's `1.0 / scale` is Tensor.__rtruediv__: reciprocal, times 1.0.
    at::Tensor q = at::round(x * (scale.reciprocal() * 1.0));
    if (!s[3].isNone() && s[3].toTensor().numel() > 0) q = q + s[3].toTensor().view(paramShape);
    return {at::clamp(q, qmin, qmax).view(input.sizes()).to(dtype)};
}

// (input, block_size, scale, zero_point?, input_dtype, quant_min?, quant_max?, output_dtype)
Tensors dequantizeAffine(Stack& s) {
    const char* op = "torchao.dequantize_affine";
    const at::Tensor input = s[0].toTensor();
    const at::ScalarType inDtype = scalarTypeOf(s[4]), outDtype = scalarTypeOf(s[7]);
    TORCH_CHECK(input.scalar_type() == inDtype, op, ": expected a ", inDtype, " input, got ", input.scalar_type());
    TORCH_CHECK(outDtype == at::kFloat || outDtype == at::kHalf || outDtype == at::kBFloat16, op, ": output dtype ",
                outDtype, " is not a floating type torchao allows");
    (void)qRange(op, inDtype, s[5], s[6]);
    const Reduction r = reductionOf(op, s[1].toIntVector(), input.sizes());
    const auto paramShape = afterReduction(r);
    at::Tensor dq = input.view(r.shape).to(outDtype, /*non_blocking=*/false, /*copy=*/true);
    if (!s[3].isNone()) dq = dq - s[3].toTensor().view(paramShape).to(outDtype);
    dq = dq * s[2].toTensor().view(paramShape);
    return {dq.view(input.sizes()).to(outDtype)};
}

// (input, mapping_type, block_size, target_dtype, quant_min?, quant_max?, eps?, scale_dtype?,
//  zero_point_dtype?, keepdim)
Tensors chooseQParamsAffine(Stack& s) {
    const char* op = "torchao.choose_qparams_affine";
    TORCH_CHECK(!s[0].isNone(), op, ": no input");
    const at::Tensor input = s[0].toTensor();
    const std::string mapping = s[1].toStringRef();
    const auto block = s[2].toIntVector();
    const auto [qminS, qmaxS] = qRange(op, scalarTypeOf(s[3]), s[4], s[5]);
    const int64_t qmin = qminS.toLong(), qmax = qmaxS.toLong();
    const at::ScalarType scaleDtype = s[7].isNone() ? input.scalar_type() : scalarTypeOf(s[7]);
    double eps = 0;
    if (!s[6].isNone()) {
        eps = s[6].toDouble();
    } else {
        switch (input.scalar_type()) {  // torch.finfo(dtype).smallest_normal
        case at::kFloat: eps = static_cast<double>(std::numeric_limits<float>::min()); break;
        case at::kDouble: eps = std::numeric_limits<double>::min(); break;
        case at::kHalf: eps = std::ldexp(1.0, -14); break;
        case at::kBFloat16: eps = std::ldexp(1.0, -126); break;
        default: TORCH_CHECK(false, op, ": expected a floating input, got ", input.scalar_type());
        }
    }
    const bool keepdim = s[9].toBool();
    const Reduction r = reductionOf(op, block, input.sizes());
    const at::Tensor x = input.view(r.shape);
    const at::Tensor minVal = at::amin(x, r.dims, keepdim), maxVal = at::amax(x, r.dims, keepdim);
    const at::Tensor minNeg = at::min(minVal, at::zeros_like(minVal));
    at::Tensor maxPos = at::max(maxVal, at::zeros_like(maxVal));
    at::Tensor scale, zeroPoint;
    std::optional<at::ScalarType> zeroPointDtype;
    if (!s[8].isNone()) zeroPointDtype = scalarTypeOf(s[8]);
    if (mapping == "SYMMETRIC" || mapping == "SYMMETRIC_NO_CLIPPING_ERR") {
        if (mapping == "SYMMETRIC") {
            maxPos = at::max(-minNeg, maxPos);
            scale = maxPos / (static_cast<double>(qmax - qmin) / 2);
        } else {
            const at::Tensor smin = minNeg / static_cast<double>(qmin), smax = maxPos / static_cast<double>(qmax);
            scale = at::where(smin > smax, smin, smax);
        }
        // int((quant_max + quant_min + 1) / 2): Python's true division, truncated.
        zeroPoint = at::full_like(scale, static_cast<int64_t>(static_cast<double>(qmax + qmin + 1) / 2));
        scale = at::clamp(scale, eps);
    } else {
        TORCH_CHECK(mapping == "ASYMMETRIC", op, ": unknown mapping type '", mapping, "'");
        scale = at::clamp((maxPos - minNeg) / static_cast<double>(qmax - qmin), eps);
        zeroPoint = at::clamp(at::rsub(at::round(minNeg / scale), qmin), qmin, qmax);
        if (!zeroPointDtype) zeroPointDtype = at::kInt;
    }
    if (keepdim) {
        std::vector<int64_t> out;
        for (size_t i = 0; i < block.size(); ++i) out.push_back(input.size(static_cast<int64_t>(i)) / block[i]);
        scale = scale.reshape(out);
        zeroPoint = zeroPoint.reshape(out);
    }
    return {scale.to(scaleDtype), zeroPointDtype ? zeroPoint.to(*zeroPointDtype) : zeroPoint};
}

// Reached only for an accessor the execution plan could not bind to a stored
// part (ir/subclass_access.h): its source is computed, not a stored weight.
Tensors accessSubclassInnerTensor(Stack& s) {
    TORCH_CHECK(false, "export.access_subclass_inner_tensor reads attribute '", s[1].toStringRef(),
                "' of a tensor subclass the program computes or takes as an input; irscope reads the parts of "
                "subclass weights, buffers and constants stored in the file only");
}

}  // namespace

std::vector<Entry> torchaoEntries() {
    return {
        {"torchao::quantize_affine(Tensor input, int[] block_size, Tensor scale, Tensor? zero_point, "
         "ScalarType output_dtype, Scalar? quant_min=None, Scalar? quant_max=None) -> Tensor",
         quantizeAffine},
        {"torchao::dequantize_affine(Tensor input, int[] block_size, Tensor scale, Tensor? zero_point, "
         "ScalarType input_dtype, Scalar? quant_min=None, Scalar? quant_max=None, ScalarType output_dtype=6) "
         "-> Tensor",
         dequantizeAffine},
        {"torchao::choose_qparams_affine(Tensor? input, str mapping_type, int[] block_size, "
         "ScalarType target_dtype, Scalar? quant_min=None, Scalar? quant_max=None, float? eps=None, "
         "ScalarType? scale_dtype=None, ScalarType? zero_point_dtype=None, bool keepdim=False) -> (Tensor, Tensor)",
         chooseQParamsAffine},
        {"export::access_subclass_inner_tensor(Tensor src_subclass_tensor, str attr) -> Tensor",
         accessSubclassInnerTensor},
    };
}

}  // namespace irscope::exec::compat
