#pragma once
// `irscope convert`: one tensor file rewritten in another format, torch-free
// for the CLI. Values and dtypes are kept bit for bit.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/io/catalog/read_options.h"

namespace irscope::io {

// Reads `in` (any readable format, checksums verified) and writes `out` by its
// extension. Returns the number of tensors written. Throws TensorFileError.
size_t convertTensorFile(const std::string& in, const std::string& out, const ReadOptions& options = {});

// Reads `in` likewise and writes it into the directory `out` as a sharded
// Hugging Face checkpoint (sharded_writer.h). `pytorchShards`: .bin shards
// instead of .safetensors. Returns the files written. Throws TensorFileError.
std::vector<std::string> convertToShards(const std::string& in, const std::string& out, uint64_t maxShardBytes,
                                         bool pytorchShards, const ReadOptions& options = {});

}  // namespace irscope::io
