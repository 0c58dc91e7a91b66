#include "core/io/tensor_convert.h"

#include "core/io/sharded_writer.h"
#include "core/io/tensor_file.h"

namespace irscope::io {

size_t convertTensorFile(const std::string& in, const std::string& out, const ReadOptions& options) {
    ReadOptions checked = options;
    checked.verifyChecksums = true;
    TensorMap map = readTensorFile(in, checked);
    writeTensorFile(map, out);
    return map.size();
}

std::vector<std::string> convertToShards(const std::string& in, const std::string& out, uint64_t maxShardBytes,
                                         bool pytorchShards, const ReadOptions& options) {
    ReadOptions checked = options;
    checked.verifyChecksums = true;
    const TensorMap map = readTensorFile(in, checked);
    return writeShardedCheckpoint(map, out, maxShardBytes,
                                  pytorchShards ? ShardFormat::TorchSave : ShardFormat::Safetensors);
}

}  // namespace irscope::io
