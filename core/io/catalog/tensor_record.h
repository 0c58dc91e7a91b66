#pragma once
// What a tensor file holds, without libtorch: one record per tensor (name,
// dtype, shape, where its bytes lie in the mapped file). Every format first
// *describes* a file as a TensorCatalog (core/io/catalog/formats/); listing,
// statistics and binding work from the catalog alone, so `irscope tensors`
// never loads libtorch, and a 100,000-tensor file costs a few hundred bytes
// per tensor. core/io/tensor_materialize turns a catalog into at::Tensors
// over the same mapping when values are needed.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/io/catalog/mapped_file.h"
#include "core/io/catalog/tensor_subclass.h"

namespace irscope::io {

struct TensorRecord {
    std::string name;
    std::string dtype;    // torch_ir spelling ("float32", "float8_e4m3fn")
    int elementSize = 0;  // bytes; 0 when the dtype has no whole-byte element
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;  // in elements; empty: contiguous
    int64_t storageOffset = 0;     // in elements
    // The bytes of the storage the tensor views, in catalog.files[file].
    // Records that share a storage (tied weights) share the range.
    uint32_t file = 0;
    uint64_t storageBegin = 0, storageBytes = 0;
    bool bigEndian = false;   // an .npy '>' dtype: bytes swap when loaded
    std::string unsupported;  // why libtorch 1.13 cannot hold it; empty when it can
    // A tensor subclass (torchao's quantized weights): no bytes of its own;
    // its inner tensors are the records named "<name>.<part>".
    std::shared_ptr<const TensorSubclass> subclass;

    bool supported() const { return unsupported.empty(); }
    bool contiguous() const { return strides.empty(); }
};

struct TensorCatalog {
    std::vector<std::shared_ptr<MappedFile>> files;
    std::vector<TensorRecord> records;  // file order

    const MappedFile& fileOf(const TensorRecord& r) const { return *files[r.file]; }
    const uint8_t* storageOf(const TensorRecord& r) const { return files[r.file]->data() + r.storageBegin; }
    // Appends another catalog's files and records (a shard).
    void append(TensorCatalog other);
};

}  // namespace irscope::io
