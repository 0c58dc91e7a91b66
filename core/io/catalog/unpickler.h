#pragma once
// A restricted unpickler for torch.save files, after PyTorch 2.x's
// torch/_weights_only_unpickler.py: it knows a fixed set of opcodes and an
// allowlist of globals (OrderedDict, the tensor rebuild functions, storage
// classes, dtypes, set/complex/bytes helpers) and refuses everything else
// with a FormatError naming the opcode or the global. It never imports or
// calls anything: REDUCE on an allowed global builds a description
// (PickleObject), so nothing in a file can be executed.
//
// No libtorch here, so the fuzzer can drive it alone.
//
// The parts: unpickler.cpp (the opcode machine), pickle_objects (what the
// calling opcodes build), pickle_globals (the allowlist), pickle_dtypes
// (storage class and dtype names), pickle_arena (where it all lives).
#include <cstdint>
#include <string_view>

#include "core/io/catalog/pickle_value.h"

namespace irscope::io {

struct UnpickleResult {
    PickleArena arena;
    PickleValue root;
    uint64_t consumed = 0;  // bytes up to and including STOP (legacy files hold several pickles in a row)
};

// Throws FormatError on anything refused or malformed.
UnpickleResult unpickle(std::string_view data);

}  // namespace irscope::io
