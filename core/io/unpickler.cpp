#include "core/io/unpickler.h"

#include <array>
#include <charconv>
#include <cstring>
#include <unordered_map>

#include "core/io/byte_reader.h"
#include "core/ir/dtype.h"

namespace irscope::io {

// ---- arena ---------------------------------------------------------------

uint32_t PickleArena::add(PickleObject object) {
    if (objects_.size() >= 0xFFFFFFF0u) throw FormatError("pickle creates too many objects");
    objects_.push_back(std::move(object));
    return static_cast<uint32_t>(objects_.size() - 1);
}

const std::string* PickleArena::string(const PickleValue& v) const {
    const PickleObject* o = get(v);
    return o && o->kind == PickleObject::Kind::String ? &o->text : nullptr;
}

std::optional<int64_t> PickleArena::integer(const PickleValue& v) const {
    if (v.kind == PickleValue::Kind::Int) return v.i;
    return std::nullopt;
}

std::string PickleArena::describe(const PickleValue& v) const {
    switch (v.kind) {
        case PickleValue::Kind::None: return "None";
        case PickleValue::Kind::Bool: return "bool";
        case PickleValue::Kind::Int: return "int";
        case PickleValue::Kind::Float: return "float";
        case PickleValue::Kind::Object: break;
    }
    const PickleObject& o = at(static_cast<uint32_t>(v.i));
    switch (o.kind) {
        case PickleObject::Kind::String: return "str";
        case PickleObject::Kind::Bytes: return "bytes";
        case PickleObject::Kind::BigInt: return "int";
        case PickleObject::Kind::Complex: return "complex";
        case PickleObject::Kind::Tuple: return "tuple";
        case PickleObject::Kind::List: return "list";
        case PickleObject::Kind::Dict: return o.ordered ? "OrderedDict" : "dict";
        case PickleObject::Kind::Set: return "set";
        case PickleObject::Kind::Global: return "global " + o.text;
        case PickleObject::Kind::Storage: return "storage";
        case PickleObject::Kind::Tensor: return "tensor";
    }
    return "object";
}

// ---- dtypes --------------------------------------------------------------

namespace {

// Storage classes by the dtype they hold. Name, size and whether irscope can
// hold it come from the one dtype table (core/ir/dtype.h).
constexpr std::array<std::pair<std::string_view, std::string_view>, 18> kStorageClasses{{
    {"FloatStorage", "float32"},       {"DoubleStorage", "float64"},     {"HalfStorage", "float16"},
    {"BFloat16Storage", "bfloat16"},   {"CharStorage", "int8"},          {"ShortStorage", "int16"},
    {"IntStorage", "int32"},           {"LongStorage", "int64"},         {"ByteStorage", "uint8"},
    {"BoolStorage", "bool"},           {"ComplexFloatStorage", "complex64"}, {"ComplexDoubleStorage", "complex128"},
    {"ComplexHalfStorage", "complex32"}, {"QInt8Storage", "qint8"},      {"QUInt8Storage", "quint8"},
    {"QInt32Storage", "qint32"},       {"QUInt4x2Storage", "quint4x2"},  {"QUInt2x4Storage", "quint2x4"},
}};

PickleDType fromTable(const ir::TorchDType& d) {
    return {std::string(d.name), static_cast<int>(d.size), d.held.has_value()};
}

}  // namespace

std::optional<PickleDType> storageClassDType(std::string_view className) {
    if (className == "UntypedStorage") return PickleDType{"uint8", 1, true};
    for (const auto& [storage, dtype] : kStorageClasses)
        if (className == storage) return fromTable(*ir::findTorchDType(dtype));
    return std::nullopt;
}

std::optional<PickleDType> torchDTypeByName(std::string_view name) {
    if (name.rfind("torch.", 0) == 0) return std::nullopt;   // a global's name never carries the module
    const ir::TorchDType* d = ir::findTorchDType(name);
    return d ? std::optional(fromTable(*d)) : std::nullopt;
}

// ---- the machine ---------------------------------------------------------

namespace {

using Kind = PickleObject::Kind;

const char* opcodeName(uint8_t op) {
    switch (op) {
        case '(': return "MARK"; case '.': return "STOP"; case '0': return "POP"; case '1': return "POP_MARK";
        case '2': return "DUP"; case 'F': return "FLOAT"; case 'I': return "INT"; case 'J': return "BININT";
        case 'K': return "BININT1"; case 'L': return "LONG"; case 'M': return "BININT2"; case 'N': return "NONE";
        case 'P': return "PERSID"; case 'Q': return "BINPERSID"; case 'R': return "REDUCE"; case 'S': return "STRING";
        case 'T': return "BINSTRING"; case 'U': return "SHORT_BINSTRING"; case 'V': return "UNICODE";
        case 'X': return "BINUNICODE"; case 'a': return "APPEND"; case 'b': return "BUILD"; case 'c': return "GLOBAL";
        case 'd': return "DICT"; case '}': return "EMPTY_DICT"; case 'e': return "APPENDS"; case 'g': return "GET";
        case 'h': return "BINGET"; case 'i': return "INST"; case 'j': return "LONG_BINGET"; case 'l': return "LIST";
        case ']': return "EMPTY_LIST"; case 'o': return "OBJ"; case 'p': return "PUT"; case 'q': return "BINPUT";
        case 'r': return "LONG_BINPUT"; case 's': return "SETITEM"; case 't': return "TUPLE"; case ')': return "EMPTY_TUPLE";
        case 'u': return "SETITEMS"; case 'G': return "BINFLOAT"; case 0x80: return "PROTO"; case 0x81: return "NEWOBJ";
        case 0x82: return "EXT1"; case 0x83: return "EXT2"; case 0x84: return "EXT4"; case 0x85: return "TUPLE1";
        case 0x86: return "TUPLE2"; case 0x87: return "TUPLE3"; case 0x88: return "NEWTRUE"; case 0x89: return "NEWFALSE";
        case 0x8a: return "LONG1"; case 0x8b: return "LONG4"; case 'B': return "BINBYTES"; case 'C': return "SHORT_BINBYTES";
        case 0x8c: return "SHORT_BINUNICODE"; case 0x8d: return "BINUNICODE8"; case 0x8e: return "BINBYTES8";
        case 0x8f: return "EMPTY_SET"; case 0x90: return "ADDITEMS"; case 0x91: return "FROZENSET"; case 0x92: return "NEWOBJ_EX";
        case 0x93: return "STACK_GLOBAL"; case 0x94: return "MEMOIZE"; case 0x95: return "FRAME"; case 0x96: return "BYTEARRAY8";
        case 0x97: return "NEXT_BUFFER"; case 0x98: return "READONLY_BUFFER";
        default: return nullptr;
    }
}

std::string hexByte(uint8_t b) {
    const char* digits = "0123456789abcdef";
    return std::string("0x") + digits[b >> 4] + digits[b & 15];
}

struct AllowedGlobal {
    const char* module;
    const char* name;
    GlobalKind kind;
};

constexpr std::array<AllowedGlobal, 16> kAllowed{{
    {"collections", "OrderedDict", GlobalKind::OrderedDict},
    {"builtins", "set", GlobalKind::Set},
    {"builtins", "frozenset", GlobalKind::FrozenSet},
    {"builtins", "complex", GlobalKind::Complex},
    {"builtins", "bytearray", GlobalKind::Bytearray},
    {"_codecs", "encode", GlobalKind::CodecsEncode},
    {"torch._utils", "_rebuild_tensor", GlobalKind::RebuildTensor},
    {"torch._utils", "_rebuild_tensor_v2", GlobalKind::RebuildTensorV2},
    {"torch._utils", "_rebuild_tensor_v3", GlobalKind::RebuildTensorV3},
    {"torch._utils", "_rebuild_parameter", GlobalKind::RebuildParameter},
    {"torch._utils", "_rebuild_parameter_with_state", GlobalKind::RebuildParameterWithState},
    {"torch._tensor", "_rebuild_from_type_v2", GlobalKind::RebuildFromTypeV2},
    {"torch", "Tensor", GlobalKind::TensorClass},
    {"torch.nn.parameter", "Parameter", GlobalKind::ParameterClass},
    {"torch", "Size", GlobalKind::TorchSize},
    {"torch", "device", GlobalKind::TorchDevice},
}};

constexpr std::array<std::pair<const char*, const char*>, 9> kPy2Modules{{
    {"__builtin__", "builtins"}, {"copy_reg", "copyreg"}, {"commands", "subprocess"}, {"cPickle", "pickle"},
    {"exceptions", "builtins"}, {"UserDict", "collections"}, {"_abcoll", "collections.abc"},
    {"cStringIO", "io"}, {"urllib2", "urllib.request"},
}};

class Unpickler {
public:
    explicit Unpickler(std::string_view data) : data_(data) {}

