#pragma once
// The index of a sharded Hugging Face checkpoint
// (model.safetensors.index.json, pytorch_model.bin.index.json):
//   {"metadata": {"total_size": N}, "weight_map": {"tensor name": "shard file", ...}}
// parsed and checked, and the names huggingface_hub gives shards. No
// libtorch: fuzzable alone.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace irscope::io {

struct ShardIndex {
    std::vector<std::pair<std::string, std::string>> weightMap;  // tensor name -> shard file, sorted by name
    std::vector<std::string> shards;                             // distinct shard files, in order of first mention
    std::optional<uint64_t> totalSize;                           // metadata.total_size
};

// Throws FormatError: not JSON, no weight_map object, a shard that is not a
// string, or a shard path that is absolute or leaves the index's directory.
ShardIndex parseShardIndex(std::string_view json);

// Whether a file name is a shard index ("*.index.json").
bool isShardIndexName(std::string_view fileName);

// "model-00002-of-00005.safetensors" for shard 2 of 5 with stem "model" and
// extension ".safetensors", as huggingface_hub names them.
std::string shardFileName(const std::string& stem, size_t shard, size_t count, const std::string& extension);

}  // namespace irscope::io
