#pragma once
// The tensor-file formats irscope reads, as a registry. Each format is one
// file in core/io/catalog/formats/ that registers a TensorFormat at start-up;
// describeTensorFile asks them in rank order which one a path is. A new kind
// of value source (another file format, a sharded checkpoint, a directory
// layout) is therefore one new file, and nothing else changes. A format only
// describes (torch-free); core/io/tensor_materialize makes the tensors, and
// the writers register apart (core/io/tensor_writer.h).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/catalog/mapped_file.h"
#include "core/io/catalog/read_options.h"
#include "core/io/catalog/tensor_record.h"

namespace irscope::io {

// What a format is shown: the path, and its mapping when it is a file.
struct TensorFileSource {
    std::string path;                  // as given, for messages ("model.pt2#encoder")
    std::string program;               // an archive's program, from "model.pt2#encoder"; "" : its default
    std::shared_ptr<MappedFile> file;  // null for a directory
    bool isDirectory() const { return !file; }
    std::string_view bytes() const { return file ? file->bytes() : std::string_view(); }
};

// The name the .pt2 format registers under (the one format that reads "#program").
inline constexpr const char* kPt2FormatName = "torch.export archive (.pt2)";

struct TensorFormat {
    std::string name;  // "safetensors", "torch.save (zip)": what `tensors` prints
    int rank = 100;    // asked in this order (lower first)
    // By content (or, for a directory, by what it holds); the extension is not asked.
    bool (*claims)(const TensorFileSource& source) = nullptr;
    // Lower-case extensions (".safetensors"). A file whose content no format
    // claims is read by the format its name says, for that format's precise
    // complaint.
    std::vector<std::string> extensions;
    // Throws TensorFileError naming the file.
    TensorCatalog (*describe)(const TensorFileSource& source, const ReadOptions& options) = nullptr;
};

// Returns true, so a format file can register with a namespace-scope constant.
bool registerTensorFormat(TensorFormat format);
// By rank, then name.
const std::vector<TensorFormat>& tensorFormats();
// The format that claims the source by content; null when none does.
const TensorFormat* claimingFormat(const TensorFileSource& source);
// The format whose extensions include `ext` (lower case, with the dot); null when none.
const TensorFormat* formatForExtension(const std::string& ext);
// A path's extension in lower case, with the dot: what the registries key on.
std::string lowerExtension(const std::string& path);

}  // namespace irscope::io
