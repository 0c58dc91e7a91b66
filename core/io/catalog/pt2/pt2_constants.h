#pragma once
// The lifted tensor constants (and non-persistent buffers) of a .pt2 as the
// `constants` of pytorch-ir's IR: pytorch-ir's extract_ir embeds every real
// (non-meta) tensor of ExportedProgram.constants by name, so a graph read
// from the archive carries them too and converts to the same JSON.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/ir/constant_value.h"

namespace irscope::io {

// In the archive's order; `archive` is the buffer `zip` reads. A constant
// stored pickled, of a dtype irscope cannot hold, or over 1 GiB is skipped
// (its shape and dtype stay in the IR's weights). Throws FormatError for a
// damaged config.
std::vector<std::pair<std::string, ir::ConstantValue>> readPt2Constants(const ZipReader& zip, std::string_view archive,
                                                                        const Pt2Program& program);

}  // namespace irscope::io
