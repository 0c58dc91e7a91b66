// What the restricted unpickler builds: objects in the arena, and the
// checked results of the opcodes that name or call something (GLOBAL, REDUCE,
// BINPERSID, BUILD). A call builds a description of what torch would make;
// nothing is ever imported or executed.
#include "core/io/catalog/pickle_objects.h"

#include <array>

#include "core/io/catalog/pickle_globals.h"
#include "core/io/catalog/tensor_file_error.h"

namespace irscope::io {

using Kind = PickleObject::Kind;

void failPickle(uint64_t at, const std::string& why) {
    throw FormatError("pickle: " + why + " (at byte " + std::to_string(at) + ")");
}

PickleValue PickleObjects::make(PickleObject o) { return PickleValue::object(arena_.add(std::move(o))); }

PickleValue PickleObjects::makeText(Kind kind, std::string_view text) {
    PickleObject o{kind};
    arena_.setText(o, text);
    return make(std::move(o));
}

PickleValue PickleObjects::makeSeq(Kind kind, std::span<const PickleValue> items) {
    PickleObject o{kind};
    arena_.setItems(o, items);
    return make(std::move(o));
}

PickleObject* PickleObjects::objectOf(const PickleValue& v) {
    return v.kind == PickleValue::Kind::Object ? &arena_.at(static_cast<uint32_t>(v.i)) : nullptr;
}

PickleValue PickleObjects::global(const std::string& fileModule, const std::string& name, uint64_t at) {
    ResolvedGlobal r = resolveGlobal(fileModule, name);
    if (!r.refusal.empty()) failPickle(at, r.refusal);
    return makeGlobal(r.module, name, r.kind, std::move(r.dtype));
}

PickleValue PickleObjects::makeGlobal(const std::string& module, const std::string& name, GlobalKind kind,
                                      PickleDType dtype) {
    PickleObject o{Kind::Global};
    arena_.setText(o, module + "." + name);
    o.global = kind;
    o.dtype() = std::move(dtype);
    return make(std::move(o));
}

std::span<const PickleValue> PickleObjects::tupleItems(const PickleValue& v, uint64_t at, const std::string& what) {
    PickleObject* o = objectOf(v);
    if (!o || (o->kind != Kind::Tuple && o->kind != Kind::List))
        failPickle(at, what + " expects a tuple, got " + arena_.describe(v));
    return o->items();
}

int64_t PickleObjects::intArg(const PickleValue& v, uint64_t at, const std::string& what) {
    if (v.kind != PickleValue::Kind::Int) failPickle(at, what + " must be an int, got " + arena_.describe(v));
    return v.i;
}

std::vector<int64_t> PickleObjects::intTuple(const PickleValue& v, uint64_t at, const std::string& what) {
    std::vector<int64_t> out;
    for (const auto& item : tupleItems(v, at, what)) out.push_back(intArg(item, at, what + " entry"));
    return out;
}

std::string PickleObjects::textArg(const PickleValue& v, uint64_t at, const std::string& what) {
    PickleObject* o = objectOf(v);
    if (!o || (o->kind != Kind::String && o->kind != Kind::Bytes))
        failPickle(at, what + " must be a string, got " + arena_.describe(v));
    return std::string(o->text());
}

PickleValue PickleObjects::persistentLoad(const PickleValue& pid, uint64_t at) {
    const auto items = tupleItems(pid, at, "persistent id");
    if (items.empty() || textArg(items[0], at, "persistent id type") != "storage")
        failPickle(at, "persistent id is not a storage reference (only tensor storages may live outside the pickle)");
    if (items.size() != 5 && items.size() != 6)
        failPickle(at, "storage persistent id has " + std::to_string(items.size()) + " fields, expected 5 or 6");
    PickleObject* cls = objectOf(items[1]);
    if (!cls || cls->kind != Kind::Global || cls->global != GlobalKind::StorageClass)
        failPickle(at, "storage persistent id names " + arena_.describe(items[1]) + ", not a storage class");
    PickleObject o{Kind::Storage};
    StorageDesc& s = o.storage();
    s.dtype = cls->dtype();
    s.untyped = cls->text() == "torch.UntypedStorage";
    s.key = textArg(items[2], at, "storage key");
    s.location = textArg(items[3], at, "storage location");
    s.numel = intArg(items[4], at, "storage size");
    if (s.numel < 0) failPickle(at, "storage '" + s.key + "' has negative size " + std::to_string(s.numel));
    if (items.size() == 6 && items[5].kind != PickleValue::Kind::None) {
        const auto view = tupleItems(items[5], at, "storage view");
        if (view.size() != 3) failPickle(at, "storage view metadata must have 3 fields");
        s.view = std::make_shared<const StorageDesc::View>(StorageDesc::View{
            textArg(view[0], at, "view key"), intArg(view[1], at, "view offset"), intArg(view[2], at, "view size")});
    }
    return make(std::move(o));
}

PickleValue PickleObjects::rebuildTensor(GlobalKind kind, std::span<const PickleValue> args, uint64_t at,
                                         const std::string& fn) {
    size_t minArgs = kind == GlobalKind::RebuildTensor ? 4 : kind == GlobalKind::RebuildTensorV2 ? 6 : 7;
    if (args.size() < minArgs || args.size() > minArgs + 1)
        failPickle(at, fn + " called with " + std::to_string(args.size()) + " arguments");
    PickleObject* storage = objectOf(args[0]);
    if (!storage || storage->kind != Kind::Storage)
        failPickle(at, fn + ": first argument must be a storage, got " + arena_.describe(args[0]));
    PickleObject o{Kind::Tensor};
    TensorDesc& t = o.tensor();
    t.storage = static_cast<uint32_t>(args[0].i);
    t.storageOffset = intArg(args[1], at, fn + " storage_offset");
    t.sizes = intTuple(args[2], at, fn + " size");
    t.strides = intTuple(args[3], at, fn + " stride");
    t.dtype = storage->storage().dtype;
    if (kind != GlobalKind::RebuildTensor) {
        if (args[4].kind != PickleValue::Kind::Bool && args[4].kind != PickleValue::Kind::Int)
            failPickle(at, fn + " requires_grad must be a bool");
        t.requiresGrad = args[4].i != 0;
    }
    if (kind == GlobalKind::RebuildTensorV3) {
        PickleObject* dt = objectOf(args[6]);
        if (!dt || dt->kind != Kind::Global || dt->global != GlobalKind::DType)
            failPickle(at, fn + " dtype argument is " + arena_.describe(args[6]) + ", not a torch dtype");
        t.dtype = dt->dtype();
    } else if (storage->storage().untyped) {
        failPickle(at, fn + " on an UntypedStorage: only _rebuild_tensor_v3 says which dtype to read it as");
    }
    if (t.sizes.size() != t.strides.size())
        failPickle(at, fn + ": size has " + std::to_string(t.sizes.size()) + " dims but stride has " +
                           std::to_string(t.strides.size()));
    return make(std::move(o));
}

PickleValue PickleObjects::reduce(const PickleValue& callable, const PickleValue& argsValue, uint64_t at) {
    return reduce(callable, argsValue, at, 0);
}

PickleValue PickleObjects::reduce(const PickleValue& callable, const PickleValue& argsValue, uint64_t at, int depth) {
    PickleObject* fnObj = objectOf(callable);
    if (!fnObj || fnObj->kind != Kind::Global)
        failPickle(at, "REDUCE on a " + arena_.describe(callable) + ", not a global");
    const std::string fn(fnObj->text());
    const GlobalKind kind = fnObj->global;
    const std::span<const PickleValue> args = tupleItems(argsValue, at, fn + " arguments");
    switch (kind) {
    case GlobalKind::OrderedDict: return orderedDict(args, at);
    case GlobalKind::Set:
    case GlobalKind::FrozenSet: {
        if (args.empty()) return makeSeq(Kind::Set, {});
        if (args.size() != 1) failPickle(at, fn + " called with " + std::to_string(args.size()) + " arguments");
        return makeSeq(Kind::Set, tupleItems(args[0], at, fn + " argument"));
    }
    case GlobalKind::Complex: return complex(args, at);
    case GlobalKind::Bytearray:
        if (args.empty()) return makeText(Kind::Bytes, "");
        return makeText(Kind::Bytes, textArg(args[0], at, "bytearray argument"));
    case GlobalKind::CodecsEncode: return codecsEncode(args, at);
    case GlobalKind::RebuildTensor:
    case GlobalKind::RebuildTensorV2:
    case GlobalKind::RebuildTensorV3: return rebuildTensor(kind, args, at, fn);
    case GlobalKind::RebuildParameter:
    case GlobalKind::RebuildParameterWithState: return rebuildParameter(kind, args, at, fn);
    case GlobalKind::RebuildFromTypeV2: {
        // (func, new_type, args, state): a Tensor or Parameter rebuilt by an
        // allowed func, or a library's tensor subclass by its wrapper.
        if (args.size() != 4) failPickle(at, fn + " called with " + std::to_string(args.size()) + " arguments");
        PickleObject* type = objectOf(args[1]);
        if (type && type->kind == Kind::Global && type->global == GlobalKind::LibraryClass)
            return subclassTensor(args, at, fn);
        if (!type || type->kind != Kind::Global ||
            (type->global != GlobalKind::TensorClass && type->global != GlobalKind::ParameterClass))
            failPickle(
                at, fn + " with type " + arena_.describe(args[1]) + ": only torchao's tensor subclasses are supported");
        // torch wraps once; a list holding itself as its own arguments would recurse forever.
        if (depth >= 4) failPickle(at, fn + " nested more than 4 deep");
        return reduce(args[0], args[2], at, depth + 1);
    }
    case GlobalKind::RebuildWrapperSubclass: {
        PickleObject o{Kind::Subclass};
        o.tensor() = wrapperTensor(args, at, fn);
        const std::string type(objectOf(args[0])->text());
        arena_.setNamedItems(o, type, std::array{PickleValue::none()});
        return make(std::move(o));
    }
    case GlobalKind::GetLayout:
        return makeText(Kind::String, textArg(args.empty() ? PickleValue{} : args[0], at,
                                              "torch.serialization._get_layout argument"));
    case GlobalKind::LibraryClass: return instance(fn, argsValue);
    case GlobalKind::TorchSize:
        if (args.size() != 1) failPickle(at, "torch.Size called with " + std::to_string(args.size()) + " arguments");
        return makeSeq(Kind::Tuple, tupleItems(args[0], at, "torch.Size argument"));
    case GlobalKind::TorchDevice: {
        if (args.empty() || args.size() > 2)
            failPickle(at, "torch.device called with " + std::to_string(args.size()) + " arguments");
        return makeText(Kind::String, textArg(args[0], at, "torch.device argument"));
    }
    case GlobalKind::TensorClass:
    case GlobalKind::ParameterClass:
    case GlobalKind::StorageClass:
    case GlobalKind::DType:
        failPickle(at, "refused call of '" + fn + "': constructing it from a pickle is not supported");
    }
    failPickle(at, "refused call of '" + fn + "'");
}

PickleValue PickleObjects::instance(const std::string& cls, const PickleValue& argsValue) {
    PickleObject o{Kind::Instance};
    arena_.setNamedItems(o, cls, std::array{argsValue, PickleValue::none()});
    return make(std::move(o));
}

PickleValue PickleObjects::newObject(const PickleValue& cls, const PickleValue& argsValue, uint64_t at) {
    PickleObject* c = objectOf(cls);
    if (!c || c->kind != Kind::Global || c->global != GlobalKind::LibraryClass)
        failPickle(at, "refused NEWOBJ of " + arena_.describe(cls) +
                           ": it creates an instance of an arbitrary class. A tensor file holds a state_dict; a "
                           "whole pickled module or custom object is not loaded (save model.state_dict() instead)");
    tupleItems(argsValue, at, std::string(c->text()) + " arguments");
    return instance(std::string(c->text()), argsValue);
}

// _rebuild_wrapper_subclass(cls, dtype, size, stride, storage_offset, layout,
// device, requires_grad): the outer tensor a subclass presents.
TensorDesc PickleObjects::wrapperTensor(std::span<const PickleValue> args, uint64_t at, const std::string& fn) {
    if (args.size() != 8) failPickle(at, fn + " called with " + std::to_string(args.size()) + " arguments");
    PickleObject* cls = objectOf(args[0]);
    if (!cls || cls->kind != Kind::Global || cls->global != GlobalKind::LibraryClass)
        failPickle(at, fn + " of " + arena_.describe(args[0]) + ": only torchao's tensor subclasses are supported");
    PickleObject* dt = objectOf(args[1]);
    if (!dt || dt->kind != Kind::Global || dt->global != GlobalKind::DType)
        failPickle(at, fn + " dtype argument is " + arena_.describe(args[1]) + ", not a torch dtype");
    TensorDesc t;
    t.dtype = dt->dtype();
    t.sizes = intTuple(args[2], at, fn + " size");
    t.strides = intTuple(args[3], at, fn + " stride");
    t.storageOffset = intArg(args[4], at, fn + " storage_offset");
    if (t.sizes.size() != t.strides.size())
        failPickle(at, fn + ": size has " + std::to_string(t.sizes.size()) + " dims but stride has " +
                           std::to_string(t.strides.size()));
    t.requiresGrad = args[7].kind != PickleValue::Kind::None && args[7].i != 0;
    return t;
}

// _rebuild_from_type_v2(_rebuild_wrapper_subclass, Type, wrapper args, state):
// the subclass, its state (inner tensors by attribute name) kept as a dict.
PickleValue PickleObjects::subclassTensor(std::span<const PickleValue> args, uint64_t at, const std::string& fn) {
    PickleObject* func = objectOf(args[0]);
    if (!func || func->kind != Kind::Global || func->global != GlobalKind::RebuildWrapperSubclass)
        failPickle(at, fn + " rebuilds " + arena_.describe(args[1]) + " with " + arena_.describe(args[0]) +
                           ", not torch._utils._rebuild_wrapper_subclass");
    PickleObject o{Kind::Subclass};
    o.tensor() = wrapperTensor(tupleItems(args[2], at, fn + " wrapper arguments"), at, "_rebuild_wrapper_subclass");
    PickleObject* state = objectOf(args[3]);
    if (args[3].kind != PickleValue::Kind::None && (!state || state->kind != Kind::Dict))
        failPickle(at,
                   fn + " state of " + arena_.describe(args[1]) + " is a " + arena_.describe(args[3]) + ", not a dict");
    arena_.setNamedItems(o, objectOf(args[1])->text(), std::array{args[3]});
    return make(std::move(o));
}

PickleValue PickleObjects::orderedDict(std::span<const PickleValue> args, uint64_t at) {
    PickleObject o{Kind::Dict};
    o.ordered = true;
    if (args.size() > 1) failPickle(at, "OrderedDict called with " + std::to_string(args.size()) + " arguments");
    if (args.size() == 1) {
        std::vector<PickleValue> items;
        for (const auto& pair : tupleItems(args[0], at, "OrderedDict items")) {
            const auto kv = tupleItems(pair, at, "OrderedDict item");
            if (kv.size() != 2) failPickle(at, "OrderedDict item is not a pair");
            items.push_back(kv[0]);
            items.push_back(kv[1]);
        }
        arena_.setItems(o, items);
    }
    return make(std::move(o));
}

PickleValue PickleObjects::complex(std::span<const PickleValue> args, uint64_t at) {
    PickleObject o{Kind::Complex};
    auto number = [&](const PickleValue& v) {
        if (v.kind == PickleValue::Kind::Float) return v.f;
        if (v.kind == PickleValue::Kind::Int || v.kind == PickleValue::Kind::Bool) return double(v.i);
        failPickle(at, "complex() argument must be a number");
    };
    if (args.size() > 2) failPickle(at, "complex() takes at most 2 arguments");
    const PickleValue parts[] = {PickleValue::real(args.empty() ? 0.0 : number(args[0])),
                                 PickleValue::real(args.size() == 2 ? number(args[1]) : 0.0)};
    arena_.setItems(o, parts);
    return make(std::move(o));
}

// How protocol 2 pickles bytes: _codecs.encode(str, 'latin1').
PickleValue PickleObjects::codecsEncode(std::span<const PickleValue> args, uint64_t at) {
    if (args.size() != 2) failPickle(at, "_codecs.encode called with " + std::to_string(args.size()) + " arguments");
    std::string text = textArg(args[0], at, "_codecs.encode text");
    std::string encoding = textArg(args[1], at, "_codecs.encode encoding");
    if (encoding != "latin1" && encoding != "latin-1")
        failPickle(at, "_codecs.encode with encoding '" + encoding + "' (only latin1 is used for bytes)");
    return makeText(Kind::Bytes, latin1FromUtf8(text, at));
}

PickleValue PickleObjects::rebuildParameter(GlobalKind kind, std::span<const PickleValue> args, uint64_t at,
                                            const std::string& fn) {
    size_t expected = kind == GlobalKind::RebuildParameter ? 3 : 4;
    if (args.size() != expected) failPickle(at, fn + " called with " + std::to_string(args.size()) + " arguments");
    PickleObject* data = objectOf(args[0]);
    if (!data || data->kind != Kind::Tensor)
        failPickle(at, fn + ": data must be a tensor, got " + arena_.describe(args[0]));
    PickleObject copy = *data;
    copy.tensor().isParameter = true;
    copy.tensor().requiresGrad = args[1].i != 0;
    return make(std::move(copy));
}

// Python's pickle turns bytes into str by latin1 decoding; str is written
// as UTF-8. Undo both to get the original bytes.
std::string PickleObjects::latin1FromUtf8(const std::string& s, uint64_t at) {
    std::string out;
    for (size_t k = 0; k < s.size(); ++k) {
        uint8_t c = uint8_t(s[k]);
        if (c < 0x80) {
            out.push_back(char(c));
        } else if ((c & 0xE0) == 0xC0 && k + 1 < s.size() && c <= 0xC3) {
            out.push_back(char(((c & 0x1F) << 6) | (uint8_t(s[++k]) & 0x3F)));
        } else {
            failPickle(at, "_codecs.encode text is not latin1");
        }
    }
    return out;
}

void PickleObjects::build(const PickleValue& target, const PickleValue& state, uint64_t at) {
    PickleObject* o = objectOf(target);
    // nn.Module.state_dict() sets OrderedDict._metadata through BUILD;
    // Parameters may carry a state too. Neither matters for values.
    if (o && (o->kind == Kind::Dict || o->kind == Kind::Tensor)) return;
    // A library record's state (torchao's granularity {"dim": -1}) is kept
    // as its second item: data, never applied.
    if (o && o->kind == Kind::Instance) {
        o->growableItems()[1] = state;
        return;
    }
    failPickle(at, "refused BUILD on a " + arena_.describe(target) + " (only OrderedDict and tensors take a state)");
}

}  // namespace irscope::io
