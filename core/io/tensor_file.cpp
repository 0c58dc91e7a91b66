#include "core/io/tensor_file.h"

#include <filesystem>
#include <random>

#include "core/io/catalog/tensor_format.h"
#include "core/io/tensor_materialize.h"
#include "core/io/tensor_writer.h"

namespace irscope::io {

namespace fs = std::filesystem;

namespace {

// "the formats irscope writes": for messages, from the registry.
std::string writableExtensions() {
    std::string list;
    for (const TensorWriter& w : tensorWriters())
        for (const std::string& ext : w.extensions) list += (list.empty() ? "" : ", ") + ext;
    return list;
}

}  // namespace

TensorMap readTensorFile(const std::string& path, const ReadOptions& options) {
    const TensorCatalog catalog = describeTensorFile(path, options);
    TensorMap map = materialize(catalog, options);
    for (const auto& file : catalog.files) file->closeDescriptor();  // tensors keep the mapping, not the descriptor
    return map;
}

void writeTensorFile(const TensorMap& tensors, const std::string& path) {
    if (!tensors.skipped().empty()) {
        const SkippedTensor& s = tensors.skipped().front();
        throw TensorFileError(path, "tensor '" + s.name + "' (" + s.dtype + ") could not be read (" + s.reason +
                                        "); refusing to write a file without it");
    }
    const std::string ext = lowerExtension(path);
    const TensorWriter* format = writerForExtension(ext);
    if (!format)
        throw TensorFileError(path, "unknown output extension '" + ext + "' (use " + writableExtensions() + ")");
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
