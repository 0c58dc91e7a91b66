// .safetensors: an 8-byte little-endian header size, then the JSON header
// (core/io/catalog/safetensors_header), then the data the header's offsets
// tile. Describing reads the header only.
#include "core/io/catalog/safetensors_header.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/catalog/tensor_format.h"
#include "core/ir/dtype.h"

namespace irscope::io {
namespace {

TensorCatalog describe(const TensorFileSource& s, const ReadOptions& options) {
    TensorCatalog catalog;
    catalog.files.push_back(s.file);
    try {
        SafetensorsHeader header = parseSafetensorsHeader(s.bytes());
        // A select of a safetensors file is a name prefix ("model." -> strip it).
        const std::string prefix = options.select.empty() ? std::string() : options.select + ".";
        catalog.records.reserve(header.tensors.size());
        for (SafetensorsEntry& e : header.tensors) {
            if (!prefix.empty() && e.name.compare(0, prefix.size(), prefix) != 0) continue;
            TensorRecord r;
            r.name = prefix.empty() ? std::move(e.name) : e.name.substr(prefix.size());
            r.dtype = safetensorsDTypeTorchName(e.dtype);
            const int bits = safetensorsDTypeBits(e.dtype);
            r.elementSize = bits % 8 == 0 ? bits / 8 : 0;
            r.shape = std::move(e.shape);
            r.storageBegin = header.dataStart + e.begin;
            r.storageBytes = e.end - e.begin;
            if (!ir::parseDType(r.dtype))
                r.unsupported = "dtype " + e.dtype + " (" + r.dtype + ") is not supported by libtorch 1.13";
            catalog.records.push_back(std::move(r));
        }
        if (!prefix.empty() && catalog.records.empty())
            throw FormatError("no tensor name starts with '" + prefix + "' (select)");
    } catch (const FormatError& e) {
        throw TensorFileError(s.path, e.what());
    }
    return catalog;
}

const bool safetensorsFormatRegistered = registerTensorFormat({
    .name = "safetensors",
    .rank = 40,
    .claims = [](const TensorFileSource& s) { return s.bytes().size() >= 9 && s.bytes()[8] == '{'; },
    .extensions = {".safetensors"},
    .describe = describe,
});

}  // namespace
}  // namespace irscope::io
