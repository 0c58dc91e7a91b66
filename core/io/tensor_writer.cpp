#include "core/io/tensor_writer.h"

#include <algorithm>

namespace irscope::io {

namespace {

// Function-local, so it exists before the first writer file's initializer runs.
std::vector<TensorWriter>& registry() {
    static std::vector<TensorWriter> writers;
    return writers;
}

}  // namespace

bool registerTensorWriter(TensorWriter writer) {
    auto& writers = registry();
    writers.push_back(std::move(writer));
    std::stable_sort(writers.begin(), writers.end(),
                     [](const TensorWriter& a, const TensorWriter& b) { return a.name < b.name; });
    return true;
}

const std::vector<TensorWriter>& tensorWriters() { return registry(); }

const TensorWriter* writerForExtension(const std::string& ext) {
    for (const TensorWriter& w : registry())
        if (std::find(w.extensions.begin(), w.extensions.end(), ext) != w.extensions.end()) return &w;
    return nullptr;
}

}  // namespace irscope::io
