#pragma once
// Op families: the colour classes of the drawing. The classification is by the
// op's base name (op_type without "aten.", overload and in-place underscore),
// so "aten.add_.Tensor" and "aten.add.Scalar" are both Elementwise.
#include <string_view>

namespace irscope::layout {

enum class OpFamily : unsigned char {
    ConvLinear,     // conv*, linear, matmul, mm, bmm, addmm, einsum, embedding
    Normalization,  // batch/layer/group/instance/rms norm
    Activation,     // relu, gelu, silu, sigmoid, tanh, softmax, ...
    Shape,          // view, reshape, permute, cat, slice, getitem, ...
    Elementwise,    // add, mul, div, pow, where, comparisons, ...
    Reduction,      // sum, mean, amax, pooling, ...
    Attention,      // scaled_dot_product_attention and friends
    Other,
};
inline constexpr int kOpFamilyCount = 8;

// "conv_linear", "normalization", ... (stable: used as CSS class names in SVG).
const char* opFamilyName(OpFamily family);
// Classifies a full op_type ("aten.conv2d.default", "<built-in function getitem>")
// or a short name ("conv2d", "mul.Tensor").
OpFamily classifyOp(std::string_view opType);

}  // namespace irscope::layout
