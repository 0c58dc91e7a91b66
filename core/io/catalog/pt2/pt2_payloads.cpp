// The tensors a .pt2 stores raw (pt2_payloads.h): one record per entry of a
// weights or constants config, every size, stride and offset checked against
// the storage file it names before anyone reads it.
#include "core/io/catalog/pt2/pt2_payloads.h"

#include <nlohmann/json.hpp>

#include "core/io/catalog/tensor_file_error.h"
#include "core/io/catalog/torch_save_zip.h"
#include "core/ir/dtype.h"
#include "core/ir/exported_program_reader.h"
#include "core/ir/json_cursor.h"
#include "core/ir/json_io.h"

namespace irscope::io {
namespace {

int64_t symIntValue(const nlohmann::ordered_json& v) {
    if (v.is_number_integer()) return v.get<int64_t>();
    if (v.is_object() && v.contains("as_int") && v["as_int"].is_number_integer()) return v["as_int"].get<int64_t>();
    throw FormatError("a symbolic size in a stored tensor");
}

void addPayload(TensorCatalog& catalog, const ZipReader& zip, const std::string& configEntry, const std::string& folder,
                const std::string& name, const nlohmann::ordered_json& meta);

}  // namespace

void addPt2Payloads(TensorCatalog& catalog, const ZipReader& zip, const std::string& configEntry,
                    const std::string& folder) {
    if (configEntry.empty()) return;
    const ZipRecord* config = zip.find(configEntry);
    // Streamed entry by entry (a 384-expert MoE's config is 24 MB of JSON):
    // each entry is a small DOM, read, checked and dropped.
    bool sawConfig = false;
    try {
        ir::JsonCursor c(zip.data(*config), configEntry, 64);
        c.beginObject();
        std::string key, name;
        while (c.nextKey(key)) {
            c.pushKey(key);
            if (key != "config" || c.peek() != '{') {
                c.skipValue();
                c.pop();
                continue;
            }
            sawConfig = true;
            c.beginObject();
            while (c.nextKey(name)) {
                c.pushKey(name);
                addPayload(catalog, zip, configEntry, folder, name, c.readValue());
                c.pop();
            }
            c.pop();
        }
        c.finish();
    } catch (const ir::LoadError& e) {
        throw FormatError(configEntry + ": not JSON (" + e.jsonPath() + ", line " + std::to_string(e.line()) +
                          "): " + e.reason());
    }
    if (!sawConfig) throw FormatError(configEntry + ": no \"config\" object");
}

namespace {

// A tensor PyTorch pickled (torch.save inside the archive) rather than
// stored raw: a tensor subclass, torchao's quantized weights. Read with the
// restricted unpickler; the subclass and its inner tensors become records
// over the archive's bytes. One the unpickler refuses stays listed, with why.
void addPickledPayload(TensorCatalog& catalog, const ZipReader& zip, const ZipRecord& payload, TensorRecord listed) {
    const std::string_view bytes = zip.data(payload);
    const std::string_view container(bytes.data() - payload.dataOffset, payload.dataOffset + bytes.size());
    try {
        TensorCatalog pickled = describeTorchSaveZipIn(container, bytes, listed.name, {});
        for (TensorRecord& r : pickled.records) catalog.records.push_back(std::move(r));
    } catch (const FormatError& e) {
        listed.unsupported = "stored pickled in " + payload.name + ", which irscope cannot read: " + e.what();
        listed.storageBegin = payload.dataOffset;
        listed.storageBytes = payload.size;
        catalog.records.push_back(std::move(listed));
    }
}

void addPayload(TensorCatalog& catalog, const ZipReader& zip, const std::string& configEntry, const std::string& folder,
                const std::string& name, const nlohmann::ordered_json& meta) {
    {
        const std::string where = configEntry + ": '" + name + "'";
        TensorRecord r;
        r.name = name;
        const std::string path = folder + meta.value("path_name", "");
        const ZipRecord* payload = zip.find(path);
        if (!payload) throw FormatError(where + " names " + path + ", which the archive does not hold");
        const auto tensor = meta.find("tensor_meta");
        if (tensor == meta.end() || !tensor->is_object()) {
            r.unsupported = "not a tensor (a custom object)";
        } else {
            r.dtype = ir::dtypeOfScalarType(tensor->value("dtype", 0));
            for (const auto& d : tensor->value("sizes", nlohmann::ordered_json::array()))
                r.shape.push_back(symIntValue(d));
            std::vector<int64_t> strides;
            for (const auto& d : tensor->value("strides", nlohmann::ordered_json::array()))
                strides.push_back(symIntValue(d));
            r.storageOffset = tensor->contains("storage_offset") ? symIntValue((*tensor)["storage_offset"]) : 0;
            if (!strides.empty() && strides.size() != r.shape.size())
                throw FormatError(where + " lists " + std::to_string(strides.size()) + " strides for a " +
                                  std::to_string(r.shape.size()) + "-dim tensor");
            // Contiguous strides are left empty, as the other formats leave them.
            int64_t expect = 1;
            bool contiguous = strides.size() == r.shape.size();
            for (size_t k = r.shape.size(); contiguous && k-- > 0;) {
                if (r.shape[k] != 1 && strides[k] != expect) contiguous = false;
                expect *= r.shape[k];
            }
            if (!contiguous) r.strides = strides;
            const ir::TorchDType* dt = r.dtype.empty() ? nullptr : ir::findTorchDType(r.dtype);
            if (!dt)
                r.unsupported =
                    "dtype number " + std::to_string(tensor->value("dtype", 0)) + " is not one PyTorch defines";
            else {
                r.elementSize = static_cast<int>(dt->size);
                if (!dt->held) r.unsupported = "dtype " + r.dtype + " is not supported by libtorch 1.13";
            }
        }
        if (meta.value("use_pickle", false) && payload->method == 0) {
            addPickledPayload(catalog, zip, *payload, std::move(r));
            return;
        }
        r.storageBegin = payload->dataOffset;
        r.storageBytes = payload->size;
        // The furthest element the view reaches must lie in the storage file.
        for (size_t k = 0; k < r.shape.size(); ++k)
            if (r.shape[k] < 0 || r.shape[k] >= (int64_t(1) << 40) ||
                (!r.strides.empty() && (r.strides[k] < 0 || r.strides[k] >= (int64_t(1) << 40))))
                throw FormatError(where + " has an impossible size or stride");
        if (r.supported() && r.elementSize > 0) {
            bool empty = false;
            int64_t last = r.storageOffset, stride = 1;
            for (size_t k = r.shape.size(); k-- > 0;) {
                const int64_t s = r.strides.empty() ? stride : r.strides[k];
                if (r.shape[k] == 0) empty = true;
                last += (r.shape[k] - 1) * s;
                stride *= r.shape[k];
                if (stride >= (int64_t(1) << 50)) throw FormatError(where + " has an impossible size or stride");
            }
            if (!empty && (r.storageOffset < 0 || static_cast<uint64_t>(last + 1) * r.elementSize > payload->size))
                throw FormatError(where + " reaches element " + std::to_string(last) + " of " + path +
                                  ", which holds " + std::to_string(payload->size / r.elementSize) + " elements");
        }
        if (payload->method != 0) r.unsupported = "stored compressed in the archive";
        catalog.records.push_back(std::move(r));
    }
}

}  // namespace

}  // namespace irscope::io