    UnpickleResult run() {
        UnpickleResult result;
        arena_ = &result.arena;
        while (true) {
            uint64_t opAt = pos_;
            uint8_t op = readU8();
            if (op == '.') {
                if (stack_.size() != 1 || !marks_.empty())
                    fail(opAt, "STOP with " + std::to_string(stack_.size()) + " values on the stack");
                result.root = stack_.back();
                result.consumed = pos_;
                return result;
            }
            step(op, opAt);
        }
    }

private:
    std::string_view data_;
    uint64_t pos_ = 0;
    PickleArena* arena_ = nullptr;
    std::vector<PickleValue> stack_;
    std::vector<size_t> marks_;
    std::unordered_map<uint64_t, PickleValue> memo_;

    [[noreturn]] void fail(uint64_t at, const std::string& why) const {
        throw FormatError("pickle: " + why + " (at byte " + std::to_string(at) + ")");
    }

    // -- input
    uint8_t readU8() { return readLE<uint8_t>(data_, pos_++, "pickle opcode or argument"); }
    template <typename T>
    T read() {
        T v = readLE<T>(data_, pos_, "pickle argument");
        pos_ += sizeof(T);
        return v;
    }
    std::string_view readBytes(uint64_t n) {
        if (!fitsIn(pos_, n, data_.size()))
            fail(pos_, "truncated: a " + std::to_string(n) + "-byte argument runs past the end");
        std::string_view s = data_.substr(pos_, n);
        pos_ += n;
        return s;
    }
    std::string_view readLine() {
        size_t nl = data_.find('\n', pos_);
        if (nl == std::string_view::npos || nl - pos_ > 4096) fail(pos_, "truncated or overlong text argument");
        std::string_view s = data_.substr(pos_, nl - pos_);
        pos_ = nl + 1;
        return s;
    }

