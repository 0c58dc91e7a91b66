// torch.save, both layouts: the zip one (PyTorch >= 1.6, also what irscope
// writes for .pt/.pth/.bin) and the legacy pickle stream before it. The
// pickle goes through the restricted unpickler; its tensor descriptions
// become records over the storages' bytes in the mapping, each checked to
// lie inside its storage, so nothing past a storage's end is ever mapped.
#include <filesystem>
#include <functional>
#include <unordered_map>

#include "core/io/catalog/byte_reader.h"
#include "core/io/catalog/crc32.h"
#include "core/io/catalog/pickle_tree.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/catalog/tensor_format.h"
#include "core/io/catalog/tensor_geometry.h"
#include "core/io/catalog/torch_save_zip.h"
#include "core/io/catalog/unpickler.h"
#include "core/io/catalog/zip_reader.h"

namespace irscope::io {
namespace {

namespace fs = std::filesystem;

// Bytes of one storage, by key: a zip record or a slice of a legacy file.
using StorageBytes = std::function<std::string_view(const StorageDesc&)>;

// Records with storage offsets from `base` (the start of the mapped file, or
// of the buffer a nested torch.save lies in); the caller adds the file.
TensorCatalog describeTensors(const char* base, const std::string& rootName, const UnpickleResult& pickle,
                              const ReadOptions& options, const StorageBytes& bytesOf) {
    TensorCatalog catalog;
    const PickleArena& arena = pickle.arena;
    const auto refs = collectTensors(arena, pickle.root, options.select, rootName);
    catalog.records.reserve(refs.size());
    for (const auto& ref : refs) {
        const TensorDesc& t = arena.at(ref.tensor).tensor();
        if (arena.at(ref.tensor).kind == PickleObject::Kind::Subclass) {
            TensorRecord r;
            r.name = ref.name;
            r.dtype = t.dtype.name;
            r.elementSize = t.dtype.elementSize;
            r.shape = t.sizes;
            r.subclass = std::make_shared<const TensorSubclass>(describeSubclass(arena, arena.at(ref.tensor)));
            catalog.records.push_back(std::move(r));
            continue;
        }
        const StorageDesc& s = arena.at(t.storage).storage();
        TensorRecord r;
        r.name = ref.name;
        r.dtype = t.dtype.name;
        r.elementSize = t.dtype.elementSize;
        r.shape = t.sizes;
        if (!t.dtype.supported) {
            r.unsupported = "dtype " + t.dtype.name + " is not supported by libtorch 1.13";
            catalog.records.push_back(std::move(r));
            continue;
        }
        const int64_t storageElem = s.dtype.elementSize;
        const int64_t storageNumel = s.view ? s.view->size : s.numel;
        int64_t nbytes;
        if (storageElem <= 0 || storageNumel < 0 || __builtin_mul_overflow(storageNumel, storageElem, &nbytes))
            throw FormatError("storage '" + s.key + "' of tensor '" + ref.name + "' has an absurd size " +
                              std::to_string(s.numel));
        const std::string_view bytes = bytesOf(s);
        if (static_cast<int64_t>(bytes.size()) < nbytes)
            throw FormatError("storage '" + s.key + "' of tensor '" + ref.name + "' holds " +
                              std::to_string(bytes.size()) + " bytes, the pickle says " + std::to_string(nbytes));
        if (r.elementSize <= 0) throw FormatError("tensor '" + ref.name + "' has dtype " + r.dtype + " of no size");
        if (auto problem = checkView(t.sizes, t.strides, t.storageOffset, nbytes / r.elementSize))
            throw FormatError("tensor '" + ref.name + "' (shape " + shapeText(t.sizes) +
                              ") does not fit its storage '" + s.key + "': " + *problem);
        r.storageBegin = static_cast<uint64_t>(bytes.data() - base);
        r.storageBytes = static_cast<uint64_t>(nbytes);
        r.storageOffset = t.storageOffset;
        if (t.strides != contiguousStrides(t.sizes)) r.strides = t.strides;
        catalog.records.push_back(std::move(r));
    }
    return catalog;
}

}  // namespace

TensorCatalog describeTorchSaveZip(const std::shared_ptr<MappedFile>& file, std::string_view bytes,
                                   const ReadOptions& options) {
    // A page per record's local header: not needed while unpickling (the
    // whole file: a nested torch.save is a few pages of a larger archive).
    TensorCatalog catalog = describeTorchSaveZipIn(file->bytes(), bytes, fs::path(file->path()).stem().string(),
                                                   options, [&](uint64_t at, uint64_t n) {
                                                       if (n > 0)
                                                           file->dropResidentPages(at, n);
                                                       else if (bytes.size() == file->bytes().size())
                                                           file->dropResidentPages();
                                                   });
    catalog.files.insert(catalog.files.begin(), file);
    return catalog;
}

TensorCatalog describeTorchSaveZipIn(std::string_view container, std::string_view bytes, const std::string& rootName,
                                     const ReadOptions& options, const std::function<void(uint64_t, uint64_t)>& read) {
    ZipReader zip(bytes);
    if (read) read(0, 0);  // the whole file: its local headers were read
    const std::string top = zip.topFolder();
    const ZipRecord* pkl = zip.find(top + "/data.pkl");
    if (!pkl) {
        if (zip.find(top + "/constants.pkl") || zip.find(top + "/code/"))
            throw FormatError("a TorchScript archive (torch.jit.save), not a torch.save file");
        throw FormatError("a zip archive without '" + top +
                          "/data.pkl': not a torch.save file"
                          " (for .npz, extract the arrays to .npy files)");
    }
    if (const ZipRecord* order = zip.find(top + "/byteorder")) {
        if (zip.data(*order) != "little") throw FormatError("big-endian tensor data is not supported");
    }
    std::string_view pickleBytes = zip.data(*pkl);
    if (crc32(pickleBytes.data(), pickleBytes.size()) != pkl->crc32)
        throw FormatError("record '" + pkl->name + "' is corrupt (CRC-32 mismatch)");
    UnpickleResult pickle = unpickle(pickleBytes);
    // Read; the records come from the arena.
    if (read) read(static_cast<uint64_t>(pickleBytes.data() - container.data()), pkl->size);
    auto bytesOf = [&](const StorageDesc& s) -> std::string_view {
        std::string name = top + "/data/" + s.key;
        const ZipRecord* record = zip.find(name);
        if (!record) throw FormatError("storage record '" + name + "' is missing");
        std::string_view data = zip.data(*record);
        if (options.verifyChecksums && crc32(data.data(), data.size()) != record->crc32)
            throw FormatError("record '" + name + "' is corrupt (CRC-32 mismatch)");
        return data;
    };
    return describeTensors(container.data(), rootName, pickle, options, bytesOf);
}

namespace {

TensorCatalog describeZip(const TensorFileSource& source, const ReadOptions& options) {
    try {
        return describeTorchSaveZip(source.file, source.bytes(), options);
    } catch (const FormatError& e) {
        throw TensorFileError(source.path, e.what());
    }
}

TensorCatalog describeLegacy(const TensorFileSource& source, const ReadOptions& options) {
    try {
        std::string_view all = source.bytes();
        uint64_t pos = 0;
        auto next = [&]() {
            UnpickleResult r = unpickle(all.substr(pos));
            pos += r.consumed;
            return r;
        };
        UnpickleResult magic = next();
        const PickleObject* m = magic.arena.get(magic.root);
        static const std::string kMagic("\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19", 10);
        if (!m || m->kind != PickleObject::Kind::BigInt || m->text() != kMagic)
            throw FormatError("not a torch.save file: the legacy magic number is missing");
        UnpickleResult version = next();
        if (version.root.kind != PickleValue::Kind::Int || version.root.i != 1001)
            throw FormatError("unsupported legacy protocol version (expected 1001)");
        UnpickleResult sysInfo = next();
        if (const PickleObject* info = sysInfo.arena.get(sysInfo.root);
            info && info->kind == PickleObject::Kind::Dict) {
            const auto items = info->items();
            for (size_t k = 0; k + 1 < items.size(); k += 2) {
                const auto key = sysInfo.arena.string(items[k]);
                if (key && *key == "little_endian" && items[k + 1].i == 0)
                    throw FormatError("big-endian tensor data is not supported");
            }
        }
        UnpickleResult main = next();
        UnpickleResult keys = next();
        const PickleObject* keyList = keys.arena.get(keys.root);
        if (!keyList || keyList->kind != PickleObject::Kind::List)
            throw FormatError("legacy storage key list is missing");

        // Element size per root key, from the main pickle's storages.
        struct RootInfo {
            int64_t elementSize;
            int64_t numel;
        };
        std::unordered_map<std::string, RootInfo> roots;
        for (size_t k = 0; k < main.arena.size(); ++k) {
            const PickleObject& o = main.arena.at(static_cast<uint32_t>(k));
            if (o.kind != PickleObject::Kind::Storage) continue;
            auto [it, fresh] =
                roots.emplace(o.storage().key, RootInfo{o.storage().dtype.elementSize, o.storage().numel});
            if (!fresh &&
                (it->second.elementSize != o.storage().dtype.elementSize || it->second.numel != o.storage().numel))
                throw FormatError("legacy storage '" + o.storage().key +
                                  "' is declared with two different types or sizes");
        }
        // After the pickles, per key: int64 element count, then the bytes.
        std::unordered_map<std::string, std::string_view> rootBytes;
        for (const auto& keyValue : keyList->items()) {
            const auto keyView = keys.arena.string(keyValue);
            if (!keyView) throw FormatError("legacy storage key is not a string");
            const std::string keyText(*keyView);
            const std::string* key = &keyText;
            auto root = roots.find(*key);
            if (root == roots.end()) throw FormatError("legacy storage '" + *key + "' is listed but never used");
            int64_t count = readLE<int64_t>(all, pos, "legacy storage size");
            if (count != root->second.numel)
                throw FormatError("legacy storage '" + *key + "' holds " + std::to_string(count) +
                                  " elements, the pickle says " + std::to_string(root->second.numel));
            int64_t nbytes;
            if (count < 0 || __builtin_mul_overflow(count, root->second.elementSize, &nbytes) ||
                !fitsIn(pos + 8, static_cast<uint64_t>(nbytes), all.size()))
                throw FormatError("truncated: legacy storage '" + *key + "' (" + std::to_string(count) +
                                  " elements) runs past the end of the file");
            rootBytes[*key] = all.substr(pos + 8, static_cast<size_t>(nbytes));
            pos += 8 + static_cast<uint64_t>(nbytes);
        }
        auto bytesOf = [&](const StorageDesc& s) -> std::string_view {
            auto it = rootBytes.find(s.key);
            if (it == rootBytes.end()) throw FormatError("legacy storage '" + s.key + "' has no data");
            if (!s.view) return it->second;
            int64_t begin, length;
            if (s.view->offset < 0 || s.view->size < 0 ||
                __builtin_mul_overflow(s.view->offset, int64_t(s.dtype.elementSize), &begin) ||
                __builtin_mul_overflow(s.view->size, int64_t(s.dtype.elementSize), &length) ||
                !fitsIn(static_cast<uint64_t>(begin), static_cast<uint64_t>(length), it->second.size()))
                throw FormatError("legacy storage view '" + s.view->key + "' lies outside storage '" + s.key + "'");
            return it->second.substr(static_cast<size_t>(begin), static_cast<size_t>(length));
        };
        TensorCatalog catalog = describeTensors(reinterpret_cast<const char*>(source.file->data()),
                                                fs::path(source.path).stem().string(), main, options, bytesOf);
        catalog.files.insert(catalog.files.begin(), source.file);
        return catalog;
    } catch (const FormatError& e) {
        throw TensorFileError(source.path, e.what());
    }
}

// A legacy torch.save starts with the pickled magic number: PROTO n, LONG1 10.
bool isLegacyTorchSave(std::string_view b) {
    return b.size() >= 4 && uint8_t(b[0]) == 0x80 && b.substr(2, 2) == std::string_view("\x8a\x0a", 2);
}

const bool zipRegistered = registerTensorFormat({
    .name = "torch.save (zip)",
    .rank = 10,
    .claims = [](const TensorFileSource& s) { return !s.isDirectory() && looksLikeZip(s.bytes()); },
    .extensions = {".pt", ".pth", ".bin"},
    .describe = describeZip,
});

const bool legacyRegistered = registerTensorFormat({
    .name = "torch.save (legacy)",
    .rank = 30,
    .claims = [](const TensorFileSource& s) { return !s.isDirectory() && isLegacyTorchSave(s.bytes()); },
    .extensions = {},
    .describe = describeLegacy,
});

}  // namespace
}  // namespace irscope::io
