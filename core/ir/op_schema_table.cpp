#include "core/ir/op_schema_table.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <mutex>

#include "core/ir/op_node.h"
#include "core/ir/symbolic_ops.h"

namespace irscope::ir {
namespace {

struct Entry {
    std::string_view opType;
    std::string_view schema;
};

// Sorted by op type (the generator writes them so). The generator writes
// each string as a ""sv literal, whose length the compiler knows: the table
// is then constant data the compiler lays out as it reads it. Built from
// plain literals, each string_view would measure its string (strlen) in a
// dynamic initializer of 6,000 calls, which GCC spent 20 s compiling under
// the sanitizers (2 s now), and clang would count every character against
// its constexpr step limit.
using namespace std::string_view_literals;
constexpr Entry kOpSchemas[] = {
#include "core/ir/op_schemas.inc"
};

const Entry* lookupExact(std::string_view opType) {
    auto it = std::lower_bound(std::begin(kOpSchemas), std::end(kOpSchemas), opType,
                               [](const Entry& e, std::string_view key) { return e.opType < key; });
    return it != std::end(kOpSchemas) && it->opType == opType ? it : nullptr;
}

// A symbolic op is written without an overload (_operator.mul); the table
// spells an empty overload ".default", as torch_ir spells op types.
const Entry* lookup(std::string_view opType) {
    if (isSymbolicOpType(opType)) return lookupExact(std::string(opType) + ".default");
    return lookupExact(opType);
}

}  // namespace

bool isKnownOpType(std::string_view opType) { return opType == kGetitemOp || lookup(opType) != nullptr; }

const OpSchema* findOpSchema(std::string_view opType) {
    const Entry* entry = lookup(opType);
    if (!entry) return nullptr;
    // Parsed on first use: a graph uses a few dozen of the ~3,000 ops.
    static std::mutex mutex;
    static std::unique_ptr<std::unique_ptr<OpSchema>[]> parsed(new std::unique_ptr<OpSchema>[std::size(kOpSchemas)]);
    std::lock_guard lock(mutex);
    auto& slot = parsed[static_cast<size_t>(entry - std::begin(kOpSchemas))];
    if (!slot) {
        auto schema = parseOpSchema(entry->schema);
        if (!schema) return nullptr;  // the table's own test parses every entry
        slot = std::make_unique<OpSchema>(std::move(*schema));
    }
    return slot.get();
}

size_t opSchemaCount() { return std::size(kOpSchemas); }

std::string_view opSchemaTypeAt(size_t index) {
    return index < std::size(kOpSchemas) ? kOpSchemas[index].opType : std::string_view();
}

}  // namespace irscope::ir
