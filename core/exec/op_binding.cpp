#include <algorithm>
#include "core/exec/op_binding.h"

#include <ATen/ScalarOps.h>
#include <ATen/core/jit_type.h>

#include "core/exec/attr_convert.h"
#include "core/exec/compat_ops.h"
#include "core/exec/exec_error.h"

namespace irscope::exec {
namespace {

enum class ArgClass { Tensor, OptionalTensor, TensorList, OptionalTensorList, Other };

ArgClass classify(const c10::Argument& arg) {
    const auto& t = arg.type();
    if (t->kind() == c10::TypeKind::TensorType) return ArgClass::Tensor;
    if (t->kind() == c10::TypeKind::OptionalType &&
        t->castRaw<c10::OptionalType>()->getElementType()->kind() == c10::TypeKind::TensorType)
        return ArgClass::OptionalTensor;
    if (t->kind() == c10::TypeKind::ListType) {
        const auto& e = t->castRaw<c10::ListType>()->getElementType();
        if (e->kind() == c10::TypeKind::TensorType) return ArgClass::TensorList;
        if (e->kind() == c10::TypeKind::OptionalType &&
            e->castRaw<c10::OptionalType>()->getElementType()->kind() == c10::TypeKind::TensorType)
            return ArgClass::OptionalTensorList;
    }
    return ArgClass::Other;
}

std::vector<int64_t> intListAttr(const ir::OpNode& node, const char* key) {
    std::vector<int64_t> out;
    auto it = node.attrs.find(key);
    if (it == node.attrs.end() || !it->is_array()) return out;
    for (const auto& v : *it)
        if (v.is_number_integer()) out.push_back(v.get<int64_t>());
    return out;
}

}  // namespace

std::optional<c10::OperatorName> operatorNameOf(const std::string& opType) {
    auto first = opType.find('.');
    auto last = opType.rfind('.');
    if (first == std::string::npos || first == 0) return std::nullopt;
    std::string ns = opType.substr(0, first);
    std::string name, overload;
    if (last == first) {
        name = opType.substr(first + 1);
    } else {
        name = opType.substr(first + 1, last - first - 1);
        overload = opType.substr(last + 1);
        if (overload == "default") overload.clear();
    }
    if (name.empty()) return std::nullopt;
    return c10::OperatorName(ns + "::" + name, overload);
}

BoundOp bindNode(const ir::OpNode& node) {
    BoundOp op;
    op.opType = node.opType;
    auto opName = operatorNameOf(node.opType);
    if (!opName) throw ExecError(node.name, node.opType, "op_type is not of the form namespace.op.overload");

    // The equivalent first: where one exists for a name 1.13 also has, it is
    // because 2.x changed that op's schema (see compat_ops.h).
    if (const CompatOp* compat = findCompatOp(*opName)) {
        op.schema = compat->schema;
        op.compat = compat->fn;
    } else if (auto handle = c10::Dispatcher::singleton().findSchema(*opName)) {
        op.handle = *handle;
        op.schema = &handle->schema();
    } else if (const char* why = unsupportedReason(*opName)) {
        throw ExecError(node.name, node.opType,
                        "'" + opName->name + (opName->overload_name.empty() ? "" : "." + opName->overload_name) +
                            "' is not supported on this libtorch (1.13): " + why);
    } else {
        throw ExecError(node.name, node.opType,
                        std::string("unknown op: libtorch 1.13 has no ") + "'" + opName->name +
                            (opName->overload_name.empty() ? "" : "." + opName->overload_name) +
                            "' and irscope has no equivalent for it");
    }

    const auto& args = op.schema->arguments();
    const ir::AttrMap& attrs = node.attrs;
    auto hasAttr = [&](const std::string& name) { return attrs.is_object() && attrs.contains(name); };
    std::vector<ArgClass> classes;
    for (const auto& a : args) classes.push_back(classify(a));

    // List sizes, in schema order of Tensor[]/Tensor?[] arguments.
    std::vector<int64_t> listSizes = intListAttr(node, "_tensor_list_sizes");
    std::vector<std::vector<bool>> noneMasks;
    if (auto it = attrs.find("_tensor_list_none_masks"); it != attrs.end() && it->is_array())
        for (const auto& m : *it) {
            std::vector<bool> mask;
            if (m.is_array())
                for (const auto& b : m) mask.push_back(b.is_boolean() && b.get<bool>());
            noneMasks.push_back(mask);
        }

    const int32_t nInputs = static_cast<int32_t>(node.inputs.size());
    // needAfter[i]: inputs that arguments after i will certainly take.
    std::vector<int32_t> needAfter(args.size() + 1, 0);
    {
        size_t listIdx = 0;
        std::vector<int32_t> take(args.size(), 0);
        for (size_t i = 0; i < args.size(); ++i) {
            if (classes[i] == ArgClass::Tensor && !hasAttr(args[i].name())) take[i] = 1;
            if (classes[i] == ArgClass::TensorList || classes[i] == ArgClass::OptionalTensorList) {
                take[i] = listIdx < listSizes.size() ? static_cast<int32_t>(listSizes[listIdx]) : 0;
                ++listIdx;
            }
        }
        for (size_t i = args.size(); i-- > 0;) needAfter[i] = needAfter[i + 1] + take[i];
    }

    int32_t next = 0;
    size_t listIdx = 0, maskIdx = 0;
    for (size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        ArgSlot slot;
        const int32_t left = nInputs - next;
        const int32_t after = needAfter[i + 1];
        auto fromAttr = [&](const nlohmann::ordered_json& v) {
            try {
                return attrToIValue(a, v);
            } catch (const std::exception& e) {
                throw ExecError(node.name, node.opType, "argument '" + a.name() + "': " + e.what());
            }
        };
        switch (classes[i]) {
        case ArgClass::Tensor:
            if (hasAttr(a.name()) && (left <= after || left == 0)) {
                const auto& v = attrs[a.name()];
                if (!(v.is_number() || v.is_boolean()))
                    throw ExecError(node.name, node.opType,
                                    "argument '" + a.name() + "': cannot convert " + v.dump() + " to Tensor");
                slot.constant = wrappedScalarTensor(jsonToScalar(v));
            } else if (left > 0) {
                slot.kind = ArgSlot::Kind::Tensor;
                slot.first = next++;
            } else if (a.default_value()) {
                slot.constant = *a.default_value();
            } else {
                throw ExecError(node.name, node.opType,
                                "argument '" + a.name() + "': no tensor input left and no attr of that name");
            }
            break;
        case ArgClass::OptionalTensor:
            if (left > after) {
                slot.kind = ArgSlot::Kind::Tensor;
                slot.first = next++;
            } else if (hasAttr(a.name())) {
                slot.constant = fromAttr(attrs[a.name()]);
            } else {
                slot.constant = c10::IValue();
            }
            break;
        case ArgClass::TensorList:
        case ArgClass::OptionalTensorList: {
            int32_t count = listIdx < listSizes.size() ? static_cast<int32_t>(listSizes[listIdx])
                                                       : std::max(0, left - after);   // older files: the rest
            ++listIdx;
            if (count > left)
                throw ExecError(node.name, node.opType,
                                "argument '" + a.name() + "': _tensor_list_sizes asks for " + std::to_string(count) +
                                    " tensors but only " + std::to_string(left) + " inputs are left");
            slot.kind = classes[i] == ArgClass::TensorList ? ArgSlot::Kind::TensorList
                                                           : ArgSlot::Kind::OptionalTensorList;
            slot.first = next;
            slot.count = count;
            next += count;
            if (classes[i] == ArgClass::OptionalTensorList) {
                // A mask belongs to this list when its non-None count matches.
                if (maskIdx < noneMasks.size()) {
                    const auto& m = noneMasks[maskIdx];
                    int32_t present = 0;
                    for (bool isNone : m) present += isNone ? 0 : 1;
                    if (present == count) {
                        slot.noneMask = m;
                        ++maskIdx;
                    }
                }
                if (slot.noneMask.empty()) slot.noneMask.assign(count, false);
            }
            break;
        }
        case ArgClass::Other:
            if (hasAttr(a.name())) {
                slot.constant = fromAttr(attrs[a.name()]);
            } else if (a.default_value()) {
                slot.constant = *a.default_value();
            } else if (a.type()->kind() == c10::TypeKind::OptionalType) {
                slot.constant = c10::IValue();   // 1.13's var.correction: int[1]? dim with no default
            } else {
                throw ExecError(node.name, node.opType,
                                "argument '" + a.name() + "' (" + a.type()->str() +
                                    ") is missing: no attr of that name and no default in the schema");
            }
            break;
        }
        if (a.alias_info() && a.alias_info()->isWrite() && slot.kind == ArgSlot::Kind::Tensor)
            op.writtenInputs.push_back(slot.first);
        op.slots.push_back(std::move(slot));
    }
    if (next < nInputs)
        throw ExecError(node.name, node.opType,
                        std::to_string(nInputs) + " tensor inputs but the schema " + op.schema->name() +
                            (op.schema->overload_name().empty() ? "" : "." + op.schema->overload_name()) +
                            " takes only " + std::to_string(next));
    op.inputsUsed = next;
    if (attrs.is_object())
        for (const auto& [key, value] : attrs.items()) {
            if (key.rfind("_tensor_list_", 0) == 0) continue;   // internal attrs of torch_ir
            const bool known = std::any_of(args.begin(), args.end(), [&](const auto& a) { return a.name() == key; });
            if (!known) op.ignoredAttrs.push_back(key);
        }
    return op;
}

void buildStack(const BoundOp& op, const std::vector<at::Tensor>& inputs, torch::jit::Stack& stack) {
    stack.clear();
    stack.reserve(op.slots.size());
    for (const auto& s : op.slots) {
        switch (s.kind) {
        case ArgSlot::Kind::Tensor:
            stack.emplace_back(inputs[s.first]);
            break;
        case ArgSlot::Kind::TensorList: {
            c10::List<at::Tensor> list;
            list.reserve(s.count);
            for (int32_t k = 0; k < s.count; ++k) list.push_back(inputs[s.first + k]);
            stack.emplace_back(std::move(list));
            break;
        }
        case ArgSlot::Kind::OptionalTensorList: {
            c10::List<c10::optional<at::Tensor>> list;
            int32_t k = 0;
            for (bool isNone : s.noneMask) {
                if (isNone) list.push_back(c10::nullopt);
                else list.push_back(inputs[s.first + k++]);
            }
            stack.emplace_back(std::move(list));
            break;
        }
        case ArgSlot::Kind::Constant:
        case ArgSlot::Kind::Absent:
            stack.push_back(s.constant);
            break;
        }
    }
}

void callBound(const BoundOp& op, torch::jit::Stack& stack, std::vector<at::Tensor>& results) {
    results.clear();
    if (op.compat) {
        results = op.compat(stack);
        return;
    }
    op.handle->callBoxed(stack);
    for (auto& v : stack) {
        if (v.isTensor()) {
            results.push_back(std::move(v).toTensor());
        } else if (v.isTensorList()) {
            for (const at::Tensor& t : v.toTensorList()) results.push_back(t);
        } else if (v.isNone()) {
            results.emplace_back();
        } else if (v.isInt() || v.isDouble() || v.isBool()) {
            results.push_back(at::scalar_to_tensor(v.toScalar()));
        } else if (v.isList()) {
            for (const auto& e : v.toListRef()) results.push_back(e.isTensor() ? e.toTensor() : at::Tensor());
        } else {
            results.emplace_back();
        }
    }
}

}  // namespace irscope::exec