    // -- stack
    PickleValue pop(uint64_t at, const char* op) {
        if (stack_.size() <= (marks_.empty() ? 0 : marks_.back()))
            fail(at, std::string(op) + " on an empty stack");
        PickleValue v = stack_.back();
        stack_.pop_back();
        return v;
    }
    PickleValue& top(uint64_t at, const char* op) {
        if (stack_.size() <= (marks_.empty() ? 0 : marks_.back()))
            fail(at, std::string(op) + " on an empty stack");
        return stack_.back();
    }
    std::vector<PickleValue> popMark(uint64_t at, const char* op) {
        if (marks_.empty()) fail(at, std::string(op) + " without MARK");
        size_t m = marks_.back();
        marks_.pop_back();
        std::vector<PickleValue> items(stack_.begin() + static_cast<std::ptrdiff_t>(m), stack_.end());
        stack_.resize(m);
        return items;
    }
    void push(PickleValue v) { stack_.push_back(v); }
    PickleValue make(PickleObject o) { return PickleValue::object(arena_->add(std::move(o))); }
    PickleValue makeText(Kind kind, std::string_view text) {
        PickleObject o{kind};
        o.text.assign(text);
        return make(std::move(o));
    }
    PickleValue makeSeq(Kind kind, std::vector<PickleValue> items) {
        PickleObject o{kind};
        o.items = std::move(items);
        return make(std::move(o));
    }
    PickleObject* objectOf(const PickleValue& v) {
        return v.kind == PickleValue::Kind::Object ? &arena_->at(static_cast<uint32_t>(v.i)) : nullptr;
    }
    PickleObject& container(const PickleValue& v, Kind kind, uint64_t at, const char* op) {
        PickleObject* o = objectOf(v);
        if (!o || o->kind != kind) fail(at, std::string(op) + " on a " + arena_->describe(v));
        return *o;
    }

