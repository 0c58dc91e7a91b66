// Says whose Python-defined op a node holds (python_defined_ops.h).
#include "core/ir/python_defined_ops.h"

namespace irscope::ir {

std::optional<std::string> pythonDefinedOpExplanation(const std::string& opType) {
    const std::string ns = opType.substr(0, opType.find('.'));
    const char* owner = ns == "quantized_decomposed" ? "PyTorch defines it in Python "
                                                       "(torch/ao/quantization/fx/_decomposed.py)"
                        : ns == "torchao"            ? "torchao defines it in Python"
                                                     : nullptr;
    if (!owner || opType.find('.') == std::string::npos) return std::nullopt;
    return "'" + opType + "' has no kernel in any libtorch: " + owner +
           ", and irscope has no equivalent for this op yet (it runs quantized_decomposed's quantize, dequantize "
           "and choose_qparams ops, and torchao's quantize_affine, dequantize_affine and choose_qparams_affine). "
           "Run the graph up to it, or cut it out (irscope extract) and check that part in PyTorch";
}

}  // namespace irscope::ir
