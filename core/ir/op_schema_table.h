#pragma once
// Every operator irscope knows, with its schema, without loading libtorch: the
// dispatcher of the libtorch this build links, listed at build time
// (tools/op_schemas/dump_op_schemas.cpp), plus PyTorch 2.x's schemas for the
// ops the executor runs through equivalents (tools/op_schemas/pytorch2_schemas.txt).
// A build against libtorch 2.13 knows what 2.13 knows; one against 1.13, what
// 1.13 knows and what irscope adds to it.
#include <cstddef>
#include <string_view>

#include "core/ir/op_schema.h"

namespace irscope::ir {

// True for op_types in the table, and for getitem.
bool isKnownOpType(std::string_view opType);

// The op's schema, parsed once and kept; nullptr for an op not in the table.
// Safe to call from several threads.
const OpSchema* findOpSchema(std::string_view opType);

// The table, entry by entry (its test parses every one).
size_t opSchemaCount();
std::string_view opSchemaTypeAt(size_t index);

}  // namespace irscope::ir
