// The restricted unpickler's opcode machine (see unpickler.h): the stack,
// marks and memo, and one handler per group of opcodes. What the opcodes that
// name or call something build is pickle_objects.cpp; which globals may be
// named is pickle_globals.cpp.
#include "core/io/catalog/unpickler.h"

#include <charconv>
#include <cstring>
#include <unordered_map>

#include "core/io/catalog/byte_reader.h"
#include "core/io/catalog/pickle_objects.h"

namespace irscope::io {

namespace {

using Kind = PickleObject::Kind;

const char* opcodeName(uint8_t op) {
    switch (op) {
    case '(': return "MARK";
    case '.': return "STOP";
    case '0': return "POP";
    case '1': return "POP_MARK";
    case '2': return "DUP";
    case 'F': return "FLOAT";
    case 'I': return "INT";
    case 'J': return "BININT";
    case 'K': return "BININT1";
    case 'L': return "LONG";
    case 'M': return "BININT2";
    case 'N': return "NONE";
    case 'P': return "PERSID";
    case 'Q': return "BINPERSID";
    case 'R': return "REDUCE";
    case 'S': return "STRING";
    case 'T': return "BINSTRING";
    case 'U': return "SHORT_BINSTRING";
    case 'V': return "UNICODE";
    case 'X': return "BINUNICODE";
    case 'a': return "APPEND";
    case 'b': return "BUILD";
    case 'c': return "GLOBAL";
    case 'd': return "DICT";
    case '}': return "EMPTY_DICT";
    case 'e': return "APPENDS";
    case 'g': return "GET";
    case 'h': return "BINGET";
    case 'i': return "INST";
    case 'j': return "LONG_BINGET";
    case 'l': return "LIST";
    case ']': return "EMPTY_LIST";
    case 'o': return "OBJ";
    case 'p': return "PUT";
    case 'q': return "BINPUT";
    case 'r': return "LONG_BINPUT";
    case 's': return "SETITEM";
    case 't': return "TUPLE";
    case ')': return "EMPTY_TUPLE";
    case 'u': return "SETITEMS";
    case 'G': return "BINFLOAT";
    case 0x80: return "PROTO";
    case 0x81: return "NEWOBJ";
    case 0x82: return "EXT1";
    case 0x83: return "EXT2";
    case 0x84: return "EXT4";
    case 0x85: return "TUPLE1";
    case 0x86: return "TUPLE2";
    case 0x87: return "TUPLE3";
    case 0x88: return "NEWTRUE";
    case 0x89: return "NEWFALSE";
    case 0x8a: return "LONG1";
    case 0x8b: return "LONG4";
    case 'B': return "BINBYTES";
    case 'C': return "SHORT_BINBYTES";
    case 0x8c: return "SHORT_BINUNICODE";
    case 0x8d: return "BINUNICODE8";
    case 0x8e: return "BINBYTES8";
    case 0x8f: return "EMPTY_SET";
    case 0x90: return "ADDITEMS";
    case 0x91: return "FROZENSET";
    case 0x92: return "NEWOBJ_EX";
    case 0x93: return "STACK_GLOBAL";
    case 0x94: return "MEMOIZE";
    case 0x95: return "FRAME";
    case 0x96: return "BYTEARRAY8";
    case 0x97: return "NEXT_BUFFER";
    case 0x98: return "READONLY_BUFFER";
    default: return nullptr;
    }
}

std::string hexByte(uint8_t b) {
    const char* digits = "0123456789abcdef";
    return std::string("0x") + digits[b >> 4] + digits[b & 15];
}

class Unpickler {
public:
    explicit Unpickler(std::string_view data) : data_(data) {}

