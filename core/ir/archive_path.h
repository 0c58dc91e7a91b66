#pragma once
// "model.pt2#encoder": one program of a torch.export archive that holds
// several (torch.export's package API writes one models/<name>.json each).
// The choice travels with the path, so every place that takes an IR path
// takes it unchanged: each CLI command, `diff a.pt2#encoder a.pt2#decoder`,
// the window's recent files, reload, and the weights read from the same
// archive. Only the file part is ever opened.
#include <string>

namespace irscope::ir {

struct ArchivePath {
    std::string file;     // what is opened
    std::string program;  // "" : the archive's own choice ("model", else the first)
};

// Splits at the last '#' when what precedes it names a .pt2 and the whole
// text is not itself an existing file (a file may have '#' in its name).
ArchivePath splitArchivePath(const std::string& path);
// "file#program", or `file` when `program` is empty.
std::string joinArchivePath(const std::string& file, const std::string& program);
// Whether the path (its file part) names a .pt2.
bool isArchivePath(const std::string& path);

}  // namespace irscope::ir
