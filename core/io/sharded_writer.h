#pragma once
// Writing a state_dict as a sharded Hugging Face checkpoint, the way
// huggingface_hub's split_torch_state_dict_into_shards and save_torch_state_dict
// do: tensors in order, a new shard when the next tensor would take the
// current one past the limit (a tensor larger than the limit gets a shard of
// its own), files named model-0000K-of-0000N.safetensors (or
// pytorch_model-0000K-of-0000N.bin) and an index
// {"metadata": {"total_size": N}, "weight_map": {name: file}} beside them;
// a single shard is written as model.safetensors with no index.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/io/tensor_map.h"

namespace irscope::io {

struct ShardPlan {
    std::vector<std::vector<size_t>> shards;  // entry indices of the map, per shard
    uint64_t totalSize = 0;                   // bytes of every tensor, as metadata.total_size
};

// Splits by byte size (numel x element size of each tensor). Pure.
ShardPlan planShards(const TensorMap& tensors, uint64_t maxShardBytes);

// "5GB" (10^9), "500MB", "2GiB" (2^30), "1024" (bytes) as huggingface_hub
// parses max_shard_size; nullopt when malformed or zero.
std::optional<uint64_t> parseShardSize(const std::string& text);

enum class ShardFormat { Safetensors, TorchSave };

// Writes the shards and the index into `directory` (made when missing), each
// file atomically. Returns the files written, index last. Throws TensorFileError.
std::vector<std::string> writeShardedCheckpoint(const TensorMap& tensors, const std::string& directory,
                                                uint64_t maxShardBytes, ShardFormat format);

}  // namespace irscope::io
