#pragma once
// The objects the restricted unpickler (unpickler.h) makes, all in one
// PickleArena: plain ones for the data opcodes, and the checked results of
// the opcodes that name or call something: GLOBAL (against the allowlist in
// pickle_globals.h), REDUCE of an allowed global, BINPERSID (a storage) and
// BUILD. Each checks its arguments and refuses, with a FormatError that
// names the offset, whatever torch's weights-only unpickler would refuse.
// Internal to the unpickler.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/catalog/pickle_value.h"

namespace irscope::io {

// Throws FormatError("pickle: <why> (at byte <at>)"); at: the opcode's offset.
[[noreturn]] void failPickle(uint64_t at, const std::string& why);

class PickleObjects {
public:
    explicit PickleObjects(PickleArena& arena) : arena_(arena) {}

    PickleArena& arena() { return arena_; }
    PickleValue make(PickleObject o);
    PickleValue makeText(PickleObject::Kind kind, std::string_view text);
    PickleValue makeSeq(PickleObject::Kind kind, std::span<const PickleValue> items);
    PickleObject* objectOf(const PickleValue& v);  // nullptr for a plain value

    // GLOBAL, STACK_GLOBAL: module.name, if a tensor file may name it.
    PickleValue global(const std::string& fileModule, const std::string& name, uint64_t at);
    // BINPERSID: a storage reference ("storage", class, key, location, size[, view]).
    PickleValue persistentLoad(const PickleValue& pid, uint64_t at);
    // REDUCE: an allowed global called with a tuple of arguments.
    PickleValue reduce(const PickleValue& callable, const PickleValue& argsValue, uint64_t at);
    // NEWOBJ: an inert record of a library class (pickle_globals.h).
    PickleValue newObject(const PickleValue& cls, const PickleValue& argsValue, uint64_t at);
    // BUILD: a state is accepted (and ignored) on an OrderedDict or a tensor,
    // and kept on a library record.
    void build(const PickleValue& target, const PickleValue& state, uint64_t at);

private:
    PickleValue reduce(const PickleValue& callable, const PickleValue& argsValue, uint64_t at, int depth);
    PickleValue makeGlobal(const std::string& module, const std::string& name, GlobalKind kind, PickleDType dtype = {});
    // Argument checks: `what` names the argument in the message.
    std::span<const PickleValue> tupleItems(const PickleValue& v, uint64_t at, const std::string& what);
    int64_t intArg(const PickleValue& v, uint64_t at, const std::string& what);
    std::vector<int64_t> intTuple(const PickleValue& v, uint64_t at, const std::string& what);
    std::string textArg(const PickleValue& v, uint64_t at, const std::string& what);
    // The calls REDUCE allows, by global.
    PickleValue orderedDict(std::span<const PickleValue> args, uint64_t at);
    PickleValue complex(std::span<const PickleValue> args, uint64_t at);
    PickleValue codecsEncode(std::span<const PickleValue> args, uint64_t at);
    PickleValue rebuildTensor(GlobalKind kind, std::span<const PickleValue> args, uint64_t at, const std::string& fn);
    PickleValue rebuildParameter(GlobalKind kind, std::span<const PickleValue> args, uint64_t at,
                                 const std::string& fn);
    PickleValue instance(const std::string& cls, const PickleValue& argsValue);
    TensorDesc wrapperTensor(std::span<const PickleValue> args, uint64_t at, const std::string& fn);
    PickleValue subclassTensor(std::span<const PickleValue> args, uint64_t at, const std::string& fn);
    std::string latin1FromUtf8(const std::string& s, uint64_t at);

    PickleArena& arena_;
};

}  // namespace irscope::io
