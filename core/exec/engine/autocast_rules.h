#pragma once
// What torch.autocast does to an op's floating inputs on the CPU, so that a
// reduced-precision reference run (`--reference-dtype bfloat16`, the
// Differences dock's "Second run: bfloat16") computes the way users run
// their models in bfloat16 or float16, not the way a blanket cast would:
// weights stay float32, matrix products and convolutions take the reduced
// dtype, numerically touchy ops (losses, FFTs, linear algebra) stay in
// float32, cat/stack/index_copy take their widest input, and everything
// else computes in whatever dtypes reach it (eager type promotion). A float32
// mask or RoPE table made inside the graph then meets a bfloat16 query the
// way it does under autocast.
//
// The lists are PyTorch's own CPU lists (ATen's autocast_mode.cpp, the
// AutocastCPU kernels of PyTorch 2.x): lower_precision_fp, fp32 and promote.
#include <cstdint>
#include <string_view>

namespace irscope::exec {

enum class AutocastRule : uint8_t {
    Keep,            // no cast: the op computes in the dtypes it gets
    LowerPrecision,  // float32 inputs cast to the reduced dtype (float64 stays)
    Float32,         // reduced-precision inputs cast to float32
    Promote,         // every floating input cast to the widest among them
};

// By the op's name in an op_type ("aten.linear.default" -> linear).
AutocastRule autocastRuleOf(std::string_view opType);

}  // namespace irscope::exec
