#include "core/io/catalog/tensor_catalog.h"

#include <filesystem>

#include "core/io/catalog/mapped_file.h"
#include "core/io/catalog/tensor_format.h"
#include "core/ir/archive_path.h"

namespace irscope::io {

namespace fs = std::filesystem;

namespace {

TensorFileSource openSource(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return {path, {}, nullptr};
    // "model.pt2#encoder": the file is model.pt2, the program its format's to find.
    const ir::ArchivePath parts = ir::splitArchivePath(path);
    return {path, parts.program, MappedFile::open(parts.file)};
}

// "the formats irscope reads": for messages, from the registry.
std::string extensionList() {
    std::string list;
    for (const TensorFormat& f : tensorFormats())
        for (const std::string& ext : f.extensions) list += (list.empty() ? "" : ", ") + ext;
    return list;
}

}  // namespace

std::string detectTensorFileFormat(const std::string& path) {
    const TensorFormat* format = claimingFormat(openSource(path));
    return format ? format->name : "unknown";
}

TensorCatalog describeTensorFile(const std::string& path, const ReadOptions& options) {
    TensorFileSource source = openSource(path);
    if (source.file && source.file->size() == 0) throw TensorFileError(path, "empty file");
    const TensorFormat* format = claimingFormat(source);
    // Content says nothing known; a name that does gets that format's precise complaint.
    if (!format && !source.isDirectory()) format = formatForExtension(lowerExtension(path));
    if (!format) {
        if (source.isDirectory())
            throw TensorFileError(path, "a directory without tensor files irscope reads (" + extensionList() + ")");
        if (source.bytes().substr(0, 4) == "GGUF")
            throw TensorFileError(path, "a GGUF file, which irscope does not read");
        throw TensorFileError(path, "unrecognized format: not a torch.save file (zip or legacy), .safetensors or .npy");
    }
    if (!source.program.empty() && format->name != kPt2FormatName)
        throw TensorFileError(
            path, "'#" + source.program + "' names a program of a torch.export archive, and this is " + format->name);
    TensorCatalog catalog = format->describe(source, options);
    // Headers and pickles are read: their pages need not stay resident (no
    // tensor views the fresh mappings yet). Descriptors stay open for
    // materialize's copies (pread beats page faults); it closes them, as the
    // catalog's end does.
    for (const auto& file : catalog.files) file->dropResidentPages();
    return catalog;
}

}  // namespace irscope::io
