// A sharded Hugging Face checkpoint: an index (model.safetensors.index.json,
// pytorch_model.bin.index.json) naming the shard of every tensor, or a
// directory of shards. Each shard is described as the file it is (only
// headers and pickles are read here; the data stays in the mappings), and
// the shards are held to the index: a shard that does not exist, a shard that lacks a tensor the
// index promises, or one name in two shards is an error naming the files.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "core/io/catalog/shard_index.h"
#include "core/io/catalog/tensor_catalog.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/catalog/tensor_format.h"
#include "core/ir/natural_order.h"

namespace irscope::io {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> filesIn(const fs::path& dir, auto&& keep) {
    std::vector<fs::path> found;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (keep(it->path())) found.push_back(it->path());
    if (ec) throw TensorFileError(dir.string(), "cannot list directory: " + ec.message());
    // Natural order, so an unpadded model-2-of-10 comes before model-10-of-10.
    std::sort(found.begin(), found.end(), [](const fs::path& a, const fs::path& b) {
        return ir::naturalLess(a.filename().string(), b.filename().string());
    });
    return found;
}

bool isIndex(const fs::path& p) { return isShardIndexName(p.filename().string()); }
bool isSafetensors(const fs::path& p) { return p.extension() == ".safetensors"; }
bool isTorchShard(const fs::path& p) {
    return p.extension() == ".bin" || p.extension() == ".pt" || p.extension() == ".pth";
}

// The index a repository directory holds: the safetensors one first (a
// repository often has both, the .bin one being the older upload).
std::optional<fs::path> indexIn(const fs::path& dir) {
    std::vector<fs::path> indices = filesIn(dir, isIndex);
    for (const auto& p : indices)
        if (p.filename().string().find(".safetensors.") != std::string::npos) return p;
    if (!indices.empty()) return indices.front();
    return std::nullopt;
}

bool claims(const TensorFileSource& s) {
    if (!s.isDirectory()) {
        std::string_view b = s.bytes();
        while (!b.empty() && std::isspace(static_cast<unsigned char>(b.front()))) b.remove_prefix(1);
        return isShardIndexName(fs::path(s.path).filename().string()) && !b.empty() && b.front() == '{';
    }
    std::error_code ec;
    for (fs::directory_iterator it(s.path, ec), end; !ec && it != end; it.increment(ec))
        if (isIndex(it->path()) || isSafetensors(it->path())) return true;
    return false;
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw TensorFileError(path, "cannot open");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Describes the shards into one catalog; `where` names the index or directory in errors.
class ShardMerger {
public:
    ShardMerger(std::string where, const ReadOptions& options)
        : where_(std::move(where)), verify_(options.verifyChecksums) {}
    // `name`: the shard as the index names it (its file name without an index).
    void add(const fs::path& shard, const std::string& name) {
        TensorCatalog one =
            describeTensorFile(shard.string(), {.select = {}, .verifyChecksums = verify_, .progress = {}});
        for (const TensorRecord& r : one.records) {
            auto [it, fresh] = owner_.emplace(r.name, name);
            if (!fresh)
                throw TensorFileError(where_, "'" + r.name + "' is in two shards, " + it->second + " and " + name);
        }
        merged.append(std::move(one));
    }
    // The shard holding `name`; "" when none does.
    const std::string& ownerOf(const std::string& name) const {
        static const std::string none;
        auto it = owner_.find(name);
        return it == owner_.end() ? none : it->second;
    }
    TensorCatalog merged;

private:
    std::string where_;
    bool verify_;
    std::unordered_map<std::string, std::string> owner_;
};

TensorCatalog describeIndexed(const fs::path& indexPath, ShardMerger& merger) {
    ShardIndex index;
    try {
        index = parseShardIndex(readText(indexPath.string()));
    } catch (const FormatError& e) {
        throw TensorFileError(indexPath.string(), e.what());
    }
    const fs::path dir = indexPath.parent_path();
    std::vector<std::string> shards = index.shards;
    std::sort(shards.begin(), shards.end(), ir::naturalLess);
    for (const std::string& shard : shards) {
        const fs::path path = dir / shard;
        std::error_code ec;
        if (!fs::is_regular_file(path, ec)) {
            const auto first = std::find_if(index.weightMap.begin(), index.weightMap.end(),
                                            [&](const auto& kv) { return kv.second == shard; });
            throw TensorFileError(indexPath.string(),
                                  "shard '" + shard + "' does not exist (the index puts '" + first->first + "' there)");
        }
        merger.add(path, shard);
    }
    for (const auto& [name, shard] : index.weightMap) {
        const std::string& owner = merger.ownerOf(name);
        if (owner.empty())
            throw TensorFileError((dir / shard).string(), "has no tensor '" + name + "', which " +
                                                              indexPath.filename().string() + " puts there");
        if (owner != shard)
            throw TensorFileError(indexPath.string(), "puts '" + name + "' in " + shard + ", but it is in " + owner);
    }
    return std::move(merger.merged);
}

// A select of a sharded checkpoint is a name prefix ("model." -> strip it).
TensorCatalog selectPrefix(TensorCatalog all, const std::string& select, const std::string& where) {
    if (select.empty()) return all;
    const std::string prefix = select + ".";
    std::vector<TensorRecord> picked;
    for (TensorRecord& r : all.records)
        if (r.name.compare(0, prefix.size(), prefix) == 0) {
            r.name.erase(0, prefix.size());
            picked.push_back(std::move(r));
        }
    if (picked.empty()) throw TensorFileError(where, "no tensor name starts with '" + prefix + "' (select)");
    all.records = std::move(picked);
    return all;
}

TensorCatalog describeShardedCheckpoint(const TensorFileSource& s, const ReadOptions& options) {
    ShardMerger merger(s.path, options);
    TensorCatalog all;
    if (!s.isDirectory()) {
        all = describeIndexed(s.path, merger);
    } else if (auto index = indexIn(s.path)) {
        all = describeIndexed(*index, merger);
    } else {
        std::vector<fs::path> shards = filesIn(s.path, isSafetensors);
        if (shards.empty()) shards = filesIn(s.path, isTorchShard);
        for (const auto& shard : shards) merger.add(shard, shard.filename().string());
        all = std::move(merger.merged);
    }
    return selectPrefix(std::move(all), options.select, s.path);
}

const bool shardedCheckpointFormatRegistered = registerTensorFormat({
    .name = "sharded checkpoint",
    .rank = 45,
    .claims = claims,
    .extensions = {},
    .describe = describeShardedCheckpoint,
});

}  // namespace
}  // namespace irscope::io
