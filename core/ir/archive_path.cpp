#include "core/ir/archive_path.h"

#include <cctype>
#include <filesystem>

namespace irscope::ir {
namespace {

bool endsWithPt2(const std::string& s) {
    if (s.size() < 4) return false;
    std::string tail = s.substr(s.size() - 4);
    for (char& c : tail) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return tail == ".pt2";
}

}  // namespace

ArchivePath splitArchivePath(const std::string& path) {
    const auto hash = path.rfind('#');
    if (hash == std::string::npos || hash + 1 == path.size()) return {path, {}};
    std::string file = path.substr(0, hash);
    std::string program = path.substr(hash + 1);
    if (!endsWithPt2(file) || program.find('/') != std::string::npos) return {path, {}};
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) return {path, {}};
    return {std::move(file), std::move(program)};
}

std::string joinArchivePath(const std::string& file, const std::string& program) {
    return program.empty() ? file : file + "#" + program;
}

bool isArchivePath(const std::string& path) { return endsWithPt2(splitArchivePath(path).file); }

}  // namespace irscope::ir
