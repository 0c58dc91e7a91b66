// Equivalents of PyTorch 2.x ops that libtorch 1.13 lacks, and the lookup
// table for them and for the families in compat_*.cpp. The formulas follow
// docs/libtorch-versions.md §4; each is unit-tested against an independent
// formula in tests/exec/test_compat_ops.cpp.
#include "core/exec/compat/compat_ops.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/jit/frontend/function_schema_parser.h>

#include "core/exec/compat/compat_ops_internal.h"

namespace irscope::exec {
namespace {

using Stack = torch::jit::Stack;
using Tensors = std::vector<at::Tensor>;

using compat::optScalarType;
using compat::optTensor;
c10::optional<double> optDouble(const c10::IValue& v) {
    if (v.isNone()) return c10::nullopt;
    return v.toDouble();
}
std::vector<int64_t> intList(const c10::IValue& v) { return v.toIntVector(); }

// ---- batch norm family: all map onto native_batch_norm ----------------------

Tensors bnLegitNoTraining(Stack& s) {
    // (input, weight?, bias?, running_mean, running_var, momentum, eps) -> (out, save_mean, save_rstd)
    at::Tensor x = s[0].toTensor();
    auto r = at::native_batch_norm(x, optTensor(s[1]), optTensor(s[2]), s[3].toTensor(), s[4].toTensor(), false,
                                   s[5].toDouble(), s[6].toDouble());
    // 2.x returns empty save_mean/save_rstd in inference.
    return {std::get<0>(r), x.new_empty({0}), x.new_empty({0})};
}

Tensors bnLegit(Stack& s) {
    // (input, weight?, bias?, Tensor(a!) running_mean, Tensor(b!) running_var, training, momentum, eps)
    at::Tensor x = s[0].toTensor();
    bool training = s[5].toBool();
    auto r = at::native_batch_norm(x, optTensor(s[1]), optTensor(s[2]), s[3].toTensor(), s[4].toTensor(), training,
                                   s[6].toDouble(), s[7].toDouble());
    if (!training) return {std::get<0>(r), x.new_empty({0}), x.new_empty({0})};
    return {std::get<0>(r), std::get<1>(r), std::get<2>(r)};
}

Tensors bnLegitNoStats(Stack& s) {
    // (input, weight?, bias?, training, momentum, eps)
    auto r = at::native_batch_norm(s[0].toTensor(), optTensor(s[1]), optTensor(s[2]), c10::nullopt, c10::nullopt,
                                   s[3].toBool(), s[4].toDouble(), s[5].toDouble());
    return {std::get<0>(r), std::get<1>(r), std::get<2>(r)};
}

Tensors bnLegitFunctional(Stack& s) {
    // (input, weight?, bias?, running_mean, running_var, training, momentum, eps)
    //   -> (out, save_mean, save_rstd, running_mean_out, running_var_out)
    at::Tensor rm = s[3].toTensor().clone(), rv = s[4].toTensor().clone();
    bool training = s[5].toBool();
    auto r = at::native_batch_norm(s[0].toTensor(), optTensor(s[1]), optTensor(s[2]), rm, rv, training, s[6].toDouble(),
                                   s[7].toDouble());
    return {std::get<0>(r), std::get<1>(r), std::get<2>(r), rm, rv};
}

Tensors bnWithUpdate(Stack& s) {
    // (input, weight?, bias?, Tensor(a!) running_mean, Tensor(b!) running_var, momentum, eps)
    //   -> (out, save_mean, save_rstd, reserve)
    at::Tensor x = s[0].toTensor();
    auto r = at::native_batch_norm(x, optTensor(s[1]), optTensor(s[2]), s[3].toTensor(), s[4].toTensor(), true,
                                   s[5].toDouble(), s[6].toDouble());
    return {std::get<0>(r), std::get<1>(r), std::get<2>(r), x.new_empty({0}, x.options().dtype(at::kByte))};
}

Tensors bnWithUpdateFunctional(Stack& s) {
    //   -> (out, save_mean, save_rstd, reserve, running_mean_out, running_var_out)
    at::Tensor x = s[0].toTensor();
    at::Tensor rm = s[3].toTensor().clone(), rv = s[4].toTensor().clone();
    auto r = at::native_batch_norm(x, optTensor(s[1]), optTensor(s[2]), rm, rv, true, s[5].toDouble(), s[6].toDouble());
    return {std::get<0>(r), std::get<1>(r), std::get<2>(r), x.new_empty({0}, x.options().dtype(at::kByte)), rm, rv};
}

Tensors bnNoUpdate(Stack& s) {
    // (input, weight?, bias?, running_mean?, running_var?, momentum, eps) -> (out, save_mean, save_rstd, reserve)
    at::Tensor x = s[0].toTensor();
    auto r = at::native_batch_norm(x, optTensor(s[1]), optTensor(s[2]), optTensor(s[3]), optTensor(s[4]), false,
                                   s[5].toDouble(), s[6].toDouble());
    return {std::get<0>(r), x.new_empty({0}), x.new_empty({0}), x.new_empty({0}, x.options().dtype(at::kByte))};
}

// ---- attention ---------------------------------------------------------------

struct Attention {
    at::Tensor out, logsumexp;
};

// Math attention as PyTorch 2.5+ defines it: scale default 1/sqrt(E), causal
// mask aligned top-left, bool masks say "attend where true", float masks are
// added, GQA repeats k/v heads, rows with nothing to attend give zeros (1.13
// would give NaN). Computed in float for half types; dropout is not applied
// (inference).
Attention attention(at::Tensor q, at::Tensor k, at::Tensor v, const c10::optional<at::Tensor>& mask, bool causal,
                    c10::optional<double> scale, bool gqa) {
    const auto dtype = q.scalar_type();
    const bool low = dtype == at::kHalf || dtype == at::kBFloat16;
    if (low) {
        q = q.to(at::kFloat);
        k = k.to(at::kFloat);
        v = v.to(at::kFloat);
    }
    if (gqa && q.dim() >= 3 && k.size(-3) != q.size(-3)) {
        int64_t rep = q.size(-3) / k.size(-3);
        k = k.repeat_interleave(rep, -3);
        v = v.repeat_interleave(rep, -3);
    }
    const int64_t L = q.size(-2), S = k.size(-2);
    const double sc = scale ? *scale : 1.0 / std::sqrt(static_cast<double>(q.size(-1)));
    at::Tensor scores = at::matmul(q, k.transpose(-2, -1)) * sc;
    const double ninf = -std::numeric_limits<double>::infinity();
    if (causal) {
        at::Tensor keep = at::ones({L, S}, q.options().dtype(at::kBool)).tril(0);
        scores = scores.masked_fill(keep.logical_not(), ninf);
    }
    if (mask) {
        if (mask->scalar_type() == at::kBool)
            scores = scores.masked_fill(mask->logical_not(), ninf);
        else
            scores = scores + mask->to(scores.scalar_type());
    }
    at::Tensor allMasked = (scores == ninf).all(-1, true);
    at::Tensor probs = at::softmax(scores, -1);
    probs = at::where(allMasked, at::zeros({}, probs.options()), probs);
    at::Tensor out = at::matmul(probs, v);
    at::Tensor lse = at::logsumexp(scores, -1);
    if (low) out = out.to(dtype);
    // PyTorch 2.x's CPU kernel allocates the output as (B, L, H, E) and
    // returns it transposed, and exported graphs rely on it: the usual
    // transpose(1, 2) then view(B, L, H * E) needs no copy there, but fails
    // on a contiguous (B, H, L, E).
    if (out.dim() == 4) out = out.transpose(1, 2).contiguous().transpose(1, 2);
    return {out, lse};
}

Tensors sdpa(Stack& s) {
    // (query, key, value, attn_mask?, dropout_p, is_causal, *, scale?, enable_gqa)
    auto a = attention(s[0].toTensor(), s[1].toTensor(), s[2].toTensor(), optTensor(s[3]), s[5].toBool(),
                       optDouble(s[6]), s[7].toBool());
    return {a.out};
}

Tensors sdpaFlash(Stack& s) {
    // (query, key, value, dropout_p, is_causal, return_debug_mask, *, scale?)
    //   -> (output, logsumexp, cum_seq_q, cum_seq_k, max_q, max_k, rng_state, unused, debug_attn_mask)
    at::Tensor q = s[0].toTensor();
    auto a = attention(q, s[1].toTensor(), s[2].toTensor(), c10::nullopt, s[4].toBool(), optDouble(s[6]), false);
    auto e = q.new_empty({0});
    auto i64 = [&](int64_t v) { return at::scalar_to_tensor(v); };
    return {a.out, a.logsumexp, e, e, i64(q.size(-2)), i64(s[1].toTensor().size(-2)), e, e, e};
}

Tensors sdpaFlashCpu(Stack& s) {
    // (query, key, value, dropout_p, is_causal, *, attn_mask?, scale?) -> (output, logsumexp)
    auto a = attention(s[0].toTensor(), s[1].toTensor(), s[2].toTensor(), optTensor(s[5]), s[4].toBool(),
                       optDouble(s[6]), false);
    return {a.out, a.logsumexp};
}

Tensors sdpaEfficient(Stack& s) {
    // (query, key, value, attn_bias?, compute_log_sumexp, dropout_p, is_causal, *, scale?)
    //   -> (output, log_sumexp, philox_seed, philox_offset)
    at::Tensor q = s[0].toTensor();
    auto a = attention(q, s[1].toTensor(), s[2].toTensor(), optTensor(s[3]), s[6].toBool(), optDouble(s[7]), false);
    auto e = q.new_empty({0});
    return {a.out, a.logsumexp, e, e};
}

Tensors sdpaCudnn(Stack& s) {
    // (query, key, value, attn_bias?, compute_log_sumexp, dropout_p, is_causal, return_debug_mask, *, scale?)
    at::Tensor q = s[0].toTensor();
    auto a = attention(q, s[1].toTensor(), s[2].toTensor(), optTensor(s[3]), s[6].toBool(), optDouble(s[8]), false);
    auto e = q.new_empty({0});
    auto i64 = [&](int64_t v) { return at::scalar_to_tensor(v); };
    return {a.out, a.logsumexp, e, e, i64(q.size(-2)), i64(s[1].toTensor().size(-2)), e, e, e};
}

// ---- normalization / softmax --------------------------------------------------

Tensors safeSoftmax(Stack& s) {
    // (self, dim, dtype?)
    at::Tensor x = s[0].toTensor();
    int64_t dim = s[1].toInt();
    c10::optional<at::ScalarType> dtype;
    if (!s[2].isNone()) dtype = static_cast<at::ScalarType>(s[2].toInt());
    at::Tensor sm = at::softmax(x, dim, dtype);
    at::Tensor allMasked = (x == -std::numeric_limits<double>::infinity()).all(dim, true);
    return {at::where(allMasked, at::zeros({}, sm.options()), sm)};
}

std::pair<at::Tensor, at::Tensor> rmsNorm(const at::Tensor& x, const std::vector<int64_t>& shape,
                                          const c10::optional<at::Tensor>& w, c10::optional<double> eps) {
    std::vector<int64_t> dims;
    for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i) dims.push_back(-1 - i);
    double e = eps ? *eps
                   : static_cast<double>(c10::elementSize(x.scalar_type()) == 8 ? std::numeric_limits<double>::epsilon()
                                         : x.scalar_type() == at::kHalf         ? 0.0009765625
                                         : x.scalar_type() == at::kBFloat16     ? 0.0078125
                                                                            : std::numeric_limits<float>::epsilon());
    at::Tensor xf = x.scalar_type() == at::kDouble ? x : x.to(at::kFloat);
    at::Tensor rstd = at::rsqrt(xf.pow(2).mean(dims, true) + e);
    at::Tensor y = xf * rstd;
    if (w) y = y * *w;
    return {y.to(x.scalar_type()), rstd};
}

Tensors rmsNormOp(Stack& s) {
    // (input, normalized_shape, weight?, eps?)
    return {rmsNorm(s[0].toTensor(), intList(s[1]), optTensor(s[2]), optDouble(s[3])).first};
}

Tensors fusedRmsNorm(Stack& s) {
    auto r = rmsNorm(s[0].toTensor(), intList(s[1]), optTensor(s[2]), optDouble(s[3]));
    return {r.first, r.second};
}

// ---- shape / reduction variants --------------------------------------------

Tensors squeezeDims(Stack& s) {
    at::Tensor x = s[0].toTensor();
    std::vector<int64_t> dims = intList(s[1]);
    for (auto& d : dims) d = c10::maybe_wrap_dim(d, std::max<int64_t>(x.dim(), 1));
    std::sort(dims.rbegin(), dims.rend());  // highest first, so lower dims keep their index
    dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
    for (int64_t d : dims) x = x.dim() == 0 ? x : x.squeeze(d);
    return {x};
}

template <bool Any>
Tensors reduceDims(Stack& s) {
    // (self, dim?, keepdim)
    at::Tensor x = s[0].toTensor();
    bool keep = s[2].toBool();
    if (s[1].isNone() || s[1].toIntVector().empty()) {  // no dims: reduce over all
        at::Tensor r = Any ? x.any() : x.all();
        if (keep) r = r.reshape(std::vector<int64_t>(x.dim(), 1));
        return {r};
    }
    std::vector<int64_t> dims = intList(s[1]);
    for (auto& d : dims) d = c10::maybe_wrap_dim(d, std::max<int64_t>(x.dim(), 1));
    std::sort(dims.rbegin(), dims.rend());
    at::Tensor r = x;
    for (int64_t d : dims) r = Any ? r.any(d, keep) : r.all(d, keep);
    return {r};
}

c10::List<c10::optional<at::Tensor>> optList(const c10::IValue& v) {
    return v.to<c10::List<c10::optional<at::Tensor>>>();
}

Tensors unsafeIndex(Stack& s) { return {at::index(s[0].toTensor(), optList(s[1]))}; }

Tensors unsafeIndexPut(Stack& s) {
    return {at::index_put(s[0].toTensor(), optList(s[1]), s[2].toTensor(), s[3].toBool())};
}

c10::List<c10::optional<at::Tensor>> clampedIndices(const at::Tensor& self, const c10::IValue& v) {
    auto list = optList(v);
    c10::List<c10::optional<at::Tensor>> out;
    int64_t d = 0;
    for (const c10::optional<at::Tensor>& idx : list) {
        if (idx && idx->defined() && idx->scalar_type() != at::kBool) {
            int64_t n = self.size(d);
            out.push_back(idx->clamp(-n, n - 1));
        } else {
            out.push_back(idx);
        }
        ++d;
    }
    return out;
}

Tensors unsafeMaskedIndex(Stack& s) {
    // (self, mask, indices, fill)
    at::Tensor self = s[0].toTensor(), mask = s[1].toTensor();
    at::Tensor got = at::index(self, clampedIndices(self, s[2]));
    return {at::where(mask, got, at::scalar_to_tensor(s[3].toScalar()).to(got.scalar_type()))};
}

Tensors unsafeMaskedIndexPutAccumulate(Stack& s) {
    // (self, mask, indices, values)
    at::Tensor self = s[0].toTensor(), mask = s[1].toTensor(), values = s[3].toTensor();
    at::Tensor masked = at::where(mask, values, at::zeros({}, values.options()));
    return {at::index_put(self, clampedIndices(self, s[2]), masked, true)};
}

Tensors preluKernel(Stack& s) {
    at::Tensor x = s[0].toTensor(), w = s[1].toTensor();
    return {at::where(x > 0, x, x * w)};
}

Tensors emptyPermuted(Stack& s) {
    // (size, physical_layout, *, dtype?, layout?, device?, pin_memory?)
    std::vector<int64_t> size = intList(s[0]), perm = intList(s[1]);
    std::vector<int64_t> phys(size.size()), inv(size.size());
    for (size_t i = 0; i < perm.size(); ++i) {
        phys[i] = size[perm[i]];
        inv[perm[i]] = static_cast<int64_t>(i);
    }
    auto opts = at::TensorOptions();
    if (!s[2].isNone()) opts = opts.dtype(static_cast<at::ScalarType>(s[2].toInt()));
    return {at::empty(phys, opts).permute(inv)};
}

Tensors linspaceTensors(Stack& s) {
    // (start, end, steps, *, dtype?, layout?, device?, pin_memory?), start and/or end
    // 0-dim tensors: 2.x reads them with .item() and calls the Scalar overload,
    // so the result's dtype is the given one or the default, not the tensors'.
    auto scalarOf = [](const c10::IValue& v, const char* name) {
        if (!v.isTensor()) return v.toScalar();
        const at::Tensor& t = v.toTensor();
        TORCH_CHECK(t.dim() == 0, "linspace only supports 0-dimensional start and end tensors, but got ", name,
                    " with ", t.dim(), " dimension(s)");
        return t.item();
    };
    return {at::linspace(scalarOf(s[0], "start"), scalarOf(s[1], "end"), s[2].toInt(), optScalarType(s[3]),
                         c10::nullopt, c10::nullopt, c10::nullopt)};
}

Tensors nonzeroStatic(Stack& s) {
    // (self, *, size, fill_value)
    at::Tensor nz = at::nonzero(s[0].toTensor());
    int64_t size = s[1].toInt(), fill = s[2].toInt();
    if (nz.size(0) >= size) return {nz.narrow(0, 0, size).contiguous()};
    at::Tensor pad = at::full({size - nz.size(0), nz.size(1)}, fill, nz.options());
    return {at::cat({nz, pad}, 0)};
}

Tensors symSize(Stack& s) { return {at::scalar_to_tensor(s[0].toTensor().size(s[1].toInt()))}; }
Tensors symStride(Stack& s) { return {at::scalar_to_tensor(s[0].toTensor().stride(s[1].toInt()))}; }
Tensors symNumel(Stack& s) { return {at::scalar_to_tensor(s[0].toTensor().numel())}; }
Tensors symStorageOffset(Stack& s) { return {at::scalar_to_tensor(s[0].toTensor().storage_offset())}; }

// ---- asserts: checks that cost nothing when they hold -----------------------

Tensors assertTensorMetadata(Stack& s) {
    // (a, size?, stride?, dtype?, *, device?, layout?) -> ()
    at::Tensor a = s[0].toTensor();
    if (!s[1].isNone()) {
        auto size = intList(s[1]);
        TORCH_CHECK(a.sizes().vec() == size, "Tensor sizes mismatch: expected ", c10::IntArrayRef(size), " got ",
                    a.sizes());
    }
    if (!s[3].isNone()) {
        auto dt = static_cast<at::ScalarType>(s[3].toInt());
        TORCH_CHECK(a.scalar_type() == dt, "Tensor dtype mismatch: expected ", dt, " got ", a.scalar_type());
    }
    return {};
}

Tensors assertScalar(Stack& s) {
    TORCH_CHECK(s[0].toScalar().toDouble() != 0.0, s[1].toStringRef());
    return {};
}

Tensors assertAsyncMsg(Stack& s) {
    at::Tensor t = s[0].toTensor();
    TORCH_CHECK(t.numel() == 1, "Expected a single-element tensor in _assert_async");
    TORCH_CHECK(t.item<double>() != 0.0 || t.is_complex(), s[1].toStringRef());
    return {};
}

// A data-dependent size checked against the range the program gives it, in
// PyTorch's words (sym_constrain_range's eager kernel).
Tensors constrainRange(Stack& s) {
    const int64_t size = s[0].toScalar().toLong();
    const int64_t lo = s[1].isNone() ? std::numeric_limits<int64_t>::min() : s[1].toInt();
    const int64_t hi = s[2].isNone() ? std::numeric_limits<int64_t>::max() : s[2].toInt();
    TORCH_CHECK(lo <= size && size <= hi, "Invalid value range for ", size, " between [", lo, ", ", hi, "].");
    return {};
}
Tensors makeDepToken(Stack&) { return {at::empty({0})}; }
Tensors functionalAssertAsync(Stack& s) {
    assertAsyncMsg(s);
    return {s[2].toTensor()};
}
Tensors functionalSymConstrainRange(Stack& s) { return {s[3].toTensor()}; }
Tensors functionalAssertScalar(Stack& s) {
    assertScalar(s);
    return {s[2].toTensor()};
}

using compat::Entry;

const Entry kEntries[] = {
    {"aten::_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, "
     "Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
     bnLegitNoTraining},
    {"aten::_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, "
     "Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
     bnLegit},
    {"aten::_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, "
     "float momentum, float eps) -> (Tensor, Tensor, Tensor)",
     bnLegitNoStats},
    {"aten::_native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, "
     "Tensor running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor, Tensor)",
     bnLegitFunctional},
    {"aten::_batch_norm_with_update(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, "
     "Tensor(b!) running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor)",
     bnWithUpdate},
    {"aten::_batch_norm_with_update_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, "
     "Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor, Tensor, Tensor)",
     bnWithUpdateFunctional},
    {"aten::_batch_norm_no_update(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
     "Tensor? running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor)",
     bnNoUpdate},
    {"aten::scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, "
     "float dropout_p=0.0, bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor",
     sdpa},
    {"aten::_scaled_dot_product_flash_attention(Tensor query, Tensor key, Tensor value, float dropout_p=0.0, "
     "bool is_causal=False, bool return_debug_mask=False, *, float? scale=None) -> (Tensor, Tensor, Tensor, "
     "Tensor, int, int, Tensor, Tensor, Tensor)",
     sdpaFlash},
    {"aten::_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, "
     "float dropout_p=0.0, bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor, Tensor)",
     sdpaFlashCpu},
    {"aten::_scaled_dot_product_efficient_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_bias, "
     "bool compute_log_sumexp, float dropout_p=0.0, bool is_causal=False, *, float? scale=None) -> (Tensor, "
     "Tensor, Tensor, Tensor)",
     sdpaEfficient},
    {"aten::_scaled_dot_product_cudnn_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_bias, "
     "bool compute_log_sumexp, float dropout_p=0.0, bool is_causal=False, bool return_debug_mask=False, *, "
     "float? scale=None) -> (Tensor, Tensor, Tensor, Tensor, int, int, Tensor, Tensor, Tensor)",
     sdpaCudnn},
    {"aten::_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", safeSoftmax},
    {"aten::rms_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor", rmsNormOp},
    {"aten::_fused_rms_norm(Tensor input, int[] normalized_shape, Tensor? weight, float? eps) -> (Tensor, Tensor)",
     fusedRmsNorm},
    {"aten::squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)", squeezeDims},
    {"aten::any.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", reduceDims<true>},
    {"aten::all.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", reduceDims<false>},
    {"aten::_unsafe_index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", unsafeIndex},
    {"aten::_unsafe_index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor",
     unsafeIndexPut},
    {"aten::_unsafe_masked_index(Tensor self, Tensor mask, Tensor?[] indices, Scalar fill) -> Tensor",
     unsafeMaskedIndex},
    {"aten::_unsafe_masked_index_put_accumulate(Tensor self, Tensor mask, Tensor?[] indices, Tensor values) -> "
     "Tensor",
     unsafeMaskedIndexPutAccumulate},
    {"aten::_prelu_kernel(Tensor self, Tensor weight) -> Tensor", preluKernel},
    {"aten::empty_permuted(int[] size, int[] physical_layout, *, ScalarType? dtype=None, Layout? layout=None, "
     "Device? device=None, bool? pin_memory=None) -> Tensor",
     emptyPermuted},
    {"aten::nonzero_static(Tensor self, *, int size, int fill_value=-1) -> Tensor", nonzeroStatic},
    {"aten::linspace.Tensor_Tensor(Tensor start, Tensor end, int steps, *, ScalarType? dtype=None, "
     "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
     linspaceTensors},
    {"aten::linspace.Tensor_Scalar(Tensor start, Scalar end, int steps, *, ScalarType? dtype=None, "
     "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
     linspaceTensors},
    {"aten::linspace.Scalar_Tensor(Scalar start, Tensor end, int steps, *, ScalarType? dtype=None, "
     "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
     linspaceTensors},
    {"aten::sym_size.int(Tensor self, int dim) -> int", symSize},
    {"aten::sym_stride.int(Tensor self, int dim) -> int", symStride},
    {"aten::sym_numel(Tensor self) -> int", symNumel},
    {"aten::sym_storage_offset(Tensor self) -> int", symStorageOffset},
    {"aten::_assert_tensor_metadata(Tensor a, int[]? size=None, int[]? stride=None, ScalarType? dtype=None, *, "
     "Device? device=None, Layout? layout=None) -> ()",
     assertTensorMetadata},
    {"aten::_assert_scalar(Scalar self, str assert_msg) -> ()", assertScalar},
    {"aten::_assert_async.msg(Tensor self, str assert_msg) -> ()", assertAsyncMsg},
    {"aten::sym_constrain_range(Scalar size, *, int? min=None, int? max=None) -> ()", constrainRange},
    {"aten::sym_constrain_range_for_size(Scalar size, *, int? min=None, int? max=None) -> ()", constrainRange},
    {"aten::_make_dep_token(*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
     makeDepToken},
    {"aten::_functional_assert_async.msg(Tensor self, str assert_msg, Tensor dep_token) -> Tensor",
     functionalAssertAsync},
    {"aten::_functional_assert_scalar(Scalar self, str assert_msg, Tensor dep_token) -> Tensor",
     functionalAssertScalar},
    {"aten::_functional_sym_constrain_range(Scalar size, int? min, int? max, Tensor dep_token) -> Tensor",
     functionalSymConstrainRange},
    {"aten::_functional_sym_constrain_range_for_size(Scalar size, int? min, int? max, Tensor dep_token) -> Tensor",
     functionalSymConstrainRange},
};

struct NameHash {
    size_t operator()(const c10::OperatorName& n) const {
        return std::hash<std::string>()(n.name) ^ (std::hash<std::string>()(n.overload_name) * 31);
    }
};

}  // namespace

