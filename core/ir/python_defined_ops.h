#pragma once
// Ops PyTorch and torchao define in Python (torch.library in their own
// packages): quantized_decomposed (torch/ao/quantization/fx/_decomposed.py,
// what PT2E quantization leaves in a program) and torchao's. No libtorch has
// a kernel for them, yet they are not the user's custom ops: irscope rebuilds
// the common ones (core/exec/compat/compat_quantized.cpp), and for the rest
// the message says whose op it is rather than blaming the model's code.
#include <optional>
#include <string>

namespace irscope::ir {

// For an op of such a namespace: why it cannot run ("... defines it in
// Python ..."); nullopt for any other op.
std::optional<std::string> pythonDefinedOpExplanation(const std::string& opType);

}  // namespace irscope::ir
