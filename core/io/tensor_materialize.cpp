#include "core/io/tensor_materialize.h"

#include <algorithm>
#include <unordered_map>

#include <ATen/ATen.h>
#include <torch/version.h>

#include "core/io/catalog/tensor_file_error.h"
#include "core/io/mapped_storage.h"
#include "core/io/tensor_dtype.h"

namespace irscope::io {

namespace {

struct StorageKey {
    uint32_t file;
    uint64_t begin;
    bool operator==(const StorageKey&) const = default;
};
struct StorageKeyHash {
    size_t operator()(const StorageKey& k) const { return std::hash<uint64_t>()(k.begin * 31 + k.file); }
};

// Big-endian elements to native order, per component for complex numbers.
void swapBytes(c10::Storage& storage, int elementSize, bool complex) {
    // libtorch 2.x splits the const and the writing accessor (copy-on-write storages).
#if TORCH_VERSION_MAJOR >= 2
    auto* bytes = static_cast<uint8_t*>(storage.mutable_data());
#else
    auto* bytes = static_cast<uint8_t*>(storage.data());
#endif
    const int width = complex ? elementSize / 2 : elementSize;
    const auto nbytes = static_cast<int64_t>(storage.nbytes());
    for (int64_t k = 0; k + width <= nbytes; k += width) std::reverse(bytes + k, bytes + k + width);
}

}  // namespace

TensorMap materialize(const TensorCatalog& catalog, const ReadOptions& options) {
    TensorMap map;
    std::unordered_map<StorageKey, c10::Storage, StorageKeyHash> storages;
    const size_t total = catalog.records.size();
    size_t done = 0;
    for (const TensorRecord& r : catalog.records) {
        if (options.progress && done++ % 512 == 0 && !options.progress(done - 1, total)) throw ReadCancelled();
        const std::shared_ptr<MappedFile>& file = catalog.files[r.file];
        if (r.subclass) {
            map.addSubclass({r.name, r.subclass, r.dtype, r.shape, file->path()});
            continue;
        }
        if (!r.supported()) {
            map.addSkipped({r.name, r.dtype, r.shape, r.unsupported, file->path()});
            continue;
        }
        const auto type = scalarTypeFromName(r.dtype);
        if (!type) throw TensorFileError(file->path(), "tensor '" + r.name + "' has unknown dtype " + r.dtype);
        try {
            const StorageKey key{r.file, r.storageBegin};
            auto it = storages.find(key);
            if (it == storages.end() || it->second.nbytes() < r.storageBytes) {
                c10::Storage storage =
                    storageOverFile(file, catalog.storageOf(r), static_cast<size_t>(r.storageBytes),
                                    static_cast<size_t>(std::min(r.elementSize, 16)), options.copy || r.bigEndian);
                if (r.bigEndian) swapBytes(storage, r.elementSize, c10::isComplexType(*type));
                it = storages.insert_or_assign(key, std::move(storage)).first;
            }
            at::Tensor tensor = at::empty({0}, at::TensorOptions().dtype(*type));
            tensor.set_(it->second, r.storageOffset, r.shape, r.contiguous() ? contiguousStrides(r.shape) : r.strides);
            map.insert(r.name, std::move(tensor), file->path());
        } catch (const c10::Error& e) {
            throw TensorFileError(file->path(), "tensor '" + r.name + "': " + e.what_without_backtrace());
        }
    }
    if (options.progress && !options.progress(total, total)) throw ReadCancelled();
    return map;
}

}  // namespace irscope::io
