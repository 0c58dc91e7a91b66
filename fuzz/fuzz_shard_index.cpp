// The Hugging Face shard index parser over arbitrary bytes: either a
// FormatError, or an index whose every shard is a relative path that stays in
// the index's directory and whose shard list matches the weight map.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>

#include "core/io/catalog/shard_index.h"
#include "core/io/catalog/tensor_file_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace irscope::io;
    try {
        ShardIndex index = parseShardIndex(std::string_view(reinterpret_cast<const char*>(data), size));
        std::set<std::string> shards(index.shards.begin(), index.shards.end());
        if (shards.size() != index.shards.size()) __builtin_trap();
        for (const auto& [name, shard] : index.weightMap) {
            if (shard.empty() || shard.front() == '/' || !shards.count(shard)) __builtin_trap();
            // No path component is "..".
            size_t start = 0;
            while (start <= shard.size()) {
                size_t end = shard.find_first_of("/\\", start);
                if (end == std::string::npos) end = shard.size();
                if (shard.compare(start, end - start, "..") == 0) __builtin_trap();
                start = end + 1;
            }
        }
    } catch (const FormatError&) {}
    return 0;
}
