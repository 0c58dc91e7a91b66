// Rebuilds tensor-subclass weights from their parts (subclass_values.h).
#include "core/exec/engine/subclass_values.h"

#include <algorithm>

#include <ATen/ATen.h>

#include "core/exec/compat/compat_ops.h"
#include "core/io/catalog/tensor_subclass.h"
#include "core/io/tensor_dtype.h"

namespace irscope::exec {

at::Tensor subclassValue(const io::TensorMap& parts, const io::SubclassTensor& subclass, std::string& why) {
    const io::TensorSubclass& layout = *subclass.layout;
    const at::Tensor* qdata = parts.find(subclass.name + ".qdata");
    const at::Tensor* scale = parts.find(subclass.name + ".scale");
    const at::Tensor* zeroPoint = parts.find(subclass.name + ".zero_point");
    const auto outer = io::scalarTypeFromName(subclass.dtype);
    if (!qdata || !scale || layout.blockSize.empty()) {
        why = "a " + layout.summary() +
              ", not an affine-quantized layout irscope can dequantize (qdata, scale, "
              "block_size); its parts are loaded";
        return {};
    }
    if (!outer || !(*outer == at::kFloat || *outer == at::kHalf || *outer == at::kBFloat16)) {
        why = "a " + layout.summary() + " of dtype " + subclass.dtype + ", which torchao does not dequantize to";
        return {};
    }
    const at::ScalarType q = qdata->scalar_type();
    if (!(q == at::kChar || q == at::kByte || q == at::kShort || q == at::kInt) ||
        qdata->sizes().vec() != subclass.shape || layout.blockSize.size() != subclass.shape.size()) {
        why = "a " + layout.summary() + " whose qdata (" + std::string(c10::toString(q)) +
              ", packed or reshaped) is not the weight's shape in integers; its parts are loaded";
        return {};
    }
    static const CompatOp* dequantize = findCompatOp({"torchao::dequantize_affine", ""});
    torch::jit::Stack stack{*qdata,
                            c10::IValue(layout.blockSize),
                            *scale,
                            zeroPoint ? c10::IValue(*zeroPoint) : c10::IValue(),
                            static_cast<int64_t>(q),
                            c10::IValue(),
                            c10::IValue(),
                            static_cast<int64_t>(*outer)};
    try {
        return dequantize->fn(stack).at(0);
    } catch (const c10::Error& e) {
        why = "a " + layout.summary() + " that does not dequantize: " + e.what_without_backtrace();
        return {};
    }
}

namespace {
bool saidWhyNot(const io::TensorMap& weights, const std::string& name) {
    return std::any_of(weights.skipped().begin(), weights.skipped().end(),
                       [&](const io::SkippedTensor& s) { return s.name == name; });
}
}  // namespace

bool lacksSubclassValues(const io::TensorMap& weights) {
    return std::any_of(weights.subclasses().begin(), weights.subclasses().end(), [&](const io::SubclassTensor& s) {
        return !weights.contains(s.name) && !saidWhyNot(weights, s.name);
    });
}

io::TensorMap withSubclassValues(const io::TensorMap& weights) {
    io::TensorMap out = weights;
    for (const auto& subclass : weights.subclasses()) {
        if (weights.contains(subclass.name) || saidWhyNot(weights, subclass.name)) continue;  // done before
        std::string why;
        if (at::Tensor value = subclassValue(weights, subclass, why); value.defined())
            out.insert(subclass.name, std::move(value), subclass.source);
        else
            out.addSkipped({subclass.name, subclass.dtype, subclass.shape, why, subclass.source});
    }
    return out;
}

}  // namespace irscope::exec
