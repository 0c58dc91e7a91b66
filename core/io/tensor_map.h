#pragma once
// TensorMap: named tensors read from a file (or several), in file order,
// remembering where each came from. The currency between core/io, core/exec
// and the GUI.
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <ATen/core/Tensor.h>

namespace irscope::io {

struct NamedTensor {
    std::string name;
    at::Tensor tensor;
    std::string source;  // file the tensor was read from ("" when made in memory)
};

// A tensor the file holds but libtorch 1.13 cannot (float8, uint16, ...).
// Kept so that listings show it and writers refuse to drop it silently.
struct SkippedTensor {
    std::string name;
    std::string dtype;  // as the file names it, torch spelling where one exists ("float8_e4m3fn")
    std::vector<int64_t> shape;
    std::string reason;  // "dtype float8_e4m3fn is not supported by libtorch 1.13"
    std::string source;
};

struct TensorSubclass;

// A tensor subclass the file holds (torchao's quantized weights,
// catalog/tensor_subclass.h): its inner tensors are in the map under
// "<name>.<part>"; its own value is rebuilt from them by whoever runs it.
struct SubclassTensor {
    std::string name;
    std::shared_ptr<const TensorSubclass> layout;
    std::string dtype;  // the outer tensor's, as the model sees it
    std::vector<int64_t> shape;
    std::string source;
};

class TensorMap {
public:
    void insert(std::string name, at::Tensor tensor, std::string source = {});  // replaces an existing name
    const at::Tensor* find(const std::string& name) const;
    const NamedTensor* entry(const std::string& name) const;
    bool contains(const std::string& name) const { return byName_.count(name) != 0; }
    size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    const std::vector<NamedTensor>& entries() const { return entries_; }
    auto begin() const { return entries_.begin(); }
    auto end() const { return entries_.end(); }

    void addSkipped(SkippedTensor skipped) { skipped_.push_back(std::move(skipped)); }
    const std::vector<SkippedTensor>& skipped() const { return skipped_; }

    void addSubclass(SubclassTensor subclass) { subclasses_.push_back(std::move(subclass)); }
    const std::vector<SubclassTensor>& subclasses() const { return subclasses_; }
    const SubclassTensor* subclass(const std::string& name) const;

private:
    std::vector<NamedTensor> entries_;
    std::unordered_map<std::string, size_t> byName_;
    std::vector<SkippedTensor> skipped_;
    std::vector<SubclassTensor> subclasses_;
};

}  // namespace irscope::io
