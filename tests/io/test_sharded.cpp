// Sharded Hugging Face checkpoints (core/io/catalog/formats/sharded_checkpoint_format.cpp):
// an index or a directory of shards reads as one state_dict, with the values
// PyTorch wrote (mlp_state_dict.pt, split into shards here), and every way the
// shards and the index can disagree is an error naming the files.
#include <filesystem>

#include "core/io/sharded_writer.h"
#include "core/io/tensor_file.h"
#include "tensor_test_util.h"

#include <QtTest/QtTest>

using namespace irscope::io;
using namespace irscope::io::test;
namespace fs = std::filesystem;

class TestSharded : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string repo_;

    std::string path(const std::string& name) const { return repo_ + "/" + name; }

    // Shards mlp_state_dict.pt: the first `split` tensors in shard 1, the rest in shard 2.
    void writeRepo(const std::string& extension, const std::string& indexName, size_t split = 4) {
        fs::remove_all(repo_);
        fs::create_directories(repo_);
        TensorMap all = readTensorFile(fixture("mlp_state_dict.pt"));
        TensorMap parts[2];
        nlohmann::ordered_json map = nlohmann::ordered_json::object();
        for (size_t k = 0; k < all.size(); ++k) {
            const NamedTensor& e = all.entries()[k];
            const size_t shard = k < split ? 0 : 1;
            parts[shard].insert(e.name, e.tensor);
            map[e.name] = shardName(shard, extension);
        }
        for (size_t s = 0; s < 2; ++s) writeTensorFile(parts[s], path(shardName(s, extension)));
        if (!indexName.empty()) writeIndex(indexName, map);
    }
    static std::string shardName(size_t shard, const std::string& extension) {
        return "model-0000" + std::to_string(shard + 1) + "-of-00002" + extension;
    }
    void writeIndex(const std::string& name, const nlohmann::ordered_json& weightMap) {
        nlohmann::ordered_json index{{"metadata", {{"total_size", 1234}}}, {"weight_map", weightMap}};
        writeBytes(path(name), index.dump(2));
    }
    nlohmann::ordered_json indexOf(const std::string& name) {
        return nlohmann::ordered_json::parse(readBytes(path(name)));
    }

    // Reading `what` fails with a message that starts with `file` and says each of `parts`.
    void expectError(const std::string& what, const std::string& file, const QStringList& parts) {
        try {
            readTensorFile(what);
            QFAIL("read");
        } catch (const TensorFileError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(file) + ": "), e.what());
            for (const QString& p : parts) QVERIFY2(QString(e.what()).contains(p), e.what());
        }
    }

