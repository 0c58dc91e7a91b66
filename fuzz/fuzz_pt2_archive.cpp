// A torch.export archive (.pt2) read as a graph from arbitrary bytes: the zip
// reader, finding the programs, parsing the ExportedProgram JSON and turning
// it into pytorch-ir's IR (core/io/catalog/pt2). Anything wrong must be an
// ir::LoadError naming the file, never a crash or an unbounded allocation.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/ir/archive_readers.h"
#include "core/ir/json_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace irscope;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    ir::ArchiveGraphReader reader = ir::archiveGraphReaderFor(bytes);
    if (!reader) return 0;
    try {
        const ir::Graph g = reader(bytes, "fuzz.pt2", {});
        volatile size_t sink = g.nodes.size() + g.weights.size();
        (void)sink;
    } catch (const ir::LoadError&) {}
    return 0;
}
