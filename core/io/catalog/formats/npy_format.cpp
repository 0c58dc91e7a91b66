// NumPy's .npy (one tensor, named after the file's stem) and a directory of
// them (one tensor per file, in name order).
#include <algorithm>
#include <filesystem>

#include "core/io/catalog/npy_header.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/catalog/tensor_format.h"
#include "core/io/catalog/tensor_geometry.h"
#include "core/ir/dtype.h"

namespace irscope::io {
namespace {

namespace fs = std::filesystem;

TensorCatalog describeNpy(const std::shared_ptr<MappedFile>& file) {
    TensorCatalog catalog;
    catalog.files.push_back(file);
    try {
        NpyHeader h = parseNpyHeader(file->bytes());
        NpyDType dt = npyDType(h.descr);
        if (!ir::parseDType(dt.torchName)) throw FormatError("npy dtype '" + h.descr + "' is not supported");
        auto numel = checkedNumel(h.shape);
        int64_t nbytes;
        if (!numel || __builtin_mul_overflow(*numel, int64_t(dt.elementSize), &nbytes))
            throw FormatError("npy shape is absurd (element count overflows)");
        const uint64_t available = file->size() - h.dataOffset;
        if (static_cast<uint64_t>(nbytes) > available)
            throw FormatError("truncated: npy data needs " + std::to_string(nbytes) + " bytes, the file has " +
                              std::to_string(available));
        TensorRecord r;
        r.name = fs::path(file->path()).stem().string();
        r.dtype = dt.torchName;
        r.elementSize = dt.elementSize;
        if (h.fortranOrder) {
            // Column-major: strides grow from the first dim.
            std::vector<int64_t> reversed(h.shape.rbegin(), h.shape.rend());
            std::vector<int64_t> rs = contiguousStrides(reversed);
            r.strides.assign(rs.rbegin(), rs.rend());
        }
        r.shape = std::move(h.shape);
        r.storageBegin = h.dataOffset;
        r.storageBytes = static_cast<uint64_t>(nbytes);
        r.bigEndian = dt.bigEndian;
        catalog.records.push_back(std::move(r));
    } catch (const FormatError& e) {
        throw TensorFileError(file->path(), e.what());
    }
    return catalog;
}

TensorCatalog describeOne(const TensorFileSource& s, const ReadOptions& options) {
    if (!options.select.empty()) throw TensorFileError(s.path, "an .npy file has one tensor: nothing to select");
    return describeNpy(s.file);
}

TensorCatalog describeDirectory(const TensorFileSource& s, const ReadOptions&) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(s.path, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".npy" && it->is_regular_file()) files.push_back(it->path());
    if (ec) throw TensorFileError(s.path, "cannot list directory: " + ec.message());
    if (files.empty()) throw TensorFileError(s.path, "a directory without .npy files");
    std::sort(files.begin(), files.end());
    TensorCatalog catalog;
    for (const auto& path : files) {
        auto file = MappedFile::open(path.string());
        file->closeDescriptor();  // thousands of files must not hold a descriptor each
        catalog.append(describeNpy(file));
    }
    return catalog;
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
    .describe = describeOne,
});

const bool directoryRegistered = registerTensorFormat({
    .name = "directory of npy",
    .rank = 50,
    .claims = holdsNpyFiles,
    .extensions = {},
    .describe = describeDirectory,
});

}  // namespace
}  // namespace irscope::io
