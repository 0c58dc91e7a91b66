#include "core/io/catalog/shard_index.h"

#include <cstdio>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "core/io/catalog/tensor_file_error.h"

namespace irscope::io {

namespace {

// A shard is a relative path below the index's directory: no absolute path,
// no "..", nothing empty.
void checkShardPath(const std::string& key, const std::string& shard) {
    auto refuse = [&](const char* why) { throw FormatError("weight_map['" + key + "'] is '" + shard + "', " + why); };
    if (shard.empty()) refuse("an empty file name");
    if (shard.front() == '/' || shard.front() == '\\') refuse("an absolute path (shards must lie beside the index)");
    size_t start = 0;
    while (start <= shard.size()) {
        size_t end = shard.find_first_of("/\\", start);
        if (end == std::string::npos) end = shard.size();
        if (shard.compare(start, end - start, "..") == 0) refuse("a path that leaves the index's directory");
        start = end + 1;
    }
}

}  // namespace

ShardIndex parseShardIndex(std::string_view text) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(std::string("not valid JSON: ") + e.what());
    }
    if (!doc.is_object()) throw FormatError("a shard index is a JSON object");
    auto map = doc.find("weight_map");
    if (map == doc.end() || !map->is_object())
        throw FormatError("no \"weight_map\" object (a Hugging Face index maps each tensor name to its shard file)");
    ShardIndex index;
    index.weightMap.reserve(map->size());
    std::unordered_set<std::string> seen;
    for (auto it = map->begin(); it != map->end(); ++it) {
        if (!it.value().is_string())
            throw FormatError("weight_map['" + it.key() + "'] is a " + it.value().type_name() + ", not a file name");
        std::string shard = it.value().get<std::string>();
        checkShardPath(it.key(), shard);
        if (seen.insert(shard).second) index.shards.push_back(shard);
        index.weightMap.emplace_back(it.key(), std::move(shard));
    }
    auto meta = doc.find("metadata");
    if (meta != doc.end() && meta->is_object()) {
        auto total = meta->find("total_size");
        if (total != meta->end() && total->is_number_unsigned()) index.totalSize = total->get<uint64_t>();
    }
    return index;
}

bool isShardIndexName(std::string_view name) {
    constexpr std::string_view suffix = ".index.json";
    return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
}

std::string shardFileName(const std::string& stem, size_t shard, size_t count, const std::string& extension) {
    char numbers[64];
    std::snprintf(numbers, sizeof numbers, "-%05zu-of-%05zu", shard, count);
    return stem + numbers + extension;
}

}  // namespace irscope::io
