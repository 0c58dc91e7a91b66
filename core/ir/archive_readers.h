#pragma once
// Graphs read from files that are not torch_ir JSON.
//
// `loadGraphFile` is where every command and the window open an IR. A
// torch.export archive (.pt2, a zip) holds the same program, and its reader
// lives with the other zip readers in core/io/catalog/pt2, which uses core/ir,
// not the other way round. So a reader registers itself here by the bytes its
// files start with, and `loadGraphFile` asks the registry before parsing JSON:
// every place that opens an IR opens an archive too, with nothing to change.
#include <string>
#include <string_view>

#include "core/ir/graph.h"
#include "core/ir/json_io.h"

namespace irscope::ir {

// `bytes` is the whole file (mapped), `path` the name messages use.
using ArchiveGraphReader = Graph (*)(std::string_view bytes, const std::string& path, const LoadOptions& options);

// Returns true (for a static initializer's sake).
bool registerArchiveGraphReader(std::string_view magic, std::string_view description, ArchiveGraphReader reader);

// The reader for a file starting with `bytes`, or nullptr (JSON, or unknown).
ArchiveGraphReader archiveGraphReaderFor(std::string_view bytes);

}  // namespace irscope::ir
