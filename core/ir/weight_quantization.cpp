#include "core/ir/weight_quantization.h"

#include "core/ir/subclass_access.h"

namespace irscope::ir {
namespace {

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::optional<int64_t> intAttr(const AttrMap& attrs, const char* key) {
    if (!attrs.contains(key) || !attrs[key].is_number_integer()) return std::nullopt;
    return attrs[key].get<int64_t>();
}

std::string dtypeAttr(const AttrMap& attrs, const char* key) {
    if (!attrs.contains(key) || !attrs[key].is_string()) return {};
    std::string d = attrs[key].get<std::string>();
    if (startsWith(d, "torch.")) d.erase(0, 6);
    return d;
}

std::string inputName(const OpNode& node, size_t k) { return k < node.inputs.size() ? node.inputs[k].name : ""; }

}  // namespace

std::optional<WeightQuantization> weightQuantization(const Graph& graph, const std::string& placeholder) {
    // A tensor subclass (torchao's quantize_): the program reads its parts.
    std::optional<WeightQuantization> subclass;
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
        const OpNode& node = graph.nodes[n];
        const auto attr = node.attrs.find("attr");
        if (!isSubclassAccess(node) || node.inputs.empty() || node.inputs[0].name != placeholder ||
            attr == node.attrs.end() || !attr->is_string() || node.outputs.empty())
            continue;
        if (!subclass) {
            subclass.emplace();
            subclass->scheme = "a tensor subclass, read by its parts:";
        }
        const std::string part = attr->get<std::string>();
        subclass->scheme += " " + part;
        if (part == "qdata") subclass->dtype = node.outputs[0].dtype;
        if (part == "scale") subclass->scaleTensor = node.outputs[0].name;
        if (part == "zero_point") subclass->zeroPointTensor = node.outputs[0].name;
    }
    if (subclass) return subclass;
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
        const OpNode& node = graph.nodes[n];
        const bool decomposed = startsWith(node.opType, "quantized_decomposed.dequantize_per_");
        const bool affine = startsWith(node.opType, "torchao.dequantize_affine");
        if ((!decomposed && !affine) || node.inputs.empty() || node.inputs[0].name != placeholder) continue;
        WeightQuantization q;
        q.dequantizeNode = static_cast<int64_t>(n);
        q.quantMin = intAttr(node.attrs, "quant_min");
        q.quantMax = intAttr(node.attrs, "quant_max");
        if (affine) {
            q.dtype = dtypeAttr(node.attrs, "input_dtype");
            std::string block;
            if (node.attrs.contains("block_size") && node.attrs["block_size"].is_array())
                for (const auto& b : node.attrs["block_size"])
                    block +=
                        (block.empty() ? "" : ", ") + (b.is_number_integer() ? std::to_string(b.get<int64_t>()) : "?");
            q.scheme = "per block [" + block + "]";
            q.scaleTensor = inputName(node, 1);
            q.zeroPointTensor = inputName(node, 2);
            return q;
        }
        q.dtype = dtypeAttr(node.attrs, "dtype");
        if (startsWith(node.opType, "quantized_decomposed.dequantize_per_channel")) {
            const auto axis = intAttr(node.attrs, "axis");
            q.scheme = "per channel" + (axis ? " (axis " + std::to_string(*axis) + ")" : std::string());
            q.scaleTensor = inputName(node, 1);
            q.zeroPointTensor = inputName(node, 2);
        } else if (startsWith(node.opType, "quantized_decomposed.dequantize_per_token")) {
            q.scheme = "per token";
            q.scaleTensor = inputName(node, 1);
            q.zeroPointTensor = inputName(node, 2);
        } else {
            q.scheme = "per tensor";
            if (node.inputs.size() >= 3) {  // the .tensor overload: scale and zero point are tensors
                q.scaleTensor = inputName(node, 1);
                q.zeroPointTensor = inputName(node, 2);
            } else {
                if (node.attrs.contains("scale") && node.attrs["scale"].is_number())
                    q.scale = node.attrs["scale"].get<double>();
                q.zeroPoint = intAttr(node.attrs, "zero_point");
            }
        }
        return q;
    }
    return std::nullopt;
}

}  // namespace irscope::ir
