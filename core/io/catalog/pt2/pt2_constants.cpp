// A .pt2's constants as row-major ConstantValues (pt2_constants.h), read
// through the same checked records as its weights (pt2_payloads.h). The
// storage may be shared and the tensor a strided view of it: elements are
// gathered by their strides. PyTorch 2.2-2.7 stored them as a torch.save
// (serialized_constants.pt), read in place the same way.
#include "core/io/catalog/pt2/pt2_constants.h"

#include <cstring>

#include "core/io/catalog/pt2/pt2_payloads.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/catalog/torch_save_zip.h"

namespace irscope::io {

std::vector<std::pair<std::string, ir::ConstantValue>> readPt2Constants(const ZipReader& zip, std::string_view archive,
                                                                        const Pt2Program& program) {
    std::vector<std::pair<std::string, ir::ConstantValue>> out;
    TensorCatalog catalog;
    if (!program.constantsConfigEntry.empty()) {
        addPt2Payloads(catalog, zip, program.constantsConfigEntry,
                       program.constantsConfigEntry.substr(0, program.constantsConfigEntry.rfind('/') + 1));
    } else if (!program.pickledConstantsEntry.empty()) {  // PyTorch 2.2-2.7: a torch.save in the archive
        const ZipRecord* record = zip.find(program.pickledConstantsEntry);
        if (record->method != 0) throw FormatError(program.pickledConstantsEntry + " is stored compressed");
        try {
            catalog = describeTorchSaveZipIn(archive, zip.data(*record), "constants", {});
        } catch (const FormatError& e) {
            throw FormatError(program.pickledConstantsEntry + ": " + e.what());
        }
    }
    for (const TensorRecord& r : catalog.records) {
        // Sizes, strides and the extent were checked against the storage file.
        if (!r.supported() || r.elementSize <= 0) continue;
        const auto size = static_cast<size_t>(r.elementSize);
        int64_t count = 1;
        for (int64_t d : r.shape) count *= d;
        // A broadcast view may be far bigger than its storage: at most 1 GiB is embedded.
        if (static_cast<uint64_t>(count) * size > (uint64_t(1) << 30)) continue;
        std::vector<int64_t> strides = r.strides;
        if (strides.empty()) {  // contiguous
            strides.assign(r.shape.size(), 1);
            for (size_t d = r.shape.size(); d-- > 1;) strides[d - 1] = strides[d] * r.shape[d];
        }
        ir::ConstantValue c;
        c.dtype = r.dtype;
        c.shape = r.shape;
        c.bytes.resize(static_cast<size_t>(count) * size);
        const char* storage = archive.data() + r.storageBegin;
        // Row-major walk over the shape; each element's storage index by strides.
        std::vector<int64_t> index(r.shape.size(), 0);
        for (int64_t k = 0; k < count; ++k) {
            int64_t at = r.storageOffset;
            for (size_t d = 0; d < index.size(); ++d) at += index[d] * strides[d];
            std::memcpy(c.bytes.data() + static_cast<size_t>(k) * size, storage + static_cast<size_t>(at) * size, size);
            for (size_t d = index.size(); d-- > 0;) {
                if (++index[d] < r.shape[d]) break;
                index[d] = 0;
            }
        }
        out.emplace_back(r.name, std::move(c));
    }
    return out;
}

}  // namespace irscope::io
