#include "core/io/tensor_file.h"

#include <filesystem>
#include <random>

#include "core/io/mapped_file.h"
#include "core/io/tensor_format.h"

namespace irscope::io {

namespace fs = std::filesystem;

namespace {

std::string lowerExtension(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

TensorFileSource openSource(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return {path, nullptr};
    return {path, MappedFile::open(path)};
}

// "the formats irscope reads": for messages, from the registry.
std::string extensionList(bool writable) {
    std::string list;
    for (const TensorFormat& f : tensorFormats()) {
        if (writable && !f.write) continue;
        for (const std::string& ext : f.extensions) list += (list.empty() ? "" : ", ") + ext;
    }
    return list;
}

}  // namespace

std::string detectTensorFileFormat(const std::string& path) {
    const TensorFormat* format = claimingFormat(openSource(path));
    return format ? format->name : "unknown";
}

TensorMap readTensorFile(const std::string& path, const ReadOptions& options) {
    TensorFileSource source = openSource(path);
    if (source.file && source.file->size() == 0) throw TensorFileError(path, "empty file");
    const TensorFormat* format = claimingFormat(source);
    // Content says nothing known; a name that does gets that format's precise complaint.
    if (!format && !source.isDirectory()) format = formatForExtension(lowerExtension(path), false);
    if (!format) {
        if (source.isDirectory())
            throw TensorFileError(path,
                                  "a directory without tensor files irscope reads (" + extensionList(false) + ")");
        if (source.bytes().substr(0, 4) == "GGUF")
            throw TensorFileError(path, "a GGUF file, which irscope does not read");
        throw TensorFileError(path, "unrecognized format: not a torch.save file (zip or legacy), .safetensors or .npy");
    }
    TensorMap map = format->read(source, options);
    if (source.file) source.file->closeDescriptor();  // tensors keep the mapping, not the descriptor
    return map;
}

void writeTensorFile(const TensorMap& tensors, const std::string& path) {
    if (!tensors.skipped().empty()) {
        const SkippedTensor& s = tensors.skipped().front();
        throw TensorFileError(path, "tensor '" + s.name + "' (" + s.dtype + ") could not be read (" + s.reason +
                                        "); refusing to write a file without it");
    }
    const std::string ext = lowerExtension(path);
    const TensorFormat* format = formatForExtension(ext, true);
    if (!format)
        throw TensorFileError(path, "unknown output extension '" + ext + "' (use " + extensionList(true) + ")");
    if (format->onlyOneTensor && tensors.size() != 1)
        throw TensorFileError(path, ext + " holds exactly one tensor, the input has " + std::to_string(tensors.size()));

    // Temporary name in the same directory, so the rename is atomic.
    std::random_device rd;
    std::string tmp = path + ".tmp-" + std::to_string(rd());
    try {
        format->write(tensors, tmp);
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
