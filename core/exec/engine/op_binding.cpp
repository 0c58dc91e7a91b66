#include "core/exec/engine/op_binding.h"
#include <algorithm>

#include <ATen/ScalarOps.h>
#include <ATen/core/jit_type.h>
#include <torch/version.h>

#include "core/exec/compat/compat_ops.h"
#include "core/exec/engine/attr_convert.h"
#include "core/exec/engine/exec_error.h"
#include "core/ir/higher_order_ops.h"
#include "core/ir/optional_tensor_readings.h"
#include "core/ir/python_defined_ops.h"
#include "core/ir/symbolic_ops.h"

namespace irscope::exec {

static_assert(sizeof(ArgSlot) == 32, "ArgSlot is read for every node that runs: keep it at half a cache line");

namespace {

// In the order of ir::SchemaArgKind, which the light rules take.
enum class ArgClass { Tensor, OptionalTensor, TensorList, OptionalTensorList, Other };
static_assert(static_cast<int>(ArgClass::Other) == static_cast<int>(ir::SchemaArgKind::Other) &&
              static_cast<int>(ArgClass::OptionalTensor) == static_cast<int>(ir::SchemaArgKind::OptionalTensor) &&
              static_cast<int>(ArgClass::OptionalTensorList) ==
                  static_cast<int>(ir::SchemaArgKind::OptionalTensorList));

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

namespace {

std::string qualifiedName(const c10::OperatorName& name) {
    return name.name + (name.overload_name.empty() ? "" : "." + name.overload_name);
}

// The op's schema: irscope's equivalent where 2.x changed the schema of a
// name 1.13 also has (see compat_ops.h), else libtorch's own.
void resolveSchema(const ir::OpNode& node, BoundOp& op) {
    if (auto why = ir::higherOrderOpExplanation(node.opType)) throw ExecError(node.name, node.opType, *why);
    auto opName = operatorNameOf(node.opType);
    if (!opName)
        throw ExecError(node.name, node.opType,
                        "op_type '" + node.opType +
                            "' is not an ATen op (of the form namespace.op.overload, e.g. aten.add.Tensor), so "
                            "irscope cannot look up a kernel for it");
    // The running libtorch's own op wins, except on 1.13 where an
    // equivalent shadows a name whose schema 2.x changed: an equivalent is
    // used only where this libtorch lacks the op as PyTorch 2.x exports it,
    // or has it without a CPU kernel (2.x's mm.dtype is CUDA-only).
    auto handle = c10::Dispatcher::singleton().findSchema(*opName);
    const CompatOp* compat = findCompatOp(*opName);
    if (compat && handle && !(compat->shadowsDispatcherOp && TORCH_VERSION_MAJOR < 2) &&
        handle->hasComputedKernelForDispatchKey(c10::DispatchKey::CPU))
        compat = nullptr;
    if (compat) {
        op.schema = compat->schema;
        op.compat = compat->fn;
    } else if (handle) {
        op.handle = *handle;
        op.schema = &handle->schema();
    } else if (const char* why = unsupportedReason(*opName)) {
        throw ExecError(node.name, node.opType,
                        "'" + qualifiedName(*opName) + "' is not supported on this libtorch (1.13): " + why);
    } else if (auto pythonDefined = ir::pythonDefinedOpExplanation(node.opType)) {
        throw ExecError(node.name, node.opType, *pythonDefined);
    } else if (auto symbolic = ir::unknownSymbolicOpExplanation(node.opType)) {
        throw ExecError(node.name, node.opType, *symbolic);
    } else if (const std::string ns = opName->name.substr(0, opName->name.find("::"));
               ns != "aten" && ns != "prims" && ns != "quantized" && ns != "_quantized") {
        // torch.library / TORCH_LIBRARY ops of the user's own: their kernels live in
        // the Python or C++ that registered them, which this process does not have.
        throw ExecError(node.name, node.opType,
                        "'" + qualifiedName(*opName) + "' is a custom op (namespace '" + ns +
                            "', registered by the model's own code with torch.library or TORCH_LIBRARY): irscope "
                            "draws it but has no kernel for it. Run the graph up to it, or cut it out (irscope "
                            "extract) and check that part in PyTorch");
    } else {
        throw ExecError(node.name, node.opType,
                        "unknown op: libtorch " + std::to_string(TORCH_VERSION_MAJOR) + "." +
                            std::to_string(TORCH_VERSION_MINOR) + " has no '" + qualifiedName(*opName) +
                            "' and irscope has no equivalent for it");
    }
}

// Binds the node's tensor inputs and attrs to the schema's arguments, in
// schema order. Tensor inputs are consumed left to right; an argument that
// could take an input or an attr takes the input only when enough inputs are
// left for the arguments after it that certainly need one.
class ArgumentBinder {
public:
    ArgumentBinder(const ir::OpNode& node, BoundOp& op)
        : node_(node),
          op_(op),
          args_(op.schema->arguments()),
          attrs_(node.attrs),
          nInputs_(static_cast<int32_t>(node.inputs.size() - ir::sizeInputCount(node))) {
        for (const auto& a : args_) classes_.push_back(classify(a));
        listSizes_ = intListAttr(node, "_tensor_list_sizes");
        readNoneMasks();
        computeNeedAfter();
        planOptionals();
    }

