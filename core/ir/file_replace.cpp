#include "core/ir/file_replace.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>

namespace irscope::ir {

void replaceFileContents(const std::string& path, std::string_view bytes) {
    std::random_device random;
    const std::string temporary = path + ".irscope-tmp-" + std::to_string(random());
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        if (!file) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
        file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!file.flush()) {
            file.close();
            std::filesystem::remove(temporary);
            throw std::runtime_error(path + ": write failed");
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::filesystem::remove(temporary);
        throw std::runtime_error(path + ": cannot replace: " + ec.message());
    }
}

}  // namespace irscope::ir