    // -- opcodes
    void step(uint8_t op, uint64_t at) {
        switch (op) {
            case 0x80: {  // PROTO
                uint8_t proto = readU8();
                if (proto > 5) fail(at, "unknown pickle protocol " + std::to_string(proto));
                return;
            }
            case 0x95: read<uint64_t>(); return;   // FRAME: a buffering hint only
            case '(': marks_.push_back(stack_.size()); return;
            case '0': pop(at, "POP"); return;
            case '1': popMark(at, "POP_MARK"); return;
            case '2': push(top(at, "DUP")); return;
            case 'N': push(PickleValue::none()); return;
            case 0x88: push(PickleValue::boolean(true)); return;
            case 0x89: push(PickleValue::boolean(false)); return;
            case 'J': push(PickleValue::integer(read<int32_t>())); return;
            case 'K': push(PickleValue::integer(read<uint8_t>())); return;
            case 'M': push(PickleValue::integer(read<uint16_t>())); return;
            case 0x8a: pushLong(readBytes(read<uint8_t>())); return;
            case 0x8b: {
                int32_t n = read<int32_t>();
                if (n < 0) fail(at, "LONG4 with a negative length");
                pushLong(readBytes(static_cast<uint64_t>(n)));
                return;
            }
            case 'G': {
                uint64_t bits = read<uint64_t>();
                bits = __builtin_bswap64(bits);   // BINFLOAT is big-endian
                double d;
                std::memcpy(&d, &bits, sizeof d);
                push(PickleValue::real(d));
                return;
            }
            case 'X': push(makeText(Kind::String, readBytes(read<uint32_t>()))); return;
            case 0x8c: push(makeText(Kind::String, readBytes(read<uint8_t>()))); return;
            case 0x8d: push(makeText(Kind::String, readBytes(read<uint64_t>()))); return;
            // Python 2 str: torch.load decodes such strings as ASCII/latin1 text.
            case 'U': push(makeText(Kind::String, readBytes(read<uint8_t>()))); return;
            case 'T': {
                int32_t n = read<int32_t>();
                if (n < 0) fail(at, "BINSTRING with a negative length");
                push(makeText(Kind::String, readBytes(static_cast<uint64_t>(n))));
                return;
            }
            case 'B': push(makeText(Kind::Bytes, readBytes(read<uint32_t>()))); return;
            case 'C': push(makeText(Kind::Bytes, readBytes(read<uint8_t>()))); return;
            case 0x8e: push(makeText(Kind::Bytes, readBytes(read<uint64_t>()))); return;
            case 0x96: push(makeText(Kind::Bytes, readBytes(read<uint64_t>()))); return;
            case ')': push(makeSeq(Kind::Tuple, {})); return;
            case 't': push(makeSeq(Kind::Tuple, popMark(at, "TUPLE"))); return;
            case 0x85: case 0x86: case 0x87: {
                size_t n = op - 0x84u;
                std::vector<PickleValue> items(n);
                for (size_t k = n; k-- > 0;) items[k] = pop(at, opcodeName(op));
                push(makeSeq(Kind::Tuple, std::move(items)));
                return;
            }
            case ']': push(makeSeq(Kind::List, {})); return;
            case 'l': push(makeSeq(Kind::List, popMark(at, "LIST"))); return;
            case 'a': {
                PickleValue v = pop(at, "APPEND");
                container(top(at, "APPEND"), Kind::List, at, "APPEND").items.push_back(v);
                return;
            }
            case 'e': {
                auto items = popMark(at, "APPENDS");
                auto& list = container(top(at, "APPENDS"), Kind::List, at, "APPENDS").items;
                list.insert(list.end(), items.begin(), items.end());
                return;
            }
            case '}': push(makeSeq(Kind::Dict, {})); return;
            case 'd': {
                auto items = popMark(at, "DICT");
                if (items.size() % 2) fail(at, "DICT with an odd number of items");
                push(makeSeq(Kind::Dict, std::move(items)));
                return;
            }
            case 's': {
                PickleValue v = pop(at, "SETITEM");
                PickleValue k = pop(at, "SETITEM");
                auto& dict = container(top(at, "SETITEM"), Kind::Dict, at, "SETITEM").items;
                dict.push_back(k);
                dict.push_back(v);
                return;
            }
            case 'u': {
                auto items = popMark(at, "SETITEMS");
                if (items.size() % 2) fail(at, "SETITEMS with an odd number of items");
                auto& dict = container(top(at, "SETITEMS"), Kind::Dict, at, "SETITEMS").items;
                dict.insert(dict.end(), items.begin(), items.end());
                return;
            }
            case 0x8f: push(makeSeq(Kind::Set, {})); return;
            case 0x90: {
                auto items = popMark(at, "ADDITEMS");
                auto& set = container(top(at, "ADDITEMS"), Kind::Set, at, "ADDITEMS").items;
                set.insert(set.end(), items.begin(), items.end());
                return;
            }
            case 0x91: push(makeSeq(Kind::Set, popMark(at, "FROZENSET"))); return;
            case 'q': memo_[read<uint8_t>()] = top(at, "BINPUT"); return;
            case 'r': memo_[read<uint32_t>()] = top(at, "LONG_BINPUT"); return;
            case 0x94: memo_[memo_.size()] = top(at, "MEMOIZE"); return;
            case 'p': memo_[parseDecimal(readLine(), at)] = top(at, "PUT"); return;
            case 'h': get(read<uint8_t>(), at); return;
            case 'j': get(read<uint32_t>(), at); return;
            case 'g': get(parseDecimal(readLine(), at), at); return;
            case 'c': {
                std::string module(readLine());
                std::string name(readLine());
                push(resolveGlobal(module, name, at));
                return;
            }
            case 0x93: {
                PickleValue name = pop(at, "STACK_GLOBAL");
                PickleValue module = pop(at, "STACK_GLOBAL");
                const std::string* m = arena_->string(module);
                const std::string* n = arena_->string(name);
                if (!m || !n) fail(at, "STACK_GLOBAL needs two strings");
                push(resolveGlobal(*m, *n, at));
                return;
            }
            case 'Q': {
                PickleValue pid = pop(at, "BINPERSID");
                push(persistentLoad(pid, at));
                return;
            }
            case 'R': {
                PickleValue args = pop(at, "REDUCE");
                PickleValue callable = pop(at, "REDUCE");
                push(reduce(callable, args, at));
                return;
            }
            case 'b': {
                PickleValue state = pop(at, "BUILD");
                build(top(at, "BUILD"), state, at);
                return;
            }
            case 0x81: case 0x92: case 'i': case 'o':
                fail(at, std::string("refused opcode ") + opcodeName(op) + " (" + hexByte(op) +
                             "): it creates an instance of an arbitrary class. A tensor file holds a "
                             "state_dict; a whole pickled module or custom object is not loaded "
                             "(save model.state_dict() instead)");
            default: {
                const char* name = opcodeName(op);
                if (name) fail(at, std::string("refused opcode ") + name + " (" + hexByte(op) + "): not used by tensor files");
                fail(at, "invalid pickle opcode " + hexByte(op));
            }
        }
    }

