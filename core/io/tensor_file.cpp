#include "core/io/tensor_file.h"

#include <filesystem>
#include <random>

#include "core/io/byte_reader.h"
#include "core/io/mapped_file.h"
#include "core/io/npy_file.h"
#include "core/io/npy_header.h"
#include "core/io/safetensors_file.h"
#include "core/io/torch_save.h"
#include "core/io/zip_reader.h"

namespace irscope::io {

namespace fs = std::filesystem;

namespace {

TensorFileFormat detect(std::string_view bytes) {
    if (looksLikeZip(bytes)) return TensorFileFormat::TorchSaveZip;
    if (looksLikeNpy(bytes)) return TensorFileFormat::Npy;
    // A legacy torch.save starts with the pickled magic number: PROTO n, LONG1 10.
    if (bytes.size() >= 4 && uint8_t(bytes[0]) == 0x80 && bytes.substr(2, 2) == std::string_view("\x8a\x0a", 2))
        return TensorFileFormat::TorchSaveLegacy;
    // safetensors: an 8-byte little-endian header size, then '{'.
    if (bytes.size() >= 9 && bytes[8] == '{') return TensorFileFormat::Safetensors;
    return TensorFileFormat::Unknown;
}

std::string lowerExtension(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

}  // namespace

const char* tensorFileFormatName(TensorFileFormat format) {
    switch (format) {
    case TensorFileFormat::TorchSaveZip: return "torch.save (zip)";
    case TensorFileFormat::TorchSaveLegacy: return "torch.save (legacy)";
    case TensorFileFormat::Safetensors: return "safetensors";
    case TensorFileFormat::Npy: return "npy";
    case TensorFileFormat::NpyDirectory: return "directory of npy";
    case TensorFileFormat::Unknown: return "unknown";
    }
    return "unknown";
}

TensorFileFormat detectTensorFileFormat(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return TensorFileFormat::NpyDirectory;
    return detect(MappedFile::open(path)->bytes());
}

TensorMap readTensorFile(const std::string& path, const ReadOptions& options) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return readNpyDirectory(path, options);
    std::shared_ptr<MappedFile> file = MappedFile::open(path);
    if (file->size() == 0) throw TensorFileError(path, "empty file");
    auto done = [&](TensorMap map) {
        file->closeDescriptor();  // tensors keep the mapping, not the descriptor
        return map;
    };
    switch (detect(file->bytes())) {
    case TensorFileFormat::TorchSaveZip: return done(readTorchSaveZip(file, options));
    case TensorFileFormat::TorchSaveLegacy: return done(readTorchSaveLegacy(file, options));
    case TensorFileFormat::Safetensors: return done(readSafetensors(file, options));
    case TensorFileFormat::Npy: {
        if (!options.select.empty()) throw TensorFileError(path, "an .npy file has one tensor: nothing to select");
        return done(readNpy(file, options));
    }
    default: break;
    }
    // Content says nothing known; a name that does gets that format's precise complaint.
    const std::string ext = lowerExtension(path);
    if (ext == ".safetensors") return done(readSafetensors(file, options));
    if (ext == ".npy") return done(readNpy(file, options));
    if (file->bytes().substr(0, 4) == "GGUF") throw TensorFileError(path, "a GGUF file, which irscope does not read");
    throw TensorFileError(path, "unrecognized format: not a torch.save file (zip or legacy), .safetensors or .npy");
}

void writeTensorFile(const TensorMap& tensors, const std::string& path) {
    if (!tensors.skipped().empty()) {
        const SkippedTensor& s = tensors.skipped().front();
        throw TensorFileError(path, "tensor '" + s.name + "' (" + s.dtype + ") could not be read (" + s.reason +
                                        "); refusing to write a file without it");
    }
    const std::string ext = lowerExtension(path);
    enum class Kind { Pt, Safetensors, Npy } kind;
    if (ext == ".pt" || ext == ".pth" || ext == ".bin")
        kind = Kind::Pt;
    else if (ext == ".safetensors")
        kind = Kind::Safetensors;
    else if (ext == ".npy")
        kind = Kind::Npy;
    else
        throw TensorFileError(path,
                              "unknown output extension '" + ext + "' (use .pt, .pth, .bin, .safetensors or .npy)");
    if (kind == Kind::Npy && tensors.size() != 1)
        throw TensorFileError(path, ".npy holds exactly one tensor, the input has " + std::to_string(tensors.size()));

    // Temporary name in the same directory, so the rename is atomic.
    std::random_device rd;
    std::string tmp = path + ".tmp-" + std::to_string(rd());
    try {
        switch (kind) {
        case Kind::Pt: writeTorchSave(tensors, tmp); break;
        case Kind::Safetensors: writeSafetensors(tensors, tmp); break;
        case Kind::Npy: writeNpy(tensors.entries().front().tensor, tmp); break;
        }
        std::error_code ec;
        fs::rename(tmp, path, ec);
        if (ec) throw TensorFileError(path, "cannot rename the finished file into place: " + ec.message());
    } catch (const TensorFileError& e) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        // Name the file the user asked for, not the temporary one.
        throw TensorFileError(path, e.reason());
    } catch (...) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw;
    }
}

}  // namespace irscope::io
