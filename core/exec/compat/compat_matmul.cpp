// Matrix-multiply variants PyTorch 2.x exports that libtorch 1.13 lacks:
// out_dtype overloads, int8 weight-only matmul and grouped (MoE) matmul, all
// rebuilt from 1.13's mm/bmm/addmm; and the fp8/int4 kernels that cannot be.
// Each equivalent is tested against loops over doubles in
// tests/exec/test_compat_ops.cpp.
#include <algorithm>

#include "core/exec/compat/compat_ops_internal.h"

namespace irscope::exec::compat {
namespace {

using Stack = torch::jit::Stack;
using Tensors = std::vector<at::Tensor>;

// The 2.x kernels accumulate 16-bit inputs in float (that is the point of
// out_dtype=float32), and 1.13's CPU mm has no Half kernel anyway: compute in
// float for those, in the input's own type otherwise; round once at the end.
at::ScalarType accumulationType(at::ScalarType t) { return t == at::kHalf || t == at::kBFloat16 ? at::kFloat : t; }

Tensors mmDtype(Stack& s) {
    // (self, mat2, out_dtype)
    at::Tensor a = s[0].toTensor(), b = s[1].toTensor();
    const auto acc = accumulationType(a.scalar_type());
    return {at::mm(a.to(acc), b.to(acc)).to(static_cast<at::ScalarType>(s[2].toInt()))};
}

Tensors bmmDtype(Stack& s) {
    at::Tensor a = s[0].toTensor(), b = s[1].toTensor();
    const auto acc = accumulationType(a.scalar_type());
    return {at::bmm(a.to(acc), b.to(acc)).to(static_cast<at::ScalarType>(s[2].toInt()))};
}

Tensors addmmDtype(Stack& s) {
    // (self, mat1, mat2, out_dtype, *, beta, alpha): beta*self + alpha*(mat1 @ mat2)
    at::Tensor bias = s[0].toTensor(), a = s[1].toTensor(), b = s[2].toTensor();
    const auto acc = accumulationType(a.scalar_type());
    at::Tensor r = at::addmm(bias.to(acc), a.to(acc), b.to(acc), s[4].toScalar(), s[5].toScalar());
    return {r.to(static_cast<at::ScalarType>(s[3].toInt()))};
}

// _int_mm(int8 or uint8 [m, k], int8 [k, n]) -> int32 [m, n]: torchao's
// int8 dynamic quantization multiplies its activations and weights here
// (on the CPU PyTorch 2.x shifts the activations by 128 into uint8 first,
// as its u8s8 kernel wants). Integer sums are exact in any order, so an
// int32 matmul of the widened operands is PyTorch's result (which, like
// this, wraps past int32 only beyond k of about 66,000 for uint8).
Tensors intMm(Stack& s) {
    const at::Tensor a = s[0].toTensor(), b = s[1].toTensor();
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "_int_mm: expected two 2-D tensors, got ", a.dim(), "-D and ", b.dim(),
                "-D");
    TORCH_CHECK((a.scalar_type() == at::kChar || a.scalar_type() == at::kByte) && b.scalar_type() == at::kChar,
                "_int_mm: expected an int8 or uint8 self and an int8 mat2, got ", a.scalar_type(), " and ",
                b.scalar_type());
    TORCH_CHECK(a.size(1) == b.size(0), "_int_mm: self [m, k] and mat2 [k, n] disagree on k: ", a.sizes(), " and ",
                b.sizes());
    return {at::mm(a.to(at::kInt), b.to(at::kInt))};
}

Tensors weightInt8PackMm(Stack& s) {
    // (self [M, K], mat2 [N, K] int8, scales [N]) -> [M, N] in self's dtype:
    // x @ w.t() with per-output-channel scales, as the 2.x CPU kernel does it
    // (products summed in float, scaled, rounded once).
    at::Tensor x = s[0].toTensor(), w = s[1].toTensor(), scales = s[2].toTensor();
    TORCH_CHECK(w.scalar_type() == at::kChar, "_weight_int8pack_mm: expected an int8 weight, got ", w.scalar_type());
    TORCH_CHECK(x.dim() == 2 && w.dim() == 2 && x.size(1) == w.size(1), "_weight_int8pack_mm: expected x [M, K] and ",
                "weight [N, K], got ", x.sizes(), " and ", w.sizes());
    TORCH_CHECK(scales.dim() == 1 && scales.size(0) == w.size(0), "_weight_int8pack_mm: expected ", w.size(0),
                " scales, got ", scales.sizes());
    const auto acc = x.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
    at::Tensor y = at::mm(x.to(acc), w.to(acc).t()) * scales.to(acc);
    return {y.to(x.scalar_type())};
}

// Group g spans [ends[g-1], ends[g]) of the ragged dimension (ends[-1] = 0).
std::vector<int64_t> groupEnds(const at::Tensor& offs, int64_t groups, int64_t raggedSize) {
    TORCH_CHECK(offs.dim() == 1, "_grouped_mm: offs must be 1-D, got ", offs.sizes());
    TORCH_CHECK(offs.size(0) == groups, "_grouped_mm: ", groups, " groups but ", offs.size(0), " offsets");
    at::Tensor o = offs.to(at::kLong).contiguous();
    std::vector<int64_t> ends(o.data_ptr<int64_t>(), o.data_ptr<int64_t>() + o.numel());
    int64_t prev = 0;
    for (int64_t e : ends) {
        TORCH_CHECK(e >= prev && e <= raggedSize, "_grouped_mm: offsets must be non-decreasing and at most ",
                    raggedSize, ", got ", offs);
        prev = e;
    }
    return ends;
}

Tensors groupedMm(Stack& s) {
    // (self, mat2, offs?, bias?, out_dtype?). 2.x's own fallback loops over
    // groups with mm, which is what this does:
    //   2-D x 3-D: self [sum M, K], mat2 [G, K, N] -> [sum M, N] (rows ragged)
    //   3-D x 2-D: self [G, M, K], mat2 [K, sum N] -> [M, sum N] (columns ragged)
    //   2-D x 2-D: self [M, sum K], mat2 [sum K, N] -> [G, M, N] (K ragged)
    //   3-D x 3-D: bmm, no offsets.
    // Rows/columns past the last offset are zero (2.x leaves them uninitialized).
    at::Tensor a = s[0].toTensor(), b = s[1].toTensor();
    auto offs = optTensor(s[2]);
    TORCH_CHECK(!optTensor(s[3]), "_grouped_mm: bias is not supported (PyTorch 2.x rejects it too)");
    const auto outType = optScalarType(s[4]).value_or(a.scalar_type());
    const auto acc = accumulationType(a.scalar_type());
    at::Tensor A = a.to(acc), B = b.to(acc);
    TORCH_CHECK((a.dim() == 2 || a.dim() == 3) && (b.dim() == 2 || b.dim() == 3),
                "_grouped_mm: inputs must be 2-D or 3-D, got ", a.sizes(), " and ", b.sizes());
    if (a.dim() == 3 && b.dim() == 3) {
        TORCH_CHECK(!offs, "_grouped_mm: offs must be None when both inputs are 3-D");
        return {at::bmm(A, B).to(outType)};
    }
    TORCH_CHECK(offs, "_grouped_mm: offs is required when an input is 2-D");
    at::Tensor out;
    std::vector<int64_t> ends;
    if (a.dim() == 2 && b.dim() == 3) {
        ends = groupEnds(*offs, b.size(0), a.size(0));
        out = at::zeros({a.size(0), b.size(2)}, A.options());
    } else if (a.dim() == 3 && b.dim() == 2) {
        ends = groupEnds(*offs, a.size(0), b.size(1));
        out = at::zeros({a.size(1), b.size(1)}, A.options());
    } else {
        TORCH_CHECK(a.size(1) == b.size(0), "_grouped_mm: self [M, K] and mat2 [K, N] disagree on K: ", a.sizes(),
                    " and ", b.sizes());
        ends = groupEnds(*offs, offs->size(0), a.size(1));
        out = at::zeros({static_cast<int64_t>(ends.size()), a.size(0), b.size(1)}, A.options());
    }
    int64_t start = 0;
    for (int64_t g = 0; g < static_cast<int64_t>(ends.size()); ++g) {
        const int64_t len = ends[g] - start;
        if (a.dim() == 2 && b.dim() == 3)
            out.narrow(0, start, len).copy_(at::mm(A.narrow(0, start, len), B[g]));
        else if (a.dim() == 3)
            out.narrow(1, start, len).copy_(at::mm(A[g], B.narrow(1, start, len)));
        else
            out[g].copy_(at::mm(A.narrow(1, start, len), B.narrow(0, start, len)));
        start = ends[g];
    }
    return {out.to(outType)};
}

}  // namespace

