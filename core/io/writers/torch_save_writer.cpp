// Writes what Python's torch.save(state_dict) writes (zip format, protocol 2
// pickle of an OrderedDict of _rebuild_tensor_v2 calls), using only opcodes
// and globals that torch.load(f, weights_only=True) of PyTorch 1.13 accepts.
// Tensors that share a storage (tied weights, views) share it in the file too.
#include <fstream>
#include <functional>
#include <map>
#include <unordered_map>

#include <ATen/ATen.h>
#include <caffe2/serialize/inline_container.h>

#include "core/io/catalog/tensor_file_error.h"
#include "core/io/tensor_dtype.h"
#include "core/io/tensor_writer.h"
#include "core/io/writers/torch_save_arguments.h"

namespace irscope::io {

namespace {

const char* storageClassOf(c10::ScalarType type) {
    switch (type) {
    case c10::ScalarType::Float: return "FloatStorage";
    case c10::ScalarType::Double: return "DoubleStorage";
    case c10::ScalarType::Half: return "HalfStorage";
    case c10::ScalarType::BFloat16: return "BFloat16Storage";
    case c10::ScalarType::Char: return "CharStorage";
    case c10::ScalarType::Short: return "ShortStorage";
    case c10::ScalarType::Int: return "IntStorage";
    case c10::ScalarType::Long: return "LongStorage";
    case c10::ScalarType::Byte: return "ByteStorage";
    case c10::ScalarType::Bool: return "BoolStorage";
    case c10::ScalarType::ComplexFloat: return "ComplexFloatStorage";
    case c10::ScalarType::ComplexDouble: return "ComplexDoubleStorage";
    default: return nullptr;
    }
}

class PickleWriter {
public:
    std::string bytes;

    void op(char c) { bytes.push_back(c); }
    void global(const std::string& module, const std::string& name) {
        op('c');
        bytes += module + "\n" + name + "\n";
    }
    void string(const std::string& s) {
        op('X');
        uint32_t n = static_cast<uint32_t>(s.size());
        bytes.append(reinterpret_cast<const char*>(&n), 4);
        bytes += s;
    }
    void integer(int64_t v) {
        if (v >= INT32_MIN && v <= INT32_MAX) {
            op('J');
            int32_t x = static_cast<int32_t>(v);
            bytes.append(reinterpret_cast<const char*>(&x), 4);
        } else {
            op('\x8a');  // LONG1, 8 bytes little-endian two's complement
            op('\x08');
            bytes.append(reinterpret_cast<const char*>(&v), 8);
        }
    }
    void intTuple(c10::IntArrayRef values) {
        op('(');
        for (int64_t v : values) integer(v);
        op('t');
    }
    void emptyOrderedDict() {
        global("collections", "OrderedDict");
        op(')');
        op('R');
    }
};

struct StorageOut {
    std::string key;
    const void* data;
    int64_t numel;
    c10::ScalarType type;
};

// The pickle and the storages it names, as torch.save lays them out.
struct TorchSaveParts {
    PickleWriter pickle;
    std::vector<StorageOut> storages;
    std::map<std::pair<const void*, int>, size_t> storageIndex;  // (StorageImpl, dtype) -> storages[]

    // One tensor as torch._utils._rebuild_tensor_v2(storage, offset, size, stride, False, OrderedDict()).
    void tensor(const at::Tensor& t, const std::string& name, const std::string& path) {
        PickleWriter& p = pickle;
        const char* storageClass = storageClassOf(t.scalar_type());
        if (!storageClass)
            throw TensorFileError(path, "tensor '" + name + "' has dtype " + scalarTypeName(t.scalar_type()) +
                                            ", which irscope cannot write to a .pt file");
        if (!t.device().is_cpu() || t.layout() != c10::kStrided || !t.has_storage())
            throw TensorFileError(path, "tensor '" + name + "' is not a dense CPU tensor");
        const auto* impl = t.storage().unsafeGetStorageImpl();
        auto [it, fresh] =
            storageIndex.emplace(std::make_pair(static_cast<const void*>(impl), int(t.scalar_type())), storages.size());
        if (fresh) {
            storages.push_back({std::to_string(storages.size()), t.storage().data(),
                                static_cast<int64_t>(t.storage().nbytes() / t.element_size()), t.scalar_type()});
        }
        const StorageOut& s = storages[it->second];
        p.global("torch._utils", "_rebuild_tensor_v2");
        p.op('(');
        {  // persistent id ('storage', class, key, location, numel)
            p.op('(');
            p.string("storage");
            p.global("torch", storageClass);
            p.string(s.key);
            p.string("cpu");
            p.integer(s.numel);
            p.op('t');
            p.op('Q');
        }
        p.integer(t.storage_offset());
        p.intTuple(t.sizes());
        p.intTuple(t.strides());
        p.op('\x89');          // requires_grad False
        p.emptyOrderedDict();  // backward hooks
        p.op('t');
        p.op('R');
    }

    // The zip: data.pkl, then each storage.
    void write(const std::function<size_t(const void*, size_t)>& sink, const std::string& path) const {
        try {
            caffe2::serialize::PyTorchStreamWriter writer(sink);
            writer.writeRecord("data.pkl", pickle.bytes.data(), pickle.bytes.size());
            for (const auto& s : storages)
                writer.writeRecord("data/" + s.key, s.data, static_cast<size_t>(s.numel) * c10::elementSize(s.type));
            writer.writeEndOfFile();
        } catch (const c10::Error& e) {
            throw TensorFileError(path, std::string("write failed: ") + e.what_without_backtrace());
        }
    }
};

void writeTorchSave(const TensorMap& tensors, const std::string& path) {
    TorchSaveParts parts;
    PickleWriter& p = parts.pickle;
    p.op('\x80');
    p.op('\x02');
    p.emptyOrderedDict();
    if (!tensors.empty()) p.op('(');
    for (const auto& e : tensors) {
        p.string(e.name);
        parts.tensor(e.tensor, e.name, path);
    }
    if (!tensors.empty()) p.op('u');
    p.op('.');

    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw TensorFileError(path, "cannot open for writing");
    parts.write(
        [&](const void* data, size_t n) -> size_t {
            out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
            return out ? n : 0;
        },
        path);
    out.flush();
    if (!out) throw TensorFileError(path, "write failed (disk full?)");
}

const bool torchSaveWriterRegistered = registerTensorWriter({
    .name = "torch.save (zip)",
    .extensions = {".pt", ".pth", ".bin"},
    .write = writeTorchSave,
});

}  // namespace

std::string torchSaveOfArguments(const std::vector<at::Tensor>& args, const std::string& what) {
    TorchSaveParts parts;
    PickleWriter& p = parts.pickle;
    p.op('\x80');
    p.op('\x02');
    p.op('(');
    p.op('(');
    for (size_t i = 0; i < args.size(); ++i) parts.tensor(args[i], "argument " + std::to_string(i), what);
    p.op('t');
    p.op('}');  // no keyword arguments
    p.op('t');
    p.op('.');
    std::string bytes;
    parts.write(
        [&](const void* data, size_t n) -> size_t {
            bytes.append(static_cast<const char*>(data), n);
            return n;
        },
        what);
    return bytes;
}

}  // namespace irscope::io