    void bindAll() {
        for (size_t i = 0; i < args_.size(); ++i) {
            const auto& a = args_[i];
            ArgSlot slot;
            const int32_t left = nInputs_ - next_;
            const int32_t after = needAfter_[i + 1];
            switch (classes_[i]) {
            case ArgClass::Tensor: bindTensor(a, left, after, slot); break;
            case ArgClass::OptionalTensor: bindOptionalTensor(a, left, after, slot); break;
            case ArgClass::TensorList:
            case ArgClass::OptionalTensorList: bindTensorList(a, classes_[i], left, after, slot); break;
            case ArgClass::Other: bindOther(a, slot); break;
            }
            if (a.alias_info() && a.alias_info()->isWrite() && slot.kind == ArgSlot::Kind::Tensor)
                op_.writtenInputs.push_back(slot.first);
            op_.slots.push_back(std::move(slot));
        }
        if (next_ < nInputs_)
            fail(std::to_string(nInputs_) + " tensor inputs but the schema " + op_.schema->name() +
                 (op_.schema->overload_name().empty() ? "" : "." + op_.schema->overload_name()) + " takes only " +
                 std::to_string(next_));
        op_.inputsUsed = next_;
    }

    // Attrs no argument takes (torch_ir's own _tensor_list_* aside).
    void collectIgnoredAttrs() {
        if (!attrs_.is_object()) return;
        for (const auto& [key, value] : attrs_.items()) {
            if (key.rfind("_tensor_list_", 0) == 0) continue;
            const bool known = std::any_of(args_.begin(), args_.end(), [&](const auto& a) { return a.name() == key; });
            if (!known) op_.ignoredAttrs.push_back(key);
        }
    }

private:
    [[noreturn]] void fail(const std::string& why) const { throw ExecError(node_.name, node_.opType, why); }
    bool hasAttr(const std::string& name) const { return attrs_.is_object() && attrs_.contains(name); }
    c10::IValue fromAttr(const c10::Argument& a) const {
        try {
            return attrToIValue(a, attrs_[a.name()]);
        } catch (const std::exception& e) {
            fail("argument '" + a.name() + "': " + e.what());
        }
    }

    void readNoneMasks() {
        auto it = attrs_.find("_tensor_list_none_masks");
        if (it == attrs_.end() || !it->is_array()) return;
        for (const auto& m : *it) {
            std::vector<bool> mask;
            if (m.is_array())
                for (const auto& b : m) mask.push_back(b.is_boolean() && b.get<bool>());
            noneMasks_.push_back(mask);
        }
    }

    // Which Tensor? arguments took the inputs left after the certain ones:
    // the rule validate applies too (core/ir/optional_tensor_readings.h).
    void planOptionals() {
        std::vector<ir::SchemaArg> light(args_.size());
        for (size_t i = 0; i < args_.size(); ++i) {
            light[i].name = args_[i].name();
            light[i].kind = static_cast<ir::SchemaArgKind>(classes_[i]);
        }
        auto plan = ir::planOptionalTensors(light, node_);
        optionalPlan_ = std::move(plan.takes);
        op_.ambiguity = plan.explanation();
    }

    // needAfter_[i]: inputs that arguments i.. will certainly take.
    void computeNeedAfter() {
        needAfter_.assign(args_.size() + 1, 0);
        size_t listIdx = 0;
        std::vector<int32_t> take(args_.size(), 0);
        for (size_t i = 0; i < args_.size(); ++i) {
            if (classes_[i] == ArgClass::Tensor && !hasAttr(args_[i].name())) take[i] = 1;
            if (classes_[i] == ArgClass::TensorList || classes_[i] == ArgClass::OptionalTensorList) {
                take[i] = listIdx < listSizes_.size() ? static_cast<int32_t>(listSizes_[listIdx]) : 0;
                ++listIdx;
            }
        }
        for (size_t i = args_.size(); i-- > 0;) needAfter_[i] = needAfter_[i + 1] + take[i];
    }

