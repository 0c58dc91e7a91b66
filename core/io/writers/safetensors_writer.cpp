// Writes .safetensors as the reference writer does: an 8-byte header size,
// the JSON header (with __metadata__ {"format": "pt"}), then the data,
// larger elements first so every tensor is aligned to its element size.
#include <algorithm>
#include <fstream>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include "core/io/catalog/safetensors_header.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/tensor_dtype.h"
#include "core/io/tensor_writer.h"

namespace irscope::io {
namespace {

void writeSafetensors(const TensorMap& tensors, const std::string& path) {
    struct Item {
        const NamedTensor* entry;
        at::Tensor data;  // contiguous
        size_t elem;
    };
    std::vector<Item> items;
    for (const auto& e : tensors) {
        if (e.name == "__metadata__")
            throw TensorFileError(path, "a tensor named '__metadata__' cannot be stored in safetensors");
        std::string dtype = safetensorsDTypeFromTorchName(scalarTypeName(e.tensor.scalar_type()));
        if (dtype.empty())
            throw TensorFileError(path, "tensor '" + e.name + "' has dtype " + scalarTypeName(e.tensor.scalar_type()) +
                                            ", which safetensors cannot store");
        at::Tensor c = e.tensor.contiguous();
        items.push_back({&e, c, static_cast<size_t>(c.element_size())});
    }
    // Data: larger elements first, which keeps every tensor aligned to its
    // element size (as the reference writer does). Header: map order, which
    // is the order a reader lists them in.
    std::vector<size_t> dataOrder(items.size());
    for (size_t k = 0; k < items.size(); ++k) dataOrder[k] = k;
    std::stable_sort(dataOrder.begin(), dataOrder.end(),
                     [&](size_t a, size_t b) { return items[a].elem > items[b].elem; });
    std::vector<uint64_t> begin(items.size());
    uint64_t offset = 0;
    for (size_t k : dataOrder) {
        begin[k] = offset;
        offset += items[k].data.nbytes();
    }
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    header["__metadata__"] = {{"format", "pt"}};
    for (size_t k = 0; k < items.size(); ++k) {
        const Item& item = items[k];
        header[item.entry->name] = {{"dtype", safetensorsDTypeFromTorchName(scalarTypeName(item.data.scalar_type()))},
                                    {"shape", item.data.sizes().vec()},
                                    {"data_offsets", {begin[k], begin[k] + item.data.nbytes()}}};
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');  // data starts 8-aligned
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw TensorFileError(path, "cannot open for writing");
    uint64_t n = text.size();
    out.write(reinterpret_cast<const char*>(&n), 8);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    for (size_t k : dataOrder)
        out.write(static_cast<const char*>(items[k].data.data_ptr()),
                  static_cast<std::streamsize>(items[k].data.nbytes()));
    out.flush();
    if (!out) throw TensorFileError(path, "write failed (disk full?)");
}

const bool safetensorsWriterRegistered = registerTensorWriter({
    .name = "safetensors",
    .extensions = {".safetensors"},
    .write = writeSafetensors,
});

}  // namespace
}  // namespace irscope::io
