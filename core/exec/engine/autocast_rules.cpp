#include "core/exec/engine/autocast_rules.h"

#include <string>
#include <unordered_map>

namespace irscope::exec {
namespace {

const std::unordered_map<std::string_view, AutocastRule>& rules() {
    using R = AutocastRule;
    static const std::unordered_map<std::string_view, AutocastRule> table = [] {
        std::unordered_map<std::string_view, AutocastRule> t;
        for (std::string_view op : {"conv1d",
                                    "conv2d",
                                    "conv3d",
                                    "bmm",
                                    "mm",
                                    "linalg_vecdot",
                                    "baddbmm",
                                    "addmm",
                                    "addbmm",
                                    "linear",
                                    "_convolution",
                                    "matmul",
                                    "conv_tbc",
                                    "mkldnn_rnn_layer",
                                    "conv_transpose1d",
                                    "conv_transpose2d",
                                    "conv_transpose3d",
                                    "prelu",
                                    "scaled_dot_product_attention",
                                    "_native_multi_head_attention"})
            t[op] = R::LowerPrecision;
        for (std::string_view op : {"avg_pool3d",
                                    "binary_cross_entropy",
                                    "grid_sampler",
                                    "polar",
                                    "prod",
                                    "quantile",
                                    "nanquantile",
                                    "stft",
                                    "cdist",
                                    "trace",
                                    "view_as_complex",
                                    "cholesky",
                                    "cholesky_inverse",
                                    "cholesky_solve",
                                    "inverse",
                                    "lu_solve",
                                    "orgqr",
                                    "ormqr",
                                    "pinverse",
                                    "max_pool3d",
                                    "max_unpool2d",
                                    "max_unpool3d",
                                    "adaptive_avg_pool3d",
                                    "reflection_pad1d",
                                    "reflection_pad2d",
                                    "replication_pad1d",
                                    "replication_pad2d",
                                    "replication_pad3d",
                                    "mse_loss",
                                    "cosine_embedding_loss",
                                    "nll_loss",
                                    "nll_loss2d",
                                    "hinge_embedding_loss",
                                    "poisson_nll_loss",
                                    "smooth_l1_loss",
                                    "cross_entropy_loss",
                                    "l1_loss",
                                    "huber_loss",
                                    "margin_ranking_loss",
                                    "soft_margin_loss",
                                    "triplet_margin_loss",
                                    "multi_margin_loss",
                                    "ctc_loss",
                                    "kl_div",
                                    "multilabel_margin_loss",
                                    "binary_cross_entropy_with_logits",
                                    "fft_fft",
                                    "fft_ifft",
                                    "fft_fft2",
                                    "fft_ifft2",
                                    "fft_fftn",
                                    "fft_ifftn",
                                    "fft_rfft",
                                    "fft_irfft",
                                    "fft_rfft2",
                                    "fft_irfft2",
                                    "fft_rfftn",
                                    "fft_irfftn",
                                    "fft_hfft",
                                    "fft_ihfft",
                                    "linalg_cond",
                                    "linalg_matrix_rank",
                                    "linalg_solve",
                                    "linalg_cholesky",
                                    "linalg_svdvals",
                                    "linalg_eigvals",
                                    "linalg_eigvalsh",
                                    "linalg_inv",
                                    "linalg_householder_product",
                                    "linalg_tensorinv",
                                    "linalg_tensorsolve",
                                    "fake_quantize_per_tensor_affine",
                                    "geqrf",
                                    "_lu_with_info",
                                    "qr",
                                    "svd",
                                    "triangular_solve",
                                    "fractional_max_pool2d",
                                    "fractional_max_pool3d",
                                    "adaptive_max_pool3d",
                                    "multilabel_margin_loss_forward",
                                    "linalg_qr",
                                    "linalg_cholesky_ex",
                                    "linalg_svd",
                                    "linalg_eig",
                                    "linalg_eigh",
                                    "linalg_lstsq",
                                    "linalg_inv_ex"})
            t[op] = R::Float32;
        for (std::string_view op : {"stack", "cat", "index_copy"}) t[op] = R::Promote;
        return t;
    }();
    return table;
}

}  // namespace

AutocastRule autocastRuleOf(std::string_view opType) {
    // "aten.linear.default": the middle part.
    const size_t first = opType.find('.');
    if (first == std::string_view::npos) return AutocastRule::Keep;
    std::string_view name = opType.substr(first + 1);
    name = name.substr(0, name.find('.'));
    const auto it = rules().find(name);
    return it == rules().end() ? AutocastRule::Keep : it->second;
}

}  // namespace irscope::exec
