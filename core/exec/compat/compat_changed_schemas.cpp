// Ops libtorch 1.13 has, but under an older schema than the one PyTorch 2.x
// exports with (docs/libtorch-versions.md §3). These
// entries carry the 2.x schema and shadow the dispatcher op, so a node is
// bound by its 2.x argument names and defaults; then they call the 1.13 op.
//   var/std/var_mean/std_mean.correction: 2.x defaults dim and correction
//     (1.13 has no defaults, so callBoxed would need both) and takes a float
//     correction (1.13: int).
//   stft: 2.x added align_to_window; pad_sequence: padding_side.
#include <cmath>
#include <string>

#include "core/exec/compat/compat_ops_internal.h"

namespace irscope::exec::compat {
namespace {

using Stack = torch::jit::Stack;
using Tensors = std::vector<at::Tensor>;

enum class Moment { Var, Std };

// (self, dim?, *, correction?, keepdim) -> var or std, and the mean.
std::pair<at::Tensor, at::Tensor> varianceAndMean(Stack& s, Moment moment) {
    at::Tensor x = s[0].toTensor();
    std::vector<int64_t> dims;
    c10::OptionalIntArrayRef dim;  // None: every dimension
    if (!s[1].isNone()) {
        dims = s[1].toIntVector();
        dim = dims;
    }
    const bool keepdim = s[3].toBool();
    double c = 1.0;  // None means Bessel's correction, in 1.13 as in 2.x
    if (!s[2].isNone()) c = s[2].toScalar().toDouble();
    if (std::isfinite(c) && c == std::floor(c)) {
        // A whole correction, int or float (torch.var(x, correction=1.0)): the 1.13 kernel as is.
        // (An optional, not a bare int: a bare int would pick the `bool unbiased` overload.)
        const c10::optional<int64_t> whole = static_cast<int64_t>(c);
        auto r = moment == Moment::Var ? at::var_mean(x, dim, whole, keepdim) : at::std_mean(x, dim, whole, keepdim);
        return {std::get<0>(r), std::get<1>(r)};
    }
    // A fractional correction 1.13 cannot take: var_c = sum((x - mean)^2) / max(N - c, 0)
    // = var_0 * N / max(N - c, 0), with N the count of reduced elements.
    auto r = at::var_mean(x, dim, c10::optional<int64_t>(0), keepdim);
    at::Tensor var0 = std::get<0>(r);
    const double n = var0.numel() == 0 ? 0.0 : static_cast<double>(x.numel()) / static_cast<double>(var0.numel());
    at::Tensor var = var0 * (n / std::max(n - c, 0.0));
    return {moment == Moment::Var ? var : var.sqrt(), std::get<1>(r)};
}

Tensors varCorrection(Stack& s) { return {varianceAndMean(s, Moment::Var).first}; }
Tensors stdCorrection(Stack& s) { return {varianceAndMean(s, Moment::Std).first}; }
Tensors varMeanCorrection(Stack& s) {
    auto r = varianceAndMean(s, Moment::Var);
    return {r.first, r.second};
}
Tensors stdMeanCorrection(Stack& s) {
    auto r = varianceAndMean(s, Moment::Std);
    return {r.first, r.second};
}

c10::optional<int64_t> optInt(const c10::IValue& v) {
    if (v.isNone()) return c10::nullopt;
    return v.toInt();
}
c10::optional<bool> optBool(const c10::IValue& v) {
    if (v.isNone()) return c10::nullopt;
    return v.toBool();
}

// align_to_window decides where a window shorter than n_fft sits inside the
// frame when center=False. 1.13 only knows its own placement, so only the
// default (None) is accepted -- and any value when the window fills the frame,
// where there is nothing to place.
void checkAlignToWindow(const c10::IValue& align, int64_t nFft, const c10::optional<int64_t>& winLength,
                        const c10::optional<at::Tensor>& window) {
    if (align.isNone()) return;
    const int64_t win = winLength ? *winLength : window ? window->size(0) : nFft;
    TORCH_CHECK(win == nFft, "stft: align_to_window=", align.toBool() ? "True" : "False", " with a window (", win,
                ") shorter than n_fft (", nFft,
                ") is not supported on this libtorch (1.13), which has no align_to_window");
}

Tensors stft(Stack& s) {
    // (self, n_fft, hop_length?, win_length?, window?, normalized, onesided?, return_complex?, align_to_window?)
    const int64_t nFft = s[1].toInt();
    auto win = optInt(s[3]);
    auto window = optTensor(s[4]);
    checkAlignToWindow(s[8], nFft, win, window);
    return {at::stft(s[0].toTensor(), nFft, optInt(s[2]), win, window, s[5].toBool(), optBool(s[6]), optBool(s[7]))};
}

Tensors stftCenter(Stack& s) {
    // (self, n_fft, hop_length?, win_length?, window?, center, pad_mode, normalized, onesided?,
    //  return_complex?, align_to_window?)
    const int64_t nFft = s[1].toInt();
    auto win = optInt(s[3]);
    auto window = optTensor(s[4]);
    checkAlignToWindow(s[10], nFft, win, window);
    return {at::stft(s[0].toTensor(), nFft, optInt(s[2]), win, window, s[5].toBool(), s[6].toStringRef(), s[7].toBool(),
                     optBool(s[8]), optBool(s[9]))};
}

Tensors padSequence(Stack& s) {
    // (sequences, batch_first, padding_value, padding_side)
    std::vector<at::Tensor> seqs = s[0].toTensorVector();
    const bool batchFirst = s[1].toBool();
    const double value = s[2].toDouble();
    const std::string& side = s[3].toStringRef();
    if (side == "right") return {at::pad_sequence(seqs, batchFirst, value)};
    TORCH_CHECK(side == "left", "pad_sequence: padding_side must be 'left' or 'right', got '", side, "'");
    // Left padding is right padding of the reversed sequences, reversed back
    // along the time dimension: exact, and 1.13 has the rest.
    for (auto& t : seqs) t = t.flip(0);
    return {at::pad_sequence(seqs, batchFirst, value).flip(batchFirst ? 1 : 0)};
}

}  // namespace

std::vector<Entry> changedSchemaEntries() {
    return {
        {"aten::var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> "
         "Tensor",
         varCorrection},
        {"aten::std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> "
         "Tensor",
         stdCorrection},
        {"aten::var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, "
         "bool keepdim=False) -> (Tensor, Tensor)",
         varMeanCorrection},
        {"aten::std_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, "
         "bool keepdim=False) -> (Tensor, Tensor)",
         stdMeanCorrection},
        {"aten::stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, "
         "bool normalized=False, bool? onesided=None, bool? return_complex=None, bool? align_to_window=None) -> "
         "Tensor",
         stft},
        {"aten::stft.center(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, "
         "Tensor? window=None, bool center=True, str pad_mode=\"reflect\", bool normalized=False, "
         "bool? onesided=None, bool? return_complex=None, bool? align_to_window=None) -> Tensor",
         stftCenter},
        {"aten::pad_sequence(Tensor[] sequences, bool batch_first=False, float padding_value=0.0, "
         "str padding_side=\"right\") -> Tensor",
         padSequence},
    };
}

}  // namespace irscope::exec::compat
