#include "core/io/catalog/tensor_record.h"

namespace irscope::io {

void TensorCatalog::append(TensorCatalog other) {
    const auto base = static_cast<uint32_t>(files.size());
    for (auto& f : other.files) files.push_back(std::move(f));
    records.reserve(records.size() + other.records.size());
    for (auto& r : other.records) {
        r.file += base;
        records.push_back(std::move(r));
    }
}

}  // namespace irscope::io