    static uint64_t parseDecimal(std::string_view s, uint64_t at) {
        uint64_t v = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size())
            throw FormatError("pickle: bad memo index (at byte " + std::to_string(at) + ")");
        return v;
    }

    void get(uint64_t index, uint64_t at) {
        auto it = memo_.find(index);
        if (it == memo_.end()) fail(at, "memo entry " + std::to_string(index) + " was never stored");
        push(it->second);
    }

    void pushLong(std::string_view bytes) {
        if (bytes.size() <= 8) {
            uint64_t v = 0;
            for (size_t k = 0; k < bytes.size(); ++k) v |= uint64_t(uint8_t(bytes[k])) << (8 * k);
            if (!bytes.empty() && bytes.size() < 8 && (uint8_t(bytes.back()) & 0x80))
                v |= ~uint64_t(0) << (8 * bytes.size());   // sign-extend
            push(PickleValue::integer(static_cast<int64_t>(v)));
        } else {
            push(makeText(Kind::BigInt, bytes));
        }
    }

    PickleValue makeGlobal(const std::string& module, const std::string& name, GlobalKind kind, PickleDType dtype = {}) {
        PickleObject o{Kind::Global};
        o.text = module + "." + name;
        o.global = kind;
        o.dtype = std::move(dtype);
        return make(std::move(o));
    }

