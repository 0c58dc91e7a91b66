// Reading a .pt2's constants config and raw storages into row-major
// ConstantValues (pt2_constants.h). The storage may be shared and the
// tensor a strided view of it: elements are gathered by their strides, each
// index checked against the storage, so a damaged config is an error.
#include "core/io/catalog/pt2/pt2_constants.h"

#include <cstring>

#include <nlohmann/json.hpp>

#include "core/io/catalog/pt2/exported_program_graph.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/ir/dtype.h"

namespace irscope::io {
namespace {

bool intsOf(const nlohmann::json& list, std::vector<int64_t>& out) {
    if (!list.is_array()) return false;
    for (const auto& d : list) {
        const auto v = d.is_object() ? d.find("as_int") : d.end();
        if (v == d.end() || !v->is_number_integer()) return false;
        out.push_back(v->get<int64_t>());
    }
    return true;
}

}  // namespace

std::vector<std::pair<std::string, ir::ConstantValue>> readPt2Constants(const ZipReader& zip,
                                                                        const Pt2Program& program) {
    std::vector<std::pair<std::string, ir::ConstantValue>> out;
    if (program.constantsConfigEntry.empty()) return out;
    const ZipRecord* config = zip.find(program.constantsConfigEntry);
    const auto document = nlohmann::ordered_json::parse(zip.data(*config));
    const auto entries = document.find("config");
    if (entries == document.end() || !entries->is_object()) return out;
    const std::string folder = program.constantsConfigEntry.substr(0, program.constantsConfigEntry.rfind('/') + 1);
    for (const auto& [name, meta] : entries->items()) {
        const auto tensor = meta.find("tensor_meta");
        if (meta.value("use_pickle", false) || tensor == meta.end() || !tensor->is_object()) continue;
        const ZipRecord* payload = zip.find(folder + meta.value("path_name", ""));
        if (!payload)
            throw FormatError(program.constantsConfigEntry + ": '" + name + "' names a file the archive lacks");
        ir::ConstantValue c;
        c.dtype = dtypeOfScalarType(tensor->value("dtype", 0));
        const ir::TorchDType* dt = ir::findTorchDType(c.dtype);
        std::vector<int64_t> strides, offset;
        if (!dt || !intsOf(tensor->value("sizes", nlohmann::json()), c.shape) ||
            !intsOf(tensor->value("strides", nlohmann::json()), strides) || strides.size() != c.shape.size() ||
            !intsOf(nlohmann::json::array({tensor->value("storage_offset", nlohmann::json())}), offset))
            continue;
        const std::string_view storage = zip.data(*payload);
        const size_t size = dt->size;
        // Checked before anything is allocated: every dimension sane, the
        // furthest element inside the storage, the copy no bigger than 1 GiB
        // (a broadcast view may be far bigger than its storage).
        int64_t count = 1, last = offset[0];
        bool sane = offset[0] >= 0;
        for (size_t d = 0; d < c.shape.size() && sane; ++d) {
            sane = c.shape[d] >= 0 && strides[d] >= 0 && c.shape[d] < (int64_t(1) << 40);
            count = sane ? count * c.shape[d] : 0;
            sane = sane && count < (int64_t(1) << 40);
            if (sane && c.shape[d] > 0) last += (c.shape[d] - 1) * strides[d];
        }
        if (!sane || static_cast<uint64_t>(count) * size > (uint64_t(1) << 30)) continue;
        if (count > 0 && static_cast<uint64_t>(last + 1) * size > storage.size())
            throw FormatError(program.constantsConfigEntry + ": '" + name + "' reaches past the end of " +
                              payload->name);
        c.bytes.resize(static_cast<size_t>(count) * size);
        // Row-major walk over the shape; each element's storage index by strides.
        std::vector<int64_t> index(c.shape.size(), 0);
        for (int64_t k = 0; k < count; ++k) {
            int64_t at = offset[0];
            for (size_t d = 0; d < index.size(); ++d) at += index[d] * strides[d];
            if (at < 0 || static_cast<uint64_t>(at + 1) * size > storage.size())
                throw FormatError(program.constantsConfigEntry + ": '" + name + "' reaches past the end of " +
                                  payload->name);
            std::memcpy(c.bytes.data() + static_cast<size_t>(k) * size, storage.data() + static_cast<size_t>(at) * size,
                        size);
            for (size_t d = index.size(); d-- > 0;) {
                if (++index[d] < c.shape[d]) break;
                index[d] = 0;
            }
        }
        out.emplace_back(name, std::move(c));
    }
    return out;
}

}  // namespace irscope::io
