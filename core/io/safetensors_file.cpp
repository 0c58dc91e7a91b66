#include "core/io/safetensors_file.h"

#include <algorithm>
#include <fstream>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include "core/io/mapped_storage.h"
#include "core/io/safetensors_header.h"
#include "core/io/tensor_dtype.h"
#include "core/io/tensor_file_error.h"

namespace irscope::io {

TensorMap readSafetensors(const std::shared_ptr<MappedFile>& file, const ReadOptions& options) {
    TensorMap map;
    try {
        SafetensorsHeader header = parseSafetensorsHeader(file->bytes());
        // A select of a safetensors file is a name prefix ("model." -> strip it).
        std::string prefix = options.select.empty() ? std::string() : options.select + ".";
        bool any = false;
        for (const auto& e : header.tensors) {
            std::string name = e.name;
            if (!prefix.empty()) {
                if (name.rfind(prefix, 0) != 0) continue;
                name = name.substr(prefix.size());
            }
            any = true;
            std::string torchName = safetensorsDTypeTorchName(e.dtype);
            auto type = scalarTypeFromName(torchName);
            if (!type) {
                map.addSkipped({name, torchName, e.shape,
                                "dtype " + e.dtype + " (" + torchName + ") is not supported by libtorch 1.13",
                                file->path()});
                continue;
            }
            const uint8_t* ptr = file->data() + header.dataStart + e.begin;
            size_t nbytes = e.end - e.begin;
            size_t elem = c10::elementSize(*type);
            c10::Storage storage = storageOverFile(file, ptr, nbytes, std::min<size_t>(elem, 16), options.copy);
            at::Tensor t = at::empty({0}, at::TensorOptions().dtype(*type));
            t.set_(storage, 0, e.shape, contiguousStrides(e.shape));
            map.insert(name, std::move(t), file->path());
        }
        if (!prefix.empty() && !any)
            throw FormatError("no tensor name starts with '" + prefix + "' (select)");
    } catch (const FormatError& e) {
        throw TensorFileError(file->path(), e.what());
    } catch (const c10::Error& e) {
        throw TensorFileError(file->path(), e.what_without_backtrace());
    }
    return map;
}

void writeSafetensors(const TensorMap& tensors, const std::string& path) {
    struct Item {
        const NamedTensor* entry;
        at::Tensor data;   // contiguous
        size_t elem;
    };
    std::vector<Item> items;
    for (const auto& e : tensors) {
        std::string dtype = safetensorsDTypeFromTorchName(scalarTypeName(e.tensor.scalar_type()));
        if (dtype.empty())
            throw TensorFileError(path, "tensor '" + e.name + "' has dtype " + scalarTypeName(e.tensor.scalar_type()) +
                                            ", which safetensors cannot store");
        at::Tensor c = e.tensor.contiguous();
        items.push_back({&e, c, static_cast<size_t>(c.element_size())});
    }
    // Larger elements first keeps every tensor aligned to its element size,
    // as the reference writer does; ties keep map order.
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.elem > b.elem; });
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    header["__metadata__"] = {{"format", "pt"}};
    uint64_t offset = 0;
    for (const auto& item : items) {
        uint64_t nbytes = item.data.nbytes();
        header[item.entry->name] = {{"dtype", safetensorsDTypeFromTorchName(scalarTypeName(item.data.scalar_type()))},
                                    {"shape", item.data.sizes().vec()},
                                    {"data_offsets", {offset, offset + nbytes}}};
        offset += nbytes;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');   // data starts 8-aligned
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw TensorFileError(path, "cannot open for writing");
    uint64_t n = text.size();
    out.write(reinterpret_cast<const char*>(&n), 8);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    for (const auto& item : items)
        out.write(static_cast<const char*>(item.data.data_ptr()), static_cast<std::streamsize>(item.data.nbytes()));
    out.flush();
    if (!out) throw TensorFileError(path, "write failed (disk full?)");
}

}  // namespace irscope::io