    PickleValue resolveGlobal(const std::string& fileModule, const std::string& name, uint64_t at) {
        // Protocol 2 pickles written by Python 3 carry Python 2 module names,
        // which Python 3's unpickler maps back (fix_imports); so do we, to
        // judge and name a global the way torch.load would resolve it.
        std::string module = fileModule;
        for (const auto& [py2, py3] : kPy2Modules)
            if (fileModule == py2) module = py3;
        for (const auto& g : kAllowed)
            if (module == g.module && name == g.name) return makeGlobal(module, name, g.kind);
        if (module == "torch") {
            if (auto dt = storageClassDType(name)) return makeGlobal(module, name, GlobalKind::StorageClass, *dt);
            if (auto dt = torchDTypeByName(name)) return makeGlobal(module, name, GlobalKind::DType, *dt);
        }
        std::string full = module + "." + name;
        if (module == "torch._utils" && name.rfind("_rebuild_", 0) == 0)
            fail(at, "global '" + full + "' rebuilds a quantized, sparse, nested, meta or subclass tensor, "
                     "which irscope does not support");
        std::string hint;
        if (module.rfind("torch.nn.modules", 0) == 0 || module == "__main__")
            hint = " (the file holds a whole pickled module or a custom class, not a state_dict; "
                   "save model.state_dict() instead)";
        fail(at, "refused global '" + full + "': not in the allowlist of tensor-file globals, "
                 "nothing in a file is ever executed" + hint);
    }

    const std::vector<PickleValue>& tupleItems(const PickleValue& v, uint64_t at, const std::string& what) {
        PickleObject* o = objectOf(v);
        if (!o || (o->kind != Kind::Tuple && o->kind != Kind::List))
            fail(at, what + " expects a tuple, got " + arena_->describe(v));
        return o->items;
    }

    int64_t intArg(const PickleValue& v, uint64_t at, const std::string& what) {
        if (v.kind != PickleValue::Kind::Int) fail(at, what + " must be an int, got " + arena_->describe(v));
        return v.i;
    }

    std::vector<int64_t> intTuple(const PickleValue& v, uint64_t at, const std::string& what) {
        std::vector<int64_t> out;
        for (const auto& item : tupleItems(v, at, what)) out.push_back(intArg(item, at, what + " entry"));
        return out;
    }

    std::string textArg(const PickleValue& v, uint64_t at, const std::string& what) {
        PickleObject* o = objectOf(v);
        if (!o || (o->kind != Kind::String && o->kind != Kind::Bytes))
            fail(at, what + " must be a string, got " + arena_->describe(v));
        return o->text;
    }

    PickleValue persistentLoad(const PickleValue& pid, uint64_t at) {
        const auto items = tupleItems(pid, at, "persistent id");
        if (items.empty() || textArg(items[0], at, "persistent id type") != "storage")
            fail(at, "persistent id is not a storage reference (only tensor storages may live outside the pickle)");
        if (items.size() != 5 && items.size() != 6)
            fail(at, "storage persistent id has " + std::to_string(items.size()) + " fields, expected 5 or 6");
        PickleObject* cls = objectOf(items[1]);
        if (!cls || cls->kind != Kind::Global || cls->global != GlobalKind::StorageClass)
            fail(at, "storage persistent id names " + arena_->describe(items[1]) + ", not a storage class");
        PickleObject o{Kind::Storage};
        StorageDesc& s = o.storage;
        s.dtype = cls->dtype;
        s.untyped = cls->text == "torch.UntypedStorage";
        s.key = textArg(items[2], at, "storage key");
        s.location = textArg(items[3], at, "storage location");
        s.numel = intArg(items[4], at, "storage size");
        if (s.numel < 0) fail(at, "storage '" + s.key + "' has negative size " + std::to_string(s.numel));
        if (items.size() == 6 && items[5].kind != PickleValue::Kind::None) {
            const auto view = tupleItems(items[5], at, "storage view");
            if (view.size() != 3) fail(at, "storage view metadata must have 3 fields");
            s.view = StorageDesc::View{textArg(view[0], at, "view key"), intArg(view[1], at, "view offset"),
                                       intArg(view[2], at, "view size")};
        }
        return make(std::move(o));
    }

