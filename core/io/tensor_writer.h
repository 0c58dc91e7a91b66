#pragma once
// The tensor-file formats irscope writes, as a registry (the readers are in
// core/io/catalog/tensor_format.h, torch-free). Each writer is one file in
// core/io/writers/ that registers itself at start-up; writeTensorFile picks
// one by the output's extension.
//
// irscope_io is linked whole-archive (core/CMakeLists.txt), so the linker
// keeps a writer file that no other code names.
#include <string>
#include <vector>

#include "core/io/tensor_map.h"

namespace irscope::io {

struct TensorWriter {
    std::string name;                     // "safetensors", "torch.save (zip)"
    std::vector<std::string> extensions;  // lower case, with the dot
    // Writes `path` itself (the caller handles the temporary name and the
    // rename). Throws TensorFileError.
    void (*write)(const TensorMap& tensors, const std::string& path) = nullptr;
    bool onlyOneTensor = false;  // .npy
};

// Returns true, so a writer file can register with a namespace-scope constant.
bool registerTensorWriter(TensorWriter writer);
// By name.
const std::vector<TensorWriter>& tensorWriters();
// The writer whose extensions include `ext`; null when none.
const TensorWriter* writerForExtension(const std::string& ext);

}  // namespace irscope::io
