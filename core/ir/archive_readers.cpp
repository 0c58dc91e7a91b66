// The registry behind archive_readers.h: a handful of (magic, reader) pairs,
// filled from static initializers before main.
#include "core/ir/archive_readers.h"

#include <vector>

namespace irscope::ir {
namespace {

struct Entry {
    std::string magic;
    std::string description;
    ArchiveGraphReader reader;
};

std::vector<Entry>& entries() {
    static std::vector<Entry> all;
    return all;
}

}  // namespace

bool registerArchiveGraphReader(std::string_view magic, std::string_view description, ArchiveGraphReader reader) {
    entries().push_back({std::string(magic), std::string(description), reader});
    return true;
}

ArchiveGraphReader archiveGraphReaderFor(std::string_view bytes) {
    for (const auto& e : entries())
        if (bytes.substr(0, e.magic.size()) == e.magic) return e.reader;
    return nullptr;
}

}  // namespace irscope::ir