std::vector<Entry> matmulEntries() {
    return {
        {"aten::mm.dtype(Tensor self, Tensor mat2, ScalarType out_dtype) -> Tensor", mmDtype},
        {"aten::bmm.dtype(Tensor self, Tensor mat2, ScalarType out_dtype) -> Tensor", bmmDtype},
        {"aten::addmm.dtype(Tensor self, Tensor mat1, Tensor mat2, ScalarType out_dtype, *, Scalar beta=1, "
         "Scalar alpha=1) -> Tensor",
         addmmDtype},
        {"aten::_weight_int8pack_mm(Tensor self, Tensor mat2, Tensor scales) -> Tensor", weightInt8PackMm},
        {"aten::_int_mm(Tensor self, Tensor mat2) -> Tensor", intMm},
        {"aten::_grouped_mm(Tensor self, Tensor mat2, Tensor? offs=None, Tensor? bias=None, "
         "ScalarType? out_dtype=None) -> Tensor",
         groupedMm},
    };
}

std::vector<Unsupported> matmulUnsupported() {
    // fp8: 1.13 has no float8 dtypes, so not even the operands can be held.
    const char* fp8 = "its operands are float8, a dtype libtorch 1.13 does not have";
    // int4: the packed weight's layout belongs to the 2.x kernel (tinygemm on
    // CUDA, another tiling on CPU, KleidiAI for _dyn_quant) and is not
    // documented; unpacking it by guesswork would give plausible wrong numbers.
    const char* int4 = "its weight is packed in a kernel-specific int4 layout that irscope cannot unpack";
    return {
        {"aten::_scaled_mm", fp8},
        {"aten::_scaled_mm_v2", fp8},
        {"aten::_scaled_grouped_mm", fp8},
        {"aten::_weight_int4pack_mm", int4},
        {"aten::_weight_int4pack_mm_for_cpu", int4},
        {"aten::_weight_int4pack_mm_with_scales_and_zeros", int4},
        {"aten::_convert_weight_to_int4pack", int4},
        {"aten::_convert_weight_to_int4pack_for_cpu", int4},
        {"aten::_dyn_quant_matmul_4bit", int4},
        {"aten::_dyn_quant_pack_4bit_weight", int4},
    };
}

}  // namespace irscope::exec::compat
