#include "core/layout/op_family.h"

#include <array>
#include <string>

namespace irscope::layout {

const char* opFamilyName(OpFamily family) {
    switch (family) {
    case OpFamily::ConvLinear: return "conv_linear";
    case OpFamily::Normalization: return "normalization";
    case OpFamily::Activation: return "activation";
    case OpFamily::Shape: return "shape";
    case OpFamily::Elementwise: return "elementwise";
    case OpFamily::Reduction: return "reduction";
    case OpFamily::Attention: return "attention";
    case OpFamily::Other: return "other";
    }
    return "other";
}

namespace {

// "aten.add_.Tensor" -> "add"; "conv2d" -> "conv2d"; "_softmax" -> "softmax".
std::string baseName(std::string_view op) {
    if (op.starts_with("aten."))
        op.remove_prefix(5);
    else if (op.starts_with("torch.ops.aten."))
        op.remove_prefix(15);
    if (auto dot = op.find('.'); dot != std::string_view::npos) op = op.substr(0, dot);
    while (op.starts_with('_')) op.remove_prefix(1);
    while (op.ends_with('_')) op.remove_suffix(1);
    return std::string(op);
}

bool oneOf(const std::string& s, std::initializer_list<std::string_view> names) {
    for (auto n : names)
        if (s == n) return true;
    return false;
}

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

}  // namespace

OpFamily classifyOp(std::string_view opType) {
    if (opType.find("getitem") != std::string_view::npos) return OpFamily::Shape;
    const std::string b = baseName(opType);
    // Order matters: "attention" before anything else, norms before reductions
    // ("linalg_vector_norm" is a reduction, "layer_norm" a normalization).
    if (contains(b, "attention") || contains(b, "attn")) return OpFamily::Attention;
    if (contains(b, "vector_norm") || contains(b, "matrix_norm") || b == "norm" || b == "frobenius_norm")
        return OpFamily::Reduction;
    if (contains(b, "norm")) return OpFamily::Normalization;
    if (b.starts_with("conv") || contains(b, "convolution") ||
        oneOf(b, {"linear", "matmul", "mm", "bmm", "addmm", "addbmm", "baddbmm", "addmv", "mv", "einsum", "embedding",
                  "embedding_bag", "bilinear", "dot", "vdot", "outer", "tensordot"}))
        return OpFamily::ConvLinear;
    if (oneOf(b, {"relu",        "relu6",     "gelu",         "silu",       "sigmoid",    "tanh",      "softmax",
                  "log_softmax", "hardswish", "hardsigmoid",  "hardtanh",   "leaky_relu", "elu",       "selu",
                  "celu",        "mish",      "softplus",     "prelu",      "rrelu",      "glu",       "logsigmoid",
                  "softsign",    "threshold", "safe_softmax", "tanhshrink", "softshrink", "hardshrink"}))
        return OpFamily::Activation;
    if (contains(b, "pool") ||
        oneOf(b,
              {"sum",  "mean", "max",      "min",      "amax",      "amin",          "argmax",  "argmin",  "prod",
               "var",  "std",  "var_mean", "std_mean", "logsumexp", "cumsum",        "cumprod", "any",     "all",
               "topk", "sort", "argsort",  "median",   "mode",      "count_nonzero", "nansum",  "nanmean", "aminmax"}))
        return OpFamily::Reduction;
    if (oneOf(b, {"view",
                  "reshape",
                  "permute",
                  "transpose",
                  "t",
                  "expand",
                  "expand_as",
                  "squeeze",
                  "unsqueeze",
                  "flatten",
                  "unflatten",
                  "cat",
                  "concat",
                  "stack",
                  "split",
                  "split_with_sizes",
                  "chunk",
                  "slice",
                  "select",
                  "index",
                  "index_select",
                  "contiguous",
                  "narrow",
                  "unbind",
                  "repeat",
                  "repeat_interleave",
                  "unsafe_view",
                  "alias",
                  "pad",
                  "constant_pad_nd",
                  "flip",
                  "roll",
                  "gather",
                  "scatter",
                  "movedim",
                  "view_as",
                  "reshape_as",
                  "tile",
                  "unfold",
                  "hstack",
                  "vstack",
                  "tensor_split",
                  "as_strided",
                  "pixel_shuffle",
                  "pixel_unshuffle",
                  "clone",
                  "detach",
                  "upsample_nearest2d",
                  "upsample_bilinear2d",
                  "interpolate",
                  "diagonal",
                  "tril",
                  "triu",
                  "broadcast_to",
                  "index_put",
                  "slice_scatter",
                  "select_scatter",
                  "masked_select"}))
        return OpFamily::Shape;
    if (oneOf(b, {"add",         "sub",         "rsub",        "mul",         "div",
                  "pow",         "sqrt",        "rsqrt",       "exp",         "exp2",
                  "expm1",       "log",         "log2",        "log10",       "log1p",
                  "neg",         "abs",         "where",       "clamp",       "clamp_min",
                  "clamp_max",   "clip",        "maximum",     "minimum",     "eq",
                  "ne",          "gt",          "lt",          "ge",          "le",
                  "masked_fill", "sin",         "cos",         "tan",         "asin",
                  "acos",        "atan",        "atan2",       "sinh",        "cosh",
                  "reciprocal",  "floor",       "ceil",        "round",       "trunc",
                  "frac",        "sign",        "fmod",        "remainder",   "floor_divide",
                  "true_divide", "bitwise_and", "bitwise_or",  "bitwise_xor", "bitwise_not",
                  "logical_and", "logical_or",  "logical_not", "logical_xor", "erf",
                  "erfc",        "lerp",        "addcmul",     "addcdiv",     "square",
                  "isnan",       "isinf",       "nan_to_num",  "hypot",       "copysign",
                  "dropout",     "fill",        "copy",        "mul_",        "sigmoid_backward",
                  "xlogy",       "heaviside",   "positive",    "sgn"}))
        return OpFamily::Elementwise;
    return OpFamily::Other;
}

}  // namespace irscope::layout
