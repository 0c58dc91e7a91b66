// NumPy's .npy (one tensor, named after the file's stem) and a directory of
// them (one tensor per file).
#include <filesystem>

#include "core/io/npy_file.h"
#include "core/io/npy_header.h"
#include "core/io/tensor_file_error.h"
#include "core/io/tensor_format.h"

namespace irscope::io {
namespace {

namespace fs = std::filesystem;

TensorMap readOne(const TensorFileSource& s, const ReadOptions& options) {
    if (!options.select.empty()) throw TensorFileError(s.path, "an .npy file has one tensor: nothing to select");
    return readNpy(s.file, options);
}

bool holdsNpyFiles(const TensorFileSource& s) {
    if (!s.isDirectory()) return false;
    std::error_code ec;
    for (fs::directory_iterator it(s.path, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".npy") return true;
    return false;
}

const bool fileRegistered = registerTensorFormat({
    .name = "npy",
    .rank = 20,
    .claims = [](const TensorFileSource& s) { return !s.isDirectory() && looksLikeNpy(s.bytes()); },
    .extensions = {".npy"},
    .read = readOne,
    .write = [](const TensorMap& tensors,
                const std::string& path) { writeNpy(tensors.entries().front().tensor, path); },
    .onlyOneTensor = true,
});

const bool directoryRegistered = registerTensorFormat({
    .name = "directory of npy",
    .rank = 50,
    .claims = holdsNpyFiles,
    .extensions = {},
    .read = [](const TensorFileSource& s, const ReadOptions& o) { return readNpyDirectory(s.path, o); },
});

}  // namespace
}  // namespace irscope::io