    void bindTensor(const c10::Argument& a, int32_t left, int32_t after, ArgSlot& slot) {
        if (hasAttr(a.name()) && (left <= after || left == 0) && sizeInputNamed(attrs_[a.name()]) >= 0) {
            // A symbolic value where a Tensor is due: wrapped at run time (buildStack).
            op_.sizeUses.push_back(
                {static_cast<int32_t>(op_.slots.size()), -1, sizeInputNamed(attrs_[a.name()]), SizeUse::Form::Tensor});
            slot.constant = wrappedScalarTensor(c10::Scalar(int64_t{0}));
        } else if (hasAttr(a.name()) && (left <= after || left == 0)) {
            const auto& v = attrs_[a.name()];
            if (!(v.is_number() || v.is_boolean()))
                fail("argument '" + a.name() + "': cannot convert " + v.dump() + " to Tensor");
            const bool written = a.alias_info() && a.alias_info()->isWrite();
            slot.constant = written ? wrappedScalarTensor(jsonToScalar(v)) : sharedWrappedScalarTensor(jsonToScalar(v));
        } else if (left > 0) {
            slot.kind = ArgSlot::Kind::Tensor;
            slot.first = next_++;
        } else if (a.default_value()) {
            slot.constant = *a.default_value();
        } else {
            fail("argument '" + a.name() + "': no tensor input left and no attr of that name");
        }
    }

    void bindOptionalTensor(const c10::Argument& a, int32_t left, int32_t after, ArgSlot& slot) {
        const int8_t plan = optionalPlan_[static_cast<size_t>(&a - args_.data())];
        if (plan == 1 || (plan < 0 && left > after)) {
            slot.kind = ArgSlot::Kind::Tensor;
            slot.first = next_++;
        } else if (hasAttr(a.name())) {
            slot.constant = fromAttr(a);
        } else {
            slot.constant = c10::IValue();
        }
    }

    void bindTensorList(const c10::Argument& a, ArgClass cls, int32_t left, int32_t after, ArgSlot& slot) {
        const int32_t count = listIdx_ < listSizes_.size() ? static_cast<int32_t>(listSizes_[listIdx_])
                                                           : std::max(0, left - after);  // older files: the rest
        ++listIdx_;
        if (count > left)
            fail("argument '" + a.name() + "': _tensor_list_sizes asks for " + std::to_string(count) +
                 " tensors but only " + std::to_string(left) + " inputs are left");
        slot.kind = cls == ArgClass::TensorList ? ArgSlot::Kind::TensorList : ArgSlot::Kind::OptionalTensorList;
        slot.first = next_;
        slot.count = count;
        next_ += count;
        if (cls != ArgClass::OptionalTensorList) return;
        // A mask belongs to this list when its non-None count matches.
        std::vector<bool> mask;
        if (maskIdx_ < noneMasks_.size()) {
            const auto& m = noneMasks_[maskIdx_];
            int32_t present = 0;
            for (bool isNone : m) present += isNone ? 0 : 1;
            if (present == count) {
                mask = m;
                ++maskIdx_;
            }
        }
        if (mask.empty()) mask.assign(count, false);
        if (op_.noneMasks.size() > UINT16_MAX) fail("argument '" + a.name() + "': too many Tensor?[] arguments");
        slot.noneMask = static_cast<uint16_t>(op_.noneMasks.size());
        op_.noneMasks.push_back(std::move(mask));
    }

    void bindOther(const c10::Argument& a, ArgSlot& slot) {
        if (hasAttr(a.name()) && namesSizeInput(attrs_[a.name()])) {
            bindSizes(a, slot);
        } else if (hasAttr(a.name())) {
            slot.constant = fromAttr(a);
        } else if (a.default_value()) {
            slot.constant = *a.default_value();
        } else if (a.type()->kind() == c10::TypeKind::OptionalType) {
            slot.constant = c10::IValue();  // 1.13's var.correction: int[1]? dim with no default
        } else {
            fail("argument '" + a.name() + "' (" + a.type()->str() +
                 ") is missing: no attr of that name and no default in the schema");
        }
    }

    // The node input a size input's name stands for, or -1.
    int32_t sizeInputNamed(const ir::AttrMap& v) const {
        if (!v.is_string()) return -1;
        for (int32_t k = nInputs_; k < static_cast<int32_t>(node_.inputs.size()); ++k)
            if (node_.inputs[static_cast<size_t>(k)].name == v.get<std::string>()) return k;
        return -1;
    }
    bool namesSizeInput(const ir::AttrMap& v) const {
        if (sizeInputNamed(v) >= 0) return true;
        if (v.is_array())
            for (const auto& e : v)
                if (sizeInputNamed(e) >= 0) return true;
        return false;
    }