    PickleValue rebuildTensor(GlobalKind kind, const std::vector<PickleValue>& args, uint64_t at, const std::string& fn) {
        size_t minArgs = kind == GlobalKind::RebuildTensor ? 4 : kind == GlobalKind::RebuildTensorV2 ? 6 : 7;
        if (args.size() < minArgs || args.size() > minArgs + 1)
            fail(at, fn + " called with " + std::to_string(args.size()) + " arguments");
        PickleObject* storage = objectOf(args[0]);
        if (!storage || storage->kind != Kind::Storage)
            fail(at, fn + ": first argument must be a storage, got " + arena_->describe(args[0]));
        PickleObject o{Kind::Tensor};
        TensorDesc& t = o.tensor;
        t.storage = static_cast<uint32_t>(args[0].i);
        t.storageOffset = intArg(args[1], at, fn + " storage_offset");
        t.sizes = intTuple(args[2], at, fn + " size");
        t.strides = intTuple(args[3], at, fn + " stride");
        t.dtype = storage->storage.dtype;
        if (kind != GlobalKind::RebuildTensor) {
            if (args[4].kind != PickleValue::Kind::Bool && args[4].kind != PickleValue::Kind::Int)
                fail(at, fn + " requires_grad must be a bool");
            t.requiresGrad = args[4].i != 0;
        }
        if (kind == GlobalKind::RebuildTensorV3) {
            PickleObject* dt = objectOf(args[6]);
            if (!dt || dt->kind != Kind::Global || dt->global != GlobalKind::DType)
                fail(at, fn + " dtype argument is " + arena_->describe(args[6]) + ", not a torch dtype");
            t.dtype = dt->dtype;
        } else if (storage->storage.untyped) {
            fail(at, fn + " on an UntypedStorage: only _rebuild_tensor_v3 says which dtype to read it as");
        }
        if (t.sizes.size() != t.strides.size())
            fail(at, fn + ": size has " + std::to_string(t.sizes.size()) + " dims but stride has " +
                         std::to_string(t.strides.size()));
        return make(std::move(o));
    }