    UnpickleResult run() {
        while (true) {
            uint64_t opAt = pos_;
            uint8_t op = readU8();
            if (op == '.') {
                if (stack_.size() != 1 || !marks_.empty())
                    fail(opAt, "STOP with " + std::to_string(stack_.size()) + " values on the stack");
                result_.root = stack_.back();
                result_.consumed = pos_;
                return std::move(result_);
            }
            step(op, opAt);
        }
    }

private:
    std::string_view data_;
    uint64_t pos_ = 0;
    UnpickleResult result_;
    PickleObjects objects_{result_.arena};
    std::vector<PickleValue> stack_;
    std::vector<size_t> marks_;
    // The memo. Picklers number entries 0, 1, 2, ...: a vector holds those
    // (17 bytes an entry, where a hash node costs 64). The vector never grows
    // past twice the entries stored (plus a margin), so an index far past the
    // end (a hostile LONG_BINPUT 4e9, or many just past the end) goes to the
    // map instead of sizing the vector by it.
    std::vector<PickleValue> memo_;
    std::vector<bool> memoSet_;
    std::unordered_map<uint64_t, PickleValue> sparseMemo_;
    uint64_t memoCount_ = 0;  // distinct indices stored: MEMOIZE's next index

    void put(uint64_t index, PickleValue v) {
        if (index < 2 * memoCount_ + 65536) {
            if (index >= memo_.size()) {
                memo_.resize(index + 1);
                memoSet_.resize(index + 1);
            }
            if (!memoSet_[index]) ++memoCount_;
            memoSet_[index] = true;
            memo_[index] = v;
            return;
        }
        if (sparseMemo_.insert_or_assign(index, v).second) ++memoCount_;
    }