namespace {

struct Tables {
    std::vector<std::unique_ptr<c10::FunctionSchema>> schemas;
    std::unordered_map<c10::OperatorName, CompatOp, NameHash> ops;
    std::unordered_map<std::string, std::string> unsupported;  // "aten::_scaled_mm" -> reason
};

const Tables& tables() {
    static const Tables built = [] {
        Tables t;
        std::vector<Entry> all(std::begin(kEntries), std::end(kEntries));
        for (auto family : {compat::matmulEntries, compat::changedSchemaEntries, compat::quantizedEntries,
                            compat::torchaoEntries, compat::symbolicEntries})
            for (const Entry& e : family()) all.push_back(e);
        for (const Entry& e : all) {
            t.schemas.push_back(std::make_unique<c10::FunctionSchema>(torch::jit::parseSchema(e.schema)));
            const auto& sch = *t.schemas.back();
            c10::OperatorName name(sch.name(), sch.overload_name());
            const bool shadows = c10::Dispatcher::singleton().findSchema(name).has_value();
            t.ops.emplace(name, CompatOp{&sch, e.fn, shadows});
        }
        for (const auto& u : compat::matmulUnsupported()) t.unsupported.emplace(u.name, u.reason);
        return t;
    }();
    return built;
}

}  // namespace

const CompatOp* findCompatOp(const c10::OperatorName& name) {
    const auto& ops = tables().ops;
    auto it = ops.find(name);
    return it == ops.end() ? nullptr : &it->second;
}

std::vector<std::string> compatOpsShadowingDispatcher() {
    std::vector<std::string> names;
    for (const auto& [name, op] : tables().ops)
        if (op.shadowsDispatcherOp)
            names.push_back(name.name + (name.overload_name.empty() ? "" : "." + name.overload_name));
    std::sort(names.begin(), names.end());
    return names;
}

const char* unsupportedReason(const c10::OperatorName& name) {
    const auto& u = tables().unsupported;
    auto it = u.find(name.name);
    return it == u.end() ? nullptr : it->second.c_str();
}

}  // namespace irscope::exec
