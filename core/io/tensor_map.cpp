#include "core/io/tensor_map.h"

namespace irscope::io {

void TensorMap::insert(std::string name, at::Tensor tensor, std::string source) {
    if (auto it = byName_.find(name); it != byName_.end()) {
        entries_[it->second].tensor = std::move(tensor);
        entries_[it->second].source = std::move(source);
        return;
    }
    byName_.emplace(name, entries_.size());
    entries_.push_back({std::move(name), std::move(tensor), std::move(source)});
}

const NamedTensor* TensorMap::entry(const std::string& name) const {
    auto it = byName_.find(name);
    return it == byName_.end() ? nullptr : &entries_[it->second];
}

const at::Tensor* TensorMap::find(const std::string& name) const {
    const NamedTensor* e = entry(name);
    return e ? &e->tensor : nullptr;
}

const SubclassTensor* TensorMap::subclass(const std::string& name) const {
    for (const auto& s : subclasses_)
        if (s.name == name) return &s;
    return nullptr;
}

}  // namespace irscope::io