private Q_SLOTS:
    void initTestCase() { repo_ = dir_.path().toStdString() + "/repo"; }

    void safetensorsIndexAndDirectory() {
        writeRepo(".safetensors", "model.safetensors.index.json");
        const std::string index = path("model.safetensors.index.json");
        QCOMPARE(detectTensorFileFormat(index), std::string("sharded checkpoint"));
        QCOMPARE(detectTensorFileFormat(repo_), std::string("sharded checkpoint"));
        TensorMap map = readTensorFile(index);
        compareWithExpected(map, "mlp_state_dict.pt");
        QCOMPARE(map.entry("fc1.weight")->source, path("model-00001-of-00002.safetensors"));
        QCOMPARE(map.entry("fc2.bias")->source, path("model-00002-of-00002.safetensors"));
        compareWithExpected(readTensorFile(repo_), "mlp_state_dict.pt");
        // Without the index, the directory's shards in name order.
        fs::remove(index);
        compareWithExpected(readTensorFile(repo_), "mlp_state_dict.pt");
    }

    void torchSaveShards() {
        writeRepo(".bin", "pytorch_model.bin.index.json");
        compareWithExpected(readTensorFile(path("pytorch_model.bin.index.json")), "mlp_state_dict.pt");
        compareWithExpected(readTensorFile(repo_), "mlp_state_dict.pt");
    }

    void selectIsAPrefix() {
        writeRepo(".safetensors", "model.safetensors.index.json");
        ReadOptions options;
        options.select = "fc1";
        TensorMap fc1 = readTensorFile(repo_, options);
        QCOMPARE(fc1.size(), size_t(2));
        QVERIFY(fc1.find("weight") && fc1.find("bias"));
    }

    void missingShard() {
        writeRepo(".safetensors", "model.safetensors.index.json");
        fs::remove(path("model-00002-of-00002.safetensors"));
        expectError(repo_, path("model.safetensors.index.json"),
                    {"model-00002-of-00002.safetensors", "does not exist", "bn.num_batches_tracked"});
    }

    void shardLacksAPromisedTensor() {
        writeRepo(".safetensors", "model.safetensors.index.json");
        auto index = indexOf("model.safetensors.index.json");
        index["weight_map"]["fc3.weight"] = "model-00002-of-00002.safetensors";
        writeIndex("model.safetensors.index.json", index["weight_map"]);
        expectError(repo_, path("model-00002-of-00002.safetensors"), {"fc3.weight", "model.safetensors.index.json"});
    }

    void indexNamesTheWrongShard() {
        writeRepo(".safetensors", "model.safetensors.index.json");
        auto index = indexOf("model.safetensors.index.json");
        index["weight_map"]["fc1.bias"] = "model-00002-of-00002.safetensors";
        writeIndex("model.safetensors.index.json", index["weight_map"]);
        expectError(repo_, path("model.safetensors.index.json"),
                    {"'fc1.bias'", "model-00002-of-00002.safetensors", "model-00001-of-00002.safetensors"});
    }

    void oneNameInTwoShards() {
        writeRepo(".safetensors", "", 4);
        TensorMap extra = readTensorFile(path("model-00002-of-00002.safetensors"));
        extra.insert("fc1.bias", *readTensorFile(fixture("mlp_state_dict.pt")).find("fc1.bias"));
        writeTensorFile(extra, path("model-00002-of-00002.safetensors"));
        expectError(
            repo_, repo_,
            {"'fc1.bias'", "two shards", "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"});
    }

    void shardSizesParseAsHuggingFaceHub() {
        QCOMPARE(parseShardSize("5GB"), std::optional<uint64_t>(5'000'000'000ull));
        QCOMPARE(parseShardSize("500mb"), std::optional<uint64_t>(500'000'000ull));
        QCOMPARE(parseShardSize("2GiB"), std::optional<uint64_t>(2ull << 30));
        QCOMPARE(parseShardSize("1024"), std::optional<uint64_t>(1024));
        for (const char* bad : {"", "0", "0GB", "5XB", "GB", "-5GB", "99999999999999999999"})
            QVERIFY2(!parseShardSize(bad), bad);
    }

    // Byte sizes 40, 40, 100, 8: a tensor goes to a new shard when it would take
    // the current one past the limit; one larger than the limit stands alone.
    void shardPlanFollowsTheLimit() {
        TensorMap map;
        map.insert("a", at::zeros({10}));              // 40 bytes
        map.insert("b", at::zeros({10}));              // 40
        map.insert("c", at::zeros({25}));              // 100
        map.insert("d", at::zeros({1}, at::kDouble));  // 8
        using Shards = std::vector<std::vector<size_t>>;
        QCOMPARE(planShards(map, 100).shards, (Shards{{0, 1}, {2}, {3}}));
        QCOMPARE(planShards(map, 64).shards, (Shards{{0}, {1}, {2}, {3}}));
        QCOMPARE(planShards(map, 1000).shards, (Shards{{0, 1, 2, 3}}));
        QCOMPARE(planShards(map, 100).totalSize, uint64_t(188));
    }

    void writtenShardsReadBack() {
        fs::remove_all(repo_);
        TensorMap all = readTensorFile(fixture("mlp_state_dict.pt"));
        const auto files = writeShardedCheckpoint(all, repo_, 300, ShardFormat::Safetensors);
        QVERIFY(files.size() > 2);
        QCOMPARE(files.back(), path("model.safetensors.index.json"));
        QCOMPARE(files.front(), path("model-00001-of-0000" + std::to_string(files.size() - 1) + ".safetensors"));
        auto index = indexOf("model.safetensors.index.json");
        QCOMPARE(index["weight_map"].size(), all.size());
        compareWithExpected(readTensorFile(files.back()), "mlp_state_dict.pt");
        // Everything in one shard: model.safetensors, no index.
        fs::remove_all(repo_);
        QCOMPARE(writeShardedCheckpoint(all, repo_, 1ull << 30, ShardFormat::TorchSave),
                 std::vector<std::string>{path("pytorch_model.bin")});
        compareWithExpected(readTensorFile(path("pytorch_model.bin")), "mlp_state_dict.pt");
    }

    void hostileIndices_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reason");
        QTest::newRow("not json") << R"({"weight_map": {)"
                                  << "not valid JSON";
        QTest::newRow("no weight_map") << R"({"metadata": {}})"
                                       << "no \"weight_map\"";
        QTest::newRow("shard not a string") << R"({"weight_map": {"a": 3}})"
                                            << "weight_map['a'] is a number";
        QTest::newRow("parent path") << R"({"weight_map": {"a": "../x.safetensors"}})"
                                     << "leaves the index's directory";
        QTest::newRow("absolute path") << R"({"weight_map": {"a": "/etc/passwd"}})"
                                       << "absolute path";
        QTest::newRow("empty name") << R"({"weight_map": {"a": ""}})"
                                    << "empty file name";
    }
    void hostileIndices() {
        QFETCH(QString, text);
        QFETCH(QString, reason);
        fs::remove_all(repo_);
        fs::create_directories(repo_);
        writeBytes(path("model.safetensors.index.json"), text.toStdString());
        expectError(path("model.safetensors.index.json"), path("model.safetensors.index.json"), {reason});
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestSharded)
#include "test_sharded.moc"
