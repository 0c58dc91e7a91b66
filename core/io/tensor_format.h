#pragma once
// The tensor-file formats irscope reads (and writes), as a registry. Each
// format is one file in core/io/formats/ that registers a TensorFormat at
// start-up; readTensorFile asks them in rank order which one a path is. A new
// kind of value source (another file format, a sharded checkpoint, a
// directory layout) is therefore one new file, and nothing else changes.
//
// irscope_io is linked whole-archive (core/CMakeLists.txt), so the linker
// keeps a format file that no other code names.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/mapped_file.h"
#include "core/io/read_options.h"
#include "core/io/tensor_map.h"

namespace irscope::io {

// What a format is shown: the path, and its mapping when it is a file.
struct TensorFileSource {
    std::string path;
    std::shared_ptr<MappedFile> file;  // null for a directory
    bool isDirectory() const { return !file; }
    std::string_view bytes() const { return file ? file->bytes() : std::string_view(); }
};

struct TensorFormat {
    std::string name;  // "safetensors", "torch.save (zip)": what `tensors` prints
    int rank = 100;    // asked in this order (lower first)
    // By content (or, for a directory, by what it holds); the extension is not asked.
    bool (*claims)(const TensorFileSource& source) = nullptr;
    // Lower-case extensions (".safetensors"). A file whose content no format
    // claims is read by the format its name says, for that format's precise
    // complaint; writeTensorFile picks the writer by them.
    std::vector<std::string> extensions;
    // Throws TensorFileError naming the file.
    TensorMap (*read)(const TensorFileSource& source, const ReadOptions& options) = nullptr;
    // Null when the format is read-only. Writes `path` itself (the caller
    // handles the temporary name and the rename).
    void (*write)(const TensorMap& tensors, const std::string& path) = nullptr;
    bool onlyOneTensor = false;  // .npy
};

// Returns true, so a format file can register with a namespace-scope constant.
bool registerTensorFormat(TensorFormat format);
// By rank, then name.
const std::vector<TensorFormat>& tensorFormats();
// The format that claims the source by content; null when none does.
const TensorFormat* claimingFormat(const TensorFileSource& source);
// The format whose extensions include `ext` (lower case, with the dot); null when none.
const TensorFormat* formatForExtension(const std::string& ext, bool needsWriter);

}  // namespace irscope::io
