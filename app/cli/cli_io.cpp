#include "cli/cli_io.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/ir/json_io.h"

namespace irscope::cli {

std::optional<ir::Graph> loadGraphOrReport(const std::string& command, const std::string& path) {
    try {
        return ir::loadGraphFile(path);
    } catch (const std::exception& e) {
        std::cerr << "irscope " << command << ": " << e.what() << "\n";
        return std::nullopt;
    }
}

bool writeOutput(const std::string& command, const std::optional<std::string>& outputPath, const std::string& text) {
    if (!outputPath || *outputPath == "-") {
        std::cout << text;
        std::cout.flush();
        return static_cast<bool>(std::cout);
    }
    const std::string temporary = *outputPath + ".irscope-tmp";
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        if (!file) {
            std::cerr << "irscope " << command << ": " << *outputPath << ": cannot write: " << std::strerror(errno)
                      << "\n";
            return false;
        }
        file << text;
        if (!file.flush()) {
            std::cerr << "irscope " << command << ": " << *outputPath << ": write failed\n";
            std::filesystem::remove(temporary);
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, *outputPath, ec);
    if (ec) {
        std::cerr << "irscope " << command << ": " << *outputPath << ": " << ec.message() << "\n";
        std::filesystem::remove(temporary, ec);
        return false;
    }
    return true;
}

}  // namespace irscope::cli
