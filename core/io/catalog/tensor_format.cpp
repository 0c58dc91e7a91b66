#include "core/io/catalog/tensor_format.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace irscope::io {

namespace {

// Function-local, so it exists before the first format file's initializer runs.
std::vector<TensorFormat>& registry() {
    static std::vector<TensorFormat> formats;
    return formats;
}

}  // namespace

bool registerTensorFormat(TensorFormat format) {
    auto& formats = registry();
    formats.push_back(std::move(format));
    std::stable_sort(formats.begin(), formats.end(), [](const TensorFormat& a, const TensorFormat& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.name < b.name;
    });
    return true;
}

const std::vector<TensorFormat>& tensorFormats() { return registry(); }

const TensorFormat* claimingFormat(const TensorFileSource& source) {
    for (const TensorFormat& f : registry())
        if (f.claims && f.claims(source)) return &f;
    return nullptr;
}

const TensorFormat* formatForExtension(const std::string& ext) {
    for (const TensorFormat& f : registry()) {
        if (std::find(f.extensions.begin(), f.extensions.end(), ext) != f.extensions.end()) return &f;
    }
    return nullptr;
}

std::string lowerExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

}  // namespace irscope::io
