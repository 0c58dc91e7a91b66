#include "core/io/sharded_writer.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include <nlohmann/json.hpp>

#include "core/io/catalog/shard_index.h"
#include "core/io/tensor_file.h"

namespace irscope::io {

namespace fs = std::filesystem;

ShardPlan planShards(const TensorMap& tensors, uint64_t maxShardBytes) {
    ShardPlan plan;
    uint64_t current = 0;
    for (size_t k = 0; k < tensors.size(); ++k) {
        const at::Tensor& t = tensors.entries()[k].tensor;
        const uint64_t bytes = static_cast<uint64_t>(t.numel()) * t.element_size();
        if (plan.shards.empty() || (current > 0 && current + bytes > maxShardBytes)) {
            plan.shards.emplace_back();
            current = 0;
        }
        plan.shards.back().push_back(k);
        current += bytes;
        plan.totalSize += bytes;
    }
    return plan;
}

std::optional<uint64_t> parseShardSize(const std::string& text) {
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
    if (digits == 0 || digits > 15) return std::nullopt;
    const uint64_t number = std::stoull(text.substr(0, digits));
    std::string unit = text.substr(digits);
    for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    static const std::map<std::string, uint64_t> units{
        {"", 1},
        {"B", 1},
        {"KB", 1000ull},
        {"MB", 1000ull * 1000},
        {"GB", 1000ull * 1000 * 1000},
        {"TB", 1000ull * 1000 * 1000 * 1000},
        {"KIB", 1ull << 10},
        {"MIB", 1ull << 20},
        {"GIB", 1ull << 30},
        {"TIB", 1ull << 40},
    };
    auto it = units.find(unit);
    if (it == units.end() || number == 0) return std::nullopt;
    uint64_t bytes;
    if (__builtin_mul_overflow(number, it->second, &bytes)) return std::nullopt;
    return bytes;
}

namespace {

void writeIndexFile(const std::string& path, const nlohmann::ordered_json& index) {
    std::random_device rd;
    const std::string tmp = path + ".tmp-" + std::to_string(rd());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw TensorFileError(path, "cannot open for writing");
        out << index.dump(2) << "\n";
        if (!out) throw TensorFileError(path, "cannot write");
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw TensorFileError(path, "cannot rename the finished file into place");
    }
}

}  // namespace

std::vector<std::string> writeShardedCheckpoint(const TensorMap& tensors, const std::string& directory,
                                                uint64_t maxShardBytes, ShardFormat format) {
    if (!tensors.skipped().empty()) {
        const SkippedTensor& s = tensors.skipped().front();
        throw TensorFileError(directory, "tensor '" + s.name + "' (" + s.dtype + ") could not be read (" + s.reason +
                                             "); refusing to write shards without it");
    }
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec || !fs::is_directory(directory)) throw TensorFileError(directory, "cannot make the output directory");
    const bool safetensors = format == ShardFormat::Safetensors;
    const std::string stem = safetensors ? "model" : "pytorch_model";
    const std::string ext = safetensors ? ".safetensors" : ".bin";
    const ShardPlan plan = planShards(tensors, maxShardBytes);
    std::vector<std::string> written;
    if (plan.shards.size() <= 1) {
        written.push_back((fs::path(directory) / (stem + ext)).string());
        writeTensorFile(tensors, written.back());
        return written;
    }
    // The index maps names in sorted order, as huggingface_hub writes it.
    std::map<std::string, std::string> weightMap;
    for (size_t s = 0; s < plan.shards.size(); ++s) {
        const std::string name = shardFileName(stem, s + 1, plan.shards.size(), ext);
        TensorMap shard;
        for (size_t k : plan.shards[s]) {
            const NamedTensor& e = tensors.entries()[k];
            shard.insert(e.name, e.tensor, e.source);
            weightMap[e.name] = name;
        }
        written.push_back((fs::path(directory) / name).string());
        writeTensorFile(shard, written.back());
    }
    nlohmann::ordered_json index;
    index["metadata"] = {{"total_size", plan.totalSize}};
    index["weight_map"] = nlohmann::ordered_json::object();
    for (const auto& [key, file] : weightMap) index["weight_map"][key] = file;
    written.push_back((fs::path(directory) / (stem + ext + ".index.json")).string());
    writeIndexFile(written.back(), index);
    return written;
}

}  // namespace irscope::io