    // An int, float or int list some of whose values are computed at run
    // time: converted with 0 in their place, each noted for buildStack.
    void bindSizes(const c10::Argument& a, ArgSlot& slot) {
        const auto slotIndex = static_cast<int32_t>(op_.slots.size());
        ir::AttrMap v = attrs_[a.name()];
        if (const int32_t input = sizeInputNamed(v); input >= 0) {
            c10::TypePtr type = a.real_type();
            if (type->kind() == c10::TypeKind::OptionalType)
                type = type->castRaw<c10::OptionalType>()->getElementType();
            const auto kind = type->kind();
            const SizeUse::Form form = kind == c10::TypeKind::NumberType || kind == c10::TypeKind::BoolType
                                           ? SizeUse::Form::Scalar
                                       : kind == c10::TypeKind::FloatType ? SizeUse::Form::Float
                                                                          : SizeUse::Form::Int;
            op_.sizeUses.push_back({slotIndex, -1, input, form});
            v = 0;
        } else {
            for (size_t e = 0; e < v.size(); ++e)
                if (const int32_t element = sizeInputNamed(v[e]); element >= 0) {
                    op_.sizeUses.push_back({slotIndex, static_cast<int32_t>(e), element, SizeUse::Form::Element});
                    v[e] = 0;
                }
        }
        try {
            slot.constant = attrToIValue(a, v);
        } catch (const std::exception& e) {
            fail("argument '" + a.name() + "': " + e.what());
        }
    }

    const ir::OpNode& node_;
    BoundOp& op_;
    const std::vector<c10::Argument>& args_;
    const ir::AttrMap& attrs_;
    const int32_t nInputs_;
    std::vector<ArgClass> classes_;
    std::vector<int64_t> listSizes_;
    std::vector<std::vector<bool>> noneMasks_;
    std::vector<int32_t> needAfter_;
    std::vector<int8_t> optionalPlan_;  // per argument: 1 takes an input, 0 is None, -1 the rule in bindAll
    int32_t next_ = 0;
    size_t listIdx_ = 0, maskIdx_ = 0;
};

}  // namespace

c10::Scalar symbolicScalar(const at::Tensor& value) {
    if (value.scalar_type() == at::kBool) return c10::Scalar(value.item<bool>());
    if (at::isFloatingType(value.scalar_type())) return c10::Scalar(value.item<double>());
    return c10::Scalar(value.item<int64_t>());
}

BoundOp bindNode(const ir::OpNode& node) {
    BoundOp op;
    op.opType = node.opType;
    resolveSchema(node, op);
    ArgumentBinder binder(node, op);
    binder.bindAll();
    binder.collectIgnoredAttrs();
    if (op.handle && op.ambiguity.empty() && op.sizeUses.empty())
        op.unboxed = unboxedCallFor(*op.handle, op.slots, op.ints);
    return op;
}

void buildStack(const BoundOp& op, const at::Tensor* const* inputs, torch::jit::Stack& stack) {
    stack.clear();
    stack.reserve(op.slots.size());
    for (const auto& s : op.slots) {
        switch (s.kind) {
        case ArgSlot::Kind::Tensor: stack.emplace_back(*inputs[s.first]); break;
        case ArgSlot::Kind::TensorList: {
            c10::List<at::Tensor> list;
            list.reserve(s.count);
            for (int32_t k = 0; k < s.count; ++k) list.push_back(*inputs[s.first + k]);
            stack.emplace_back(std::move(list));
            break;
        }
        case ArgSlot::Kind::OptionalTensorList: {
            c10::List<c10::optional<at::Tensor>> list;
            int32_t k = 0;
            for (bool isNone : op.noneMasks[s.noneMask]) {
                if (isNone)
                    list.push_back(c10::nullopt);
                else
                    list.push_back(*inputs[s.first + k++]);
            }
            stack.emplace_back(std::move(list));
            break;
        }
        case ArgSlot::Kind::Constant:
        case ArgSlot::Kind::Absent: stack.push_back(s.constant); break;
        }
    }
    // Values computed at run time (sizes, symbolic numbers): the items of the
    // inputs that hold them, passed as PyTorch passes a Python number there.
    for (const SizeUse& u : op.sizeUses) {
        const at::Tensor& value = *inputs[u.input];
        c10::IValue& arg = stack[static_cast<size_t>(u.slot)];
        switch (u.form) {
        case SizeUse::Form::Int: arg = c10::IValue(value.item<int64_t>()); break;
        case SizeUse::Form::Float: arg = c10::IValue(value.item<double>()); break;
        case SizeUse::Form::Scalar: arg = c10::IValue(symbolicScalar(value)); break;
        case SizeUse::Form::Tensor: arg = c10::IValue(wrappedScalarTensor(symbolicScalar(value))); break;
        case SizeUse::Form::Element: {
            std::vector<int64_t> list = arg.toIntVector();  // a copy: the bound constant stays as it is
            list[static_cast<size_t>(u.element)] = value.item<int64_t>();
            arg = c10::IValue(std::move(list));
            break;
        }
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
