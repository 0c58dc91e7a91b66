// Loading and saving torch_ir JSON: seed files read field by field, Python's
// non-standard tokens, hostile inputs (truncation, nesting, encoding), and
// load -> save -> load round trips.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "core/ir/json_io.h"
#include "test_support.h"

using namespace irscope;
using irscope::test::dataPath;
using irscope::test::readFile;

class TestJsonIo : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void loadsMaskedLinearSeed() {
        const auto g = ir::loadGraphFile(dataPath("seeds/MaskedLinear.json"));
        QCOMPARE(g.modelName, std::string("MaskedLinear"));
        QCOMPARE(g.pytorchVersion, std::string(""));  // absent key -> empty, as torch_ir
        QCOMPARE(g.graphInputs.size(), size_t(1));
        QCOMPARE(g.graphInputs[0].shape, (ir::Shape{1, 4}));
        QCOMPARE(g.weights.size(), size_t(3));
        QCOMPARE(g.weightNameMapping.size(), size_t(3));
        QCOMPARE(g.weightNameMapping[2].first, std::string("c_mask"));
        QCOMPARE(g.weightNameMapping[2].second, std::string("mask"));
        QCOMPARE(g.nodes.size(), size_t(2));
        const auto& mul = g.nodes[1];
        QCOMPARE(mul.opType, std::string("aten.mul.Tensor"));
        QCOMPARE(mul.shortOpName(), std::string("mul.Tensor"));
        QCOMPARE(*mul.inputs[0].producerNode, std::string("linear"));
        QVERIFY(!mul.inputs[1].producerNode.has_value());
        QCOMPARE(g.constants.size(), size_t(1));
        const auto& mask = g.constants[0].second;
        QVERIFY(mask.usable());
        QCOMPARE(mask.shape, (ir::Sizes{4}));
        const float expected[] = {1.0f, 0.0f, 1.0f, 0.0f};
        QCOMPARE(mask.bytes.size(), sizeof expected);
        QVERIFY(std::memcmp(mask.bytes.data(), expected, sizeof expected) == 0);
    }

    void loadsIntegerConstantsAndAbsentAttrs() {
        const auto g = ir::loadGraphFile(dataPath("seeds/GatherWithIndex.json"));
        const auto& indices = g.constants.at(0).second;
        QCOMPARE(indices.dtype, std::string("int64"));
        const int64_t expected[] = {0, 2, 4, 6};
        QCOMPARE(indices.bytes.size(), sizeof expected);
        QVERIFY(std::memcmp(indices.bytes.data(), expected, sizeof expected) == 0);
        QVERIFY(g.nodes[0].attrs.is_object() && g.nodes[0].attrs.empty());  // "attrs" absent in the file
    }

    void documentationSnippetNamesMissingKey() {
        // pytorch-ir's docs show BufferVsConstant without graph_inputs/outputs/weights.
        try {
            ir::loadGraphFile(dataPath("seeds/BufferVsConstant.json"));
            QFAIL("expected a LoadError");
        } catch (const ir::LoadError& e) {
            QVERIFY2(std::string(e.what()).find("missing required key 'graph_inputs'") != std::string::npos, e.what());
            QVERIFY(e.file().find("BufferVsConstant.json") != std::string::npos);
        }
    }

    void acceptsPythonTokensBomAndAnyAttrShape() {
        const std::string text =
            "\xEF\xBB\xBF{\"graph_inputs\": [], \"graph_outputs\": [], \"weights\": [],"
            " \"nodes\": [{\"name\": \"f\", \"op_type\": \"aten.full.default\", \"inputs\": [],"
            " \"outputs\": [{\"name\": \"f\", \"shape\": [2]}],"
            " \"attrs\": {\"fill_value\": -Infinity, \"other\": NaN, \"hi\": Infinity, \"size\": [2],"
            " \"nested\": {\"a\": [null, true, \"s\", 1.5e300]}, \"unicode\": \"\\u00e9\\ud83d\\ude00\"}}]}";
        const auto g = ir::parseGraph(text, "inline.json");
        const auto& attrs = g.nodes[0].attrs;
        QVERIFY(std::isinf(attrs["fill_value"].get<double>()) && attrs["fill_value"].get<double>() < 0);
        QVERIFY(std::isnan(attrs["other"].get<double>()));
        QVERIFY(std::isinf(attrs["hi"].get<double>()));
        QCOMPARE(attrs["size"][0].get<int64_t>(), int64_t(2));
        QVERIFY(attrs["size"][0].is_number_integer());
        QCOMPARE(attrs["nested"]["a"][2].get<std::string>(), std::string("s"));
        QCOMPARE(attrs["unicode"].get<std::string>(), std::string("\xC3\xA9\xF0\x9F\x98\x80"));
        QVERIFY(!g.nodes[0].outputs[0].hasDtype());  // absent dtype is unknown, not an error
        // Key order of attrs is kept (torch_ir's order) for display and saving.
        QCOMPARE(attrs.begin().key(), std::string("fill_value"));
    }

    void syntaxErrorsGiveLineColumnAndPath() {
        const std::string text = "{\n  \"graph_inputs\": [\n    {\"name\": \"x\", \"shape\": [1, oops]}\n  ]\n}";
        try {
            ir::parseGraph(text, "f.json");
            QFAIL("expected a LoadError");
        } catch (const ir::LoadError& e) {
            QCOMPARE(e.line(), int64_t(3));
            QCOMPARE(e.column(), int64_t(32));
            QCOMPARE(e.jsonPath(), std::string("graph_inputs[0].shape[1]"));
            QCOMPARE(std::string(e.what()).substr(0, 11), std::string("f.json:3:32"));
        }
    }

    void everyTruncationFailsCleanly() {
        const std::string text = readFile(dataPath("seeds/MaskedLinear.json"));
        QVERIFY(text.size() > 1000);
        for (size_t length = 0; length < text.size() - 2; ++length) {  // the last bytes are whitespace/brace
            bool threw = false;
            try {
                ir::parseGraph(std::string_view(text).substr(0, length), "t.json");
            } catch (const ir::LoadError&) {
                threw = true;
            }
            if (!threw) QFAIL(qPrintable(QString("prefix of %1 bytes loaded").arg(length)));
        }
    }

    void randomBytesNeverCrash() {
        // A cheap in-test fuzz: mutate a valid file byte by byte; every result
        // either loads or throws LoadError.
        const std::string text = readFile(dataPath("seeds/GatherWithIndex.json"));
        uint32_t state = 12345;
        for (int round = 0; round < 3000; ++round) {
            std::string mutated = text;
            for (int k = 0; k < 3; ++k) {
                state = state * 1664525u + 1013904223u;
                mutated[state % mutated.size()] = static_cast<char>(state >> 24);
            }
            try {
                ir::parseGraph(mutated, "m.json");
            } catch (const ir::LoadError&) {}
        }
    }

    void missingFileAndDirectory() {
        QVERIFY_THROWS_EXCEPTION(ir::LoadError, ir::loadGraphFile(dataPath("no/such/file.json")));
        QVERIFY_THROWS_EXCEPTION(ir::LoadError, ir::loadGraphFile(dataPath("seeds")));
    }

    void progressCanCancel() {
        ir::LoadOptions options;
        int calls = 0;
        options.progress = [&](double) { return ++calls < 1; };
        QVERIFY_THROWS_EXCEPTION(ir::LoadCancelled, ir::loadGraphFile(dataPath("seeds/SimpleMLP.json"), options));
        QVERIFY(calls >= 1);
    }

    void savesExactlyLikePythonJsonDump() {
        // SimpleMLP.json was written by Python's json.dumps(indent=2) in torch_ir's
        // field order: load -> save must give the same bytes.
        const std::string original = readFile(dataPath("seeds/SimpleMLP.json"));
        QCOMPARE(ir::graphToJson(ir::parseGraph(original, "SimpleMLP.json")), original);
    }

    void pythonWrittenFixturesRoundTripByteForByte_data() {
        QTest::addColumn<QString>("path");
        // IRs written by tests/data/make_ir_fixtures.py through json.dump(indent=2).
        const auto dir = dataPath("ir");
        if (!std::filesystem::exists(dir)) return;
        for (const auto& entry : std::filesystem::directory_iterator(dir))
            if (entry.path().extension() == ".json" &&
                readFile(entry.path().string()).find("\"graph_inputs\"") != std::string::npos)
                QTest::newRow(entry.path().filename().c_str()) << QString::fromStdString(entry.path().string());
    }
    void pythonWrittenFixturesRoundTripByteForByte() {
        QFETCH(QString, path);
        const std::string original = readFile(path.toStdString());
        const auto graph = ir::parseGraph(original, path.toStdString());
        const std::string saved = ir::graphToJson(graph);
        // Python's json.dump writes no trailing newline; some writers add one.
        std::string expected = original;
        while (!expected.empty() && expected.back() == '\n') expected.pop_back();
        QCOMPARE(saved, expected);
    }

    void roundTripKeepsEverything() {
        const std::string text =
            "{\"model_name\": \"m\", \"graph_inputs\": [{\"name\": \"x\", \"shape\": [2, 2], \"dtype\": \"float16\"}],"
            " \"graph_outputs\": [], \"weights\": [{\"name\": \"t\", \"shape\": [2, 2], \"dtype\": \"bfloat16\"},"
            " {\"name\": \"b\", \"shape\": [3], \"dtype\": \"bool\"}, {\"name\": \"r\", \"shape\": [2], \"dtype\": "
            "\"int8\"}],"
            " \"weight_name_mapping\": {\"c_t\": \"t\", \"c_b\": \"b\", \"c_r\": \"r\"},"
            " \"nodes\": [{\"name\": \"n\", \"op_type\": \"aten.add.Tensor\", \"inputs\": [{\"name\": \"x\", "
            "\"shape\": [2, 2],"
            " \"dtype\": \"float16\"}], \"outputs\": [{\"name\": \"n\", \"shape\": [2, 2], \"dtype\": \"float16\"}],"
            " \"attrs\": {\"other\": 1e-06, \"alpha\": NaN}}],"
            " \"constants\": {\"t\": {\"data\": [[0.1, -2.5], [65504.0, 1e-08]], \"dtype\": \"bfloat16\"},"
            " \"b\": {\"data\": [true, false, true], \"dtype\": \"bool\"},"
            " \"r\": {\"data\": [[1, 2], [3]], \"dtype\": \"int8\"}}}";
        const auto first = ir::parseGraph(text, "a.json");
        QVERIFY(!first.constants[2].second.usable());  // ragged: kept verbatim, reported by validation
        const std::string saved = ir::graphToJson(first);
        const auto second = ir::parseGraph(saved, "b.json");
        QCOMPARE(ir::graphToJson(second), saved);
        QCOMPARE(second.constants[0].second.bytes, first.constants[0].second.bytes);
        QCOMPARE(second.constants[1].second.bytes, (std::vector<uint8_t>{1, 0, 1}));
        QVERIFY(std::isnan(second.nodes[0].attrs["alpha"].get<double>()));
        QVERIFY(saved.find("\"alpha\": NaN") != std::string::npos);
        QVERIFY(saved.find("\"data\": [\n        [\n          1,") != std::string::npos);
    }

    void saveNeverLeavesAHalfWrittenFile() {
        const auto graph = ir::loadGraphFile(dataPath("seeds/SimpleMLP.json"));
        const auto dir = std::filesystem::temp_directory_path() / "irscope_save_test";
        std::filesystem::create_directories(dir);
        const auto target = (dir / "out.json").string();
        ir::saveGraphFile(graph, target);
        QCOMPARE(readFile(target), readFile(dataPath("seeds/SimpleMLP.json")));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, ir::saveGraphFile(graph, (dir / "missing" / "x.json").string()));
        std::filesystem::remove_all(dir);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestJsonIo)
#include "test_json_io.moc"