    [[noreturn]] void fail(uint64_t at, const std::string& why) const { failPickle(at, why); }

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
        if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail(at, std::string(op) + " on an empty stack");
        PickleValue v = stack_.back();
        stack_.pop_back();
        return v;
    }
    PickleValue& top(uint64_t at, const char* op) {
        if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail(at, std::string(op) + " on an empty stack");
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
    PickleValue makeText(Kind kind, std::string_view text) { return objects_.makeText(kind, text); }
    PickleValue makeSeq(Kind kind, std::span<const PickleValue> items) { return objects_.makeSeq(kind, items); }
    PickleObject& container(const PickleValue& v, Kind kind, uint64_t at, const char* op) {
        PickleObject* o = objects_.objectOf(v);
        if (!o || o->kind != kind) fail(at, std::string(op) + " on a " + result_.arena.describe(v));
        return *o;
    }

    // -- opcodes: each group handles its own and returns false for the rest.
    void step(uint8_t op, uint64_t at) {
        if (stepStackOrMemo(op, at) || stepScalar(op, at) || stepContainer(op, at) || stepCall(op, at)) return;
        refuse(op, at);
    }

    // Framing, marks, stack and memo.
    bool stepStackOrMemo(uint8_t op, uint64_t at) {
        switch (op) {
        case 0x80: {  // PROTO
            uint8_t proto = readU8();
            if (proto > 5) fail(at, "unknown pickle protocol " + std::to_string(proto));
            return true;
        }
        case 0x95: read<uint64_t>(); return true;  // FRAME: a buffering hint only
        case '(': marks_.push_back(stack_.size()); return true;
        case '0': pop(at, "POP"); return true;
        case '1': popMark(at, "POP_MARK"); return true;
        case '2': push(top(at, "DUP")); return true;
        case 'q': put(read<uint8_t>(), top(at, "BINPUT")); return true;
        case 'r': put(read<uint32_t>(), top(at, "LONG_BINPUT")); return true;
        case 0x94: put(memoCount_, top(at, "MEMOIZE")); return true;
        case 'p': put(parseDecimal(readLine(), at), top(at, "PUT")); return true;
        case 'h': get(read<uint8_t>(), at); return true;
        case 'j': get(read<uint32_t>(), at); return true;
        case 'g': get(parseDecimal(readLine(), at), at); return true;
        default: return false;
        }
    }

    // None, booleans, numbers, strings and bytes.
    bool stepScalar(uint8_t op, uint64_t at) {
        switch (op) {
        case 'N': push(PickleValue::none()); return true;
        case 0x88: push(PickleValue::boolean(true)); return true;
        case 0x89: push(PickleValue::boolean(false)); return true;
        case 'J': push(PickleValue::integer(read<int32_t>())); return true;
        case 'K': push(PickleValue::integer(read<uint8_t>())); return true;
        case 'M': push(PickleValue::integer(read<uint16_t>())); return true;
        case 0x8a: pushLong(readBytes(read<uint8_t>())); return true;
        case 0x8b: {
            int32_t n = read<int32_t>();
            if (n < 0) fail(at, "LONG4 with a negative length");
            pushLong(readBytes(static_cast<uint64_t>(n)));
            return true;
        }
        case 'G': {
            uint64_t bits = read<uint64_t>();
            bits = __builtin_bswap64(bits);  // BINFLOAT is big-endian
            double d;
            std::memcpy(&d, &bits, sizeof d);
            push(PickleValue::real(d));
            return true;
        }
        case 'X': push(makeText(Kind::String, readBytes(read<uint32_t>()))); return true;
        case 0x8c: push(makeText(Kind::String, readBytes(read<uint8_t>()))); return true;
        case 0x8d: push(makeText(Kind::String, readBytes(read<uint64_t>()))); return true;
        // Python 2 str: torch.load decodes such strings as ASCII/latin1 text.
        case 'U': push(makeText(Kind::String, readBytes(read<uint8_t>()))); return true;
        case 'T': {
            int32_t n = read<int32_t>();
            if (n < 0) fail(at, "BINSTRING with a negative length");
            push(makeText(Kind::String, readBytes(static_cast<uint64_t>(n))));
            return true;
        }
        case 'B': push(makeText(Kind::Bytes, readBytes(read<uint32_t>()))); return true;
        case 'C': push(makeText(Kind::Bytes, readBytes(read<uint8_t>()))); return true;
        case 0x8e: push(makeText(Kind::Bytes, readBytes(read<uint64_t>()))); return true;
        case 0x96: push(makeText(Kind::Bytes, readBytes(read<uint64_t>()))); return true;
        default: return false;
        }
    }

    // Tuples, lists, dicts and sets.
    bool stepContainer(uint8_t op, uint64_t at) {
        switch (op) {
        case ')': push(makeSeq(Kind::Tuple, {})); return true;
        case 't': push(makeSeq(Kind::Tuple, popMark(at, "TUPLE"))); return true;
        case 0x85:
        case 0x86:
        case 0x87: {
            size_t n = op - 0x84u;
            std::vector<PickleValue> items(n);
            for (size_t k = n; k-- > 0;) items[k] = pop(at, opcodeName(op));
            push(makeSeq(Kind::Tuple, std::move(items)));
            return true;
        }
        case ']': push(makeSeq(Kind::List, {})); return true;
        case 'l': push(makeSeq(Kind::List, popMark(at, "LIST"))); return true;
        case 'a': {
            PickleValue v = pop(at, "APPEND");
            container(top(at, "APPEND"), Kind::List, at, "APPEND").growableItems().push_back(v);
            return true;
        }
        case 'e': appendMarked(at, Kind::List, "APPENDS"); return true;
        case '}': push(makeSeq(Kind::Dict, {})); return true;
        case 'd': {
            auto items = popMark(at, "DICT");
            if (items.size() % 2) fail(at, "DICT with an odd number of items");
            push(makeSeq(Kind::Dict, std::move(items)));
            return true;
        }
        case 's': {
            PickleValue v = pop(at, "SETITEM");
            PickleValue k = pop(at, "SETITEM");
            auto& dict = container(top(at, "SETITEM"), Kind::Dict, at, "SETITEM").growableItems();
            dict.push_back(k);
            dict.push_back(v);
            return true;
        }
        case 'u': {
            auto items = popMark(at, "SETITEMS");
            if (items.size() % 2) fail(at, "SETITEMS with an odd number of items");
            auto& dict = container(top(at, "SETITEMS"), Kind::Dict, at, "SETITEMS").growableItems();
            dict.insert(dict.end(), items.begin(), items.end());
            return true;
        }
        case 0x8f: push(makeSeq(Kind::Set, {})); return true;
        case 0x90: appendMarked(at, Kind::Set, "ADDITEMS"); return true;
        case 0x91: push(makeSeq(Kind::Set, popMark(at, "FROZENSET"))); return true;
        default: return false;
        }
    }

    // APPENDS, ADDITEMS: the items above the mark go into the container below it.
    void appendMarked(uint64_t at, Kind kind, const char* op) {
        auto items = popMark(at, op);
        auto& list = container(top(at, op), kind, at, op).growableItems();
        list.insert(list.end(), items.begin(), items.end());
    }

    // The opcodes that name or call something: globals, persistent ids, REDUCE, BUILD.
    bool stepCall(uint8_t op, uint64_t at) {
        switch (op) {
        case 'c': {
            std::string module(readLine());
            std::string name(readLine());
            push(objects_.global(module, name, at));
            return true;
        }
        case 0x93: {
            PickleValue name = pop(at, "STACK_GLOBAL");
            PickleValue module = pop(at, "STACK_GLOBAL");
            const auto m = result_.arena.string(module);
            const auto n = result_.arena.string(name);
            if (!m || !n) fail(at, "STACK_GLOBAL needs two strings");
            push(objects_.global(std::string(*m), std::string(*n), at));
            return true;
        }
        case 'Q': {
            PickleValue pid = pop(at, "BINPERSID");
            push(objects_.persistentLoad(pid, at));
            return true;
        }
        case 'R': {
            PickleValue args = pop(at, "REDUCE");
            PickleValue callable = pop(at, "REDUCE");
            push(objects_.reduce(callable, args, at));
            return true;
        }
        case 0x81: {
            PickleValue args = pop(at, "NEWOBJ");
            PickleValue cls = pop(at, "NEWOBJ");
            push(objects_.newObject(cls, args, at));
            return true;
        }
        case 'b': {
            PickleValue state = pop(at, "BUILD");
            objects_.build(top(at, "BUILD"), state, at);
            return true;
        }
        default: return false;
        }
    }

    [[noreturn]] void refuse(uint8_t op, uint64_t at) {
        switch (op) {
        case 0x92:
        case 'i':
        case 'o':
            fail(at, std::string("refused opcode ") + opcodeName(op) + " (" + hexByte(op) +
                         "): it creates an instance of an arbitrary class. A tensor file holds a "
                         "state_dict; a whole pickled module or custom object is not loaded "
                         "(save model.state_dict() instead)");
        default: {
            const char* name = opcodeName(op);
            if (name)
                fail(at, std::string("refused opcode ") + name + " (" + hexByte(op) + "): not used by tensor files");
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
        if (index < memo_.size() && memoSet_[index]) return push(memo_[index]);
        auto it = sparseMemo_.find(index);
        if (it == sparseMemo_.end()) fail(at, "memo entry " + std::to_string(index) + " was never stored");
        push(it->second);
    }

    void pushLong(std::string_view bytes) {
        if (bytes.size() <= 8) {
            uint64_t v = 0;
            for (size_t k = 0; k < bytes.size(); ++k) v |= uint64_t(uint8_t(bytes[k])) << (8 * k);
            if (!bytes.empty() && bytes.size() < 8 && (uint8_t(bytes.back()) & 0x80))
                v |= ~uint64_t(0) << (8 * bytes.size());  // sign-extend
            push(PickleValue::integer(static_cast<int64_t>(v)));
        } else {
            push(makeText(Kind::BigInt, bytes));
        }
    }
};

}  // namespace

UnpickleResult unpickle(std::string_view data) { return Unpickler(data).run(); }

}  // namespace irscope::io