    PickleValue reduce(const PickleValue& callable, const PickleValue& argsValue, uint64_t at) {
        PickleObject* fnObj = objectOf(callable);
        if (!fnObj || fnObj->kind != Kind::Global) fail(at, "REDUCE on a " + arena_->describe(callable) + ", not a global");
        const std::string fn = fnObj->text;
        const GlobalKind kind = fnObj->global;
        const std::vector<PickleValue> args = tupleItems(argsValue, at, fn + " arguments");
        switch (kind) {
            case GlobalKind::OrderedDict: {
                PickleObject o{Kind::Dict};
                o.ordered = true;
                if (args.size() > 1) fail(at, "OrderedDict called with " + std::to_string(args.size()) + " arguments");
                if (args.size() == 1) {
                    for (const auto& pair : tupleItems(args[0], at, "OrderedDict items")) {
                        const auto kv = tupleItems(pair, at, "OrderedDict item");
                        if (kv.size() != 2) fail(at, "OrderedDict item is not a pair");
                        o.items.push_back(kv[0]);
                        o.items.push_back(kv[1]);
                    }
                }
                return make(std::move(o));
            }
            case GlobalKind::Set:
            case GlobalKind::FrozenSet: {
                if (args.empty()) return makeSeq(Kind::Set, {});
                if (args.size() != 1) fail(at, fn + " called with " + std::to_string(args.size()) + " arguments");
                return makeSeq(Kind::Set, tupleItems(args[0], at, fn + " argument"));
            }
            case GlobalKind::Complex: {
                PickleObject o{Kind::Complex};
                auto number = [&](const PickleValue& v) {
                    if (v.kind == PickleValue::Kind::Float) return v.f;
                    if (v.kind == PickleValue::Kind::Int || v.kind == PickleValue::Kind::Bool) return double(v.i);
                    fail(at, "complex() argument must be a number");
                };
                if (args.size() > 2) fail(at, "complex() takes at most 2 arguments");
                if (!args.empty()) o.re = number(args[0]);
                if (args.size() == 2) o.im = number(args[1]);
                return make(std::move(o));
            }
            case GlobalKind::Bytearray:
                if (args.empty()) return makeText(Kind::Bytes, "");
                return makeText(Kind::Bytes, textArg(args[0], at, "bytearray argument"));
            case GlobalKind::CodecsEncode: {
                // How protocol 2 pickles bytes: _codecs.encode(str, 'latin1').
                if (args.size() != 2) fail(at, "_codecs.encode called with " + std::to_string(args.size()) + " arguments");
                std::string text = textArg(args[0], at, "_codecs.encode text");
                std::string encoding = textArg(args[1], at, "_codecs.encode encoding");
                if (encoding != "latin1" && encoding != "latin-1")
                    fail(at, "_codecs.encode with encoding '" + encoding + "' (only latin1 is used for bytes)");
                return makeText(Kind::Bytes, latin1FromUtf8(text, at));
            }
            case GlobalKind::RebuildTensor:
            case GlobalKind::RebuildTensorV2:
            case GlobalKind::RebuildTensorV3:
                return rebuildTensor(kind, args, at, fn);
            case GlobalKind::RebuildParameter:
            case GlobalKind::RebuildParameterWithState: {
                size_t expected = kind == GlobalKind::RebuildParameter ? 3 : 4;
                if (args.size() != expected) fail(at, fn + " called with " + std::to_string(args.size()) + " arguments");
                PickleObject* data = objectOf(args[0]);
                if (!data || data->kind != Kind::Tensor) fail(at, fn + ": data must be a tensor, got " + arena_->describe(args[0]));
                PickleObject copy = *data;
                copy.tensor.isParameter = true;
                copy.tensor.requiresGrad = args[1].i != 0;
                return make(std::move(copy));
            }
            case GlobalKind::RebuildFromTypeV2: {
                // (func, new_type, args, state): a tensor subclass wrapper. Allowed
                // only for plain Tensor/Parameter with an allowlisted func.
                if (args.size() != 4) fail(at, fn + " called with " + std::to_string(args.size()) + " arguments");
                PickleObject* type = objectOf(args[1]);
                if (!type || type->kind != Kind::Global ||
                    (type->global != GlobalKind::TensorClass && type->global != GlobalKind::ParameterClass))
                    fail(at, fn + " with type " + arena_->describe(args[1]) + ": tensor subclasses are not supported");
                return reduce(args[0], args[2], at);
            }
            case GlobalKind::TorchSize:
                if (args.size() != 1) fail(at, "torch.Size called with " + std::to_string(args.size()) + " arguments");
                return makeSeq(Kind::Tuple, tupleItems(args[0], at, "torch.Size argument"));
            case GlobalKind::TorchDevice: {
                if (args.empty() || args.size() > 2) fail(at, "torch.device called with " + std::to_string(args.size()) + " arguments");
                return makeText(Kind::String, textArg(args[0], at, "torch.device argument"));
            }
            case GlobalKind::TensorClass:
            case GlobalKind::ParameterClass:
            case GlobalKind::StorageClass:
            case GlobalKind::DType:
                fail(at, "refused call of '" + fn + "': constructing it from a pickle is not supported");
        }
        fail(at, "refused call of '" + fn + "'");
    }

    // Python's pickle turns bytes into str by latin1 decoding; str is written
    // as UTF-8. Undo both to get the original bytes.
    std::string latin1FromUtf8(const std::string& s, uint64_t at) {
        std::string out;
        for (size_t k = 0; k < s.size(); ++k) {
            uint8_t c = uint8_t(s[k]);
            if (c < 0x80) {
                out.push_back(char(c));
            } else if ((c & 0xE0) == 0xC0 && k + 1 < s.size() && c <= 0xC3) {
                out.push_back(char(((c & 0x1F) << 6) | (uint8_t(s[++k]) & 0x3F)));
            } else {
                fail(at, "_codecs.encode text is not latin1");
            }
        }
        return out;
    }

    void build(PickleValue& target, const PickleValue& state, uint64_t at) {
        PickleObject* o = objectOf(target);
        // nn.Module.state_dict() sets OrderedDict._metadata through BUILD;
        // Parameters may carry a state too. Neither matters for values.
        if (o && (o->kind == Kind::Dict || o->kind == Kind::Tensor)) return;
        fail(at, "refused BUILD on a " + arena_->describe(target) + " (only OrderedDict and tensors take a state)");
    }
};

}  // namespace

UnpickleResult unpickle(std::string_view data) {
    return Unpickler(data).run();
}

}  // namespace irscope::io
