#pragma once
// The graph of a serialized torch.export ExportedProgram (the JSON that
// torch.export.save writes as models/<name>.json, or
// serialized_exported_program.json before PyTorch 2.8), as pytorch-ir's
// extract_ir would write it for the same program: the same node names,
// op_type spellings, producer references, p_/b_/c_ placeholders and their
// state_dict names, attrs, and getitem nodes after multi-output ops (the
// serialized form folds those into the producer's outputs; pytorch-ir's IR
// has them as nodes).
//
// The reader of the other file a program comes in, beside json_io.h (pytorch-ir's
// JSON): both make the one ir::Graph the rest of irscope reads, the JSON as
// the subset of what a .pt2 holds. Torch-free: everything comes from the JSON.
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"

namespace irscope::ir {

// `text` is the ExportedProgram's JSON; `file` and `entry` name the archive
// and the record in messages. Read in two streaming passes, never as one DOM.
// Throws ir::LoadError naming the record, the JSON path of what it cannot
// read, and (for a syntax error) the line; an export schema newer than
// irscope reads is such an error too.
Graph graphFromExportedProgram(std::string_view text, const std::string& file, const std::string& entry);

// The names of the program's tensor user inputs, in the signature's order
// (the order torch.export flattened the example args, then kwargs): what
// the archive's sample inputs are, one for one. A quick pass that skips the
// nodes. Throws ir::LoadError like graphFromExportedProgram.
std::vector<std::string> exportedProgramUserInputs(std::string_view text, const std::string& file,
                                                   const std::string& entry);

// The torch_ir dtype spelling ("float32") of a serialized ScalarType number,
// or "" for one the schema does not define.
std::string dtypeOfScalarType(int64_t scalarType);

}  // namespace irscope::ir
