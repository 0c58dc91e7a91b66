// torch.export archives (.pt2) open as the IR pytorch-ir writes for the same
// program. tests/data/real/NAME.pt2 is torch.export.save of the very
// ExportedProgram that pytorch-ir's extract_ir turned into NAME.json
// (make_pt2_archives.py, PyTorch 2.13): for every case the graph read from
// the archive must equal the one read from pytorch-ir's JSON, node for node
// (names, op_types, inputs with their producers, outputs, attrs), with the
// same graph inputs, outputs, weights and placeholder mapping. Expected
// values are pytorch-ir's, not irscope's.
#include <filesystem>
#include <fstream>

#include <ATen/ATen.h>

#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/tensor_file.h"
#include "core/ir/exported_program_reader.h"
#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"
#include "core/modules/module_inference.h"
#include "test_support.h"

#include <QtTest/QtTest>

using namespace irscope;
using irscope::test::dataPath;
namespace fs = std::filesystem;

namespace {

// The graph as JSON without the file's version string (pytorch-ir writes
// torch.__version__ of the exporting machine; the archive says its own).
// Embedded constants are compared: the archive's data/constants become the
// IR's constants, as extract_ir embeds them.
nlohmann::ordered_json structureOf(const ir::Graph& g) {
    // Python's non-finite literals (masked_fill with -inf) as strings, for nlohmann.
    std::string text = ir::graphToJson(g);
    for (const char* literal : {"-Infinity", "Infinity", "NaN"}) {
        const std::string from = std::string(": ") + literal, to = std::string(": \"") + literal + "\"";
        for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
            text.replace(at, from.size(), to);
    }
    auto j = nlohmann::ordered_json::parse(text);
    j.erase("pytorch_version");
    return j;
}

// The first difference between two JSON values, as a path and both sides.
std::string firstDifference(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b, const std::string& at) {
    if (a.type() != b.type() || a.is_primitive()) {
        if (a == b) return "";
        return at + ": archive " + a.dump().substr(0, 300) + " vs pytorch-ir " + b.dump().substr(0, 300);
    }
    if (a.is_array()) {
        if (a.size() != b.size())
            return at + ": " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) + " entries";
        for (size_t i = 0; i < a.size(); ++i)
            if (auto d = firstDifference(a[i], b[i], at + "[" + std::to_string(i) + "]"); !d.empty()) return d;
        return "";
    }
    for (auto it = b.begin(); it != b.end(); ++it)
        if (!a.contains(it.key())) return at + "." + it.key() + ": missing from the archive's graph";
    for (auto it = a.begin(); it != a.end(); ++it) {
        if (!b.contains(it.key())) return at + "." + it.key() + ": not in pytorch-ir's IR";
        if (auto d = firstDifference(it.value(), b[it.key()], at + "." + it.key()); !d.empty()) return d;
    }
    return "";
}

}  // namespace

class TestPt2Archive : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void graphEqualsPytorchIrs_data() {
        QTest::addColumn<QString>("name");
        const fs::path dir = dataPath("real");
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".pt2") names.push_back(e.path().stem().string());
        std::sort(names.begin(), names.end());
        QVERIFY2(names.size() >= 30, "make_pt2_archives.py writes one archive per real export");
        for (const auto& n : names) QTest::newRow(n.c_str()) << QString::fromStdString(n);
    }
    void graphEqualsPytorchIrs() {
        QFETCH(QString, name);
        const std::string base = dataPath("real/" + name.toStdString());
        ir::Graph fromArchive, fromJson;
        try {
            fromArchive = ir::loadGraphFile(base + ".pt2");
            fromJson = ir::loadGraphFile(base + ".json");
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(!fromArchive.nodes.empty());
        const std::string difference = firstDifference(structureOf(fromArchive), structureOf(fromJson), "");
        QVERIFY2(difference.empty(), difference.c_str());
        QCOMPARE(fromArchive.pytorchVersion, std::string("2.13.0+cpu"));
    }

    // The archive's weights are the state_dict PyTorch saved beside it
    // (NAME.weights.pt, torch.save of the module's state_dict): every tensor
    // there, same dtype, shape and values, read from the raw records.
    void weightsEqualTheStateDict_data() { graphEqualsPytorchIrs_data(); }
    void weightsEqualTheStateDict() {
        QFETCH(QString, name);
        const std::string base = dataPath("real/" + name.toStdString());
        if (!fs::exists(base + ".weights.pt")) QSKIP("no state_dict beside this case");
        const io::TensorMap archive = io::readTensorFile(base + ".pt2");
        const io::TensorMap saved = io::readTensorFile(base + ".weights.pt");
        for (const auto& e : saved) {
            const at::Tensor* t = archive.find(e.name);
            QVERIFY2(t, ("not in the archive: " + e.name).c_str());
            QCOMPARE(t->scalar_type(), e.tensor.scalar_type());
            QCOMPARE(t->sizes().vec(), e.tensor.sizes().vec());
            QVERIFY2(at::equal(*t, e.tensor), ("values differ: " + e.name).c_str());
        }
    }

    // The example inputs torch.export.save stored (data/sample_inputs/model.pt,
    // a torch.save of (args, kwargs)) read as the program's inputs, by the
    // IR's graph-input names, equal to the inputs the case was exported with.
    void sampleInputsAreTheProgramsInputs_data() { graphEqualsPytorchIrs_data(); }
    void sampleInputsAreTheProgramsInputs() {
        QFETCH(QString, name);
        const std::string base = dataPath("real/" + name.toStdString());
        if (!fs::exists(base + ".inputs.pt")) QSKIP("no inputs beside this case");
        io::ReadOptions options;
        io::selectInputsOf(base + ".pt2", options);
        QCOMPARE(options.select, std::string("sample_inputs"));
        QVERIFY(ir::loadGraphFile(base + ".pt2").fileHoldsExampleInputs);
        const io::TensorMap archive = io::readTensorFile(base + ".pt2", options);
        const io::TensorMap saved = io::readTensorFile(base + ".inputs.pt");
        const ir::Graph ir = ir::loadGraphFile(base + ".json");
        QCOMPARE(archive.size(), ir.graphInputs.size());
        for (const auto& input : ir.graphInputs) {
            const at::Tensor* t = archive.find(input.name);
            QVERIFY2(t, ("not among the sample inputs: " + input.name).c_str());
            const at::Tensor* expected = saved.find(input.name);
            QVERIFY2(expected, ("not in the inputs file: " + input.name).c_str());
            QCOMPARE(t->scalar_type(), expected->scalar_type());
            QVERIFY2(at::equal(*t, *expected), ("values differ: " + input.name).c_str());
        }
    }

    void sampleInputsSayWhatIsWrong() {
        io::ReadOptions options;
        io::selectInputsOf("x.pt2", options);
        const auto errorOf = [&](const std::string& file, const io::ReadOptions& o) {
            try {
                io::readTensorFile(dataPath("real/" + file), o);
            } catch (const std::exception& e) {
                return std::string(e.what());
            }
            return std::string();
        };
        std::string e = errorOf("hostile/no_sample_inputs.pt2", options);
        QVERIFY2(e.find("no_sample_inputs.pt2") != std::string::npos &&
                     e.find("holds no sample inputs") != std::string::npos,
                 e.c_str());
        QVERIFY(!ir::loadGraphFile(dataPath("real/hostile/no_sample_inputs.pt2")).fileHoldsExampleInputs);
        e = errorOf("hostile/sample_inputs_mismatch.pt2", options);
        QVERIFY2(e.find("holds 2 tensors, but the program takes 1 tensor inputs") != std::string::npos, e.c_str());
        io::ReadOptions nonsense;
        nonsense.select = "nonsense";
        e = errorOf("add_on_view.pt2", nonsense);
        QVERIFY2(e.find("not \"nonsense\"") != std::string::npos, e.c_str());
        // Not a .pt2: read as it is.
        io::ReadOptions plain;
        io::selectInputsOf("inputs.pt", plain);
        QVERIFY(plain.select.empty());
    }

    // The layout PyTorch 2.2-2.7 wrote (flat records, the state_dict,
    // constants and example inputs each a torch.save in the archive; the
    // fixtures are written by 2.13's serialize(), which that save called,
    // make_pt2_archives.py --legacy-only): the same graph as the 2.8+ archive
    // of the same program, and every weight, constant and input readable.
    void legacyLayout_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("file");
        for (const char* n : {"add_on_view", "tiny_llama", "lifted_mask"}) QTest::newRow(n) << n << n;
        // PyTorch 2.1's names for the same records (.json), no example inputs.
        QTest::newRow("add_on_view, 2.1 names") << "add_on_view"
                                                << "add_on_view_2_1";
    }
    void legacyLayout() {
        QFETCH(QString, name);
        QFETCH(QString, file);
        const std::string base = dataPath("real/" + name.toStdString());
        const std::string legacy = dataPath("real/legacy/" + file.toStdString() + ".pt2");
        QCOMPARE(ir::graphToJson(ir::loadGraphFile(legacy)), ir::graphToJson(ir::loadGraphFile(base + ".pt2")));
        // Weights and constants: every tensor the 2.8+ archive holds, equal.
        const io::TensorMap old = io::readTensorFile(legacy);
        const io::TensorMap current = io::readTensorFile(base + ".pt2");
        QCOMPARE(old.size(), current.size());
        for (const auto& e : current) {
            const at::Tensor* t = old.find(e.name);
            QVERIFY2(t, ("not in the 2.2-2.7 archive: " + e.name).c_str());
            QVERIFY2(at::equal(*t, e.tensor), ("values differ: " + e.name).c_str());
        }
        if (file.endsWith("_2_1")) {
            QVERIFY(!ir::loadGraphFile(legacy).fileHoldsExampleInputs);
            return;
        }
        io::ReadOptions inputs;
        io::selectInputsOf(legacy, inputs);
        const io::TensorMap oldInputs = io::readTensorFile(legacy, inputs);
        const io::TensorMap saved = io::readTensorFile(base + ".inputs.pt");
        QVERIFY(!oldInputs.empty());
        for (const auto& e : oldInputs) {
            const at::Tensor* t = saved.find(e.name);
            QVERIFY2(t && at::equal(*t, e.tensor), ("input differs: " + e.name).c_str());
        }
    }

    // An archive of several programs (torch.export's package_pt2,
    // make_pt2_archives.py --multi-only: add_on_view and tiny_llama, neither
    // named "model"). "FILE#NAME" opens each: the same graph, weights and
    // example inputs as that program's own archive. With no name the first
    // opens, and a note says which others there are and how to open them.
    void severalProgramsOpenByName() {
        const std::string multi = dataPath("real/multi/two_programs.pt2");
        for (const char* name : {"add_on_view", "tiny_llama"}) {
            const std::string one = dataPath(std::string("real/") + name + ".pt2");
            const std::string path = multi + "#" + name;
            const ir::Graph g = ir::loadGraphFile(path);
            QCOMPARE(ir::graphToJson(g), ir::graphToJson(ir::loadGraphFile(one)));
            QCOMPARE(g.archiveProgram, std::string(name));
            QCOMPARE(g.archivePrograms, (std::vector<std::string>{"add_on_view", "tiny_llama"}));
            QVERIFY(g.loadDiagnostics.empty());  // chosen by name: nothing to say
            const io::TensorMap weights = io::readTensorFile(path), own = io::readTensorFile(one);
            QCOMPARE(weights.size(), own.size());
            for (const auto& e : own) {
                const at::Tensor* t = weights.find(e.name);
                QVERIFY2(t && at::equal(*t, e.tensor), (std::string(name) + ": " + e.name).c_str());
            }
            io::ReadOptions inputs;
            io::selectInputsOf(path, inputs);
            QCOMPARE(inputs.select, std::string(io::kPt2SampleInputs));
            const io::TensorMap sample = io::readTensorFile(path, inputs);
            const io::TensorMap saved = io::readTensorFile(dataPath(std::string("real/") + name + ".inputs.pt"));
            QVERIFY(!sample.empty());
            for (const auto& e : sample) {
                const at::Tensor* t = saved.find(e.name);
                QVERIFY2(t && at::equal(*t, e.tensor), (std::string(name) + " input: " + e.name).c_str());
            }
        }
        const ir::Graph first = ir::loadGraphFile(multi);
        QCOMPARE(first.archiveProgram, std::string("add_on_view"));
        QCOMPARE(first.loadDiagnostics.size(), size_t(1));
        const std::string& note = first.loadDiagnostics.front().message;
        QVERIFY2(note.find("holds 2 programs") != std::string::npos &&
                     note.find("two_programs.pt2#NAME (NAME: tiny_llama)") != std::string::npos,
                 note.c_str());
        // A name the archive lacks: an error listing what it holds, for the graph and the weights alike.
        try {
            ir::loadGraphFile(multi + "#decoder");
            QFAIL("no error for a missing program");
        } catch (const ir::LoadError& e) {
            QVERIFY2(std::string(e.what()).find("no program 'decoder' (it holds: add_on_view, tiny_llama)") !=
                         std::string::npos,
                     e.what());
        }
        try {
            io::readTensorFile(multi + "#decoder");
            QFAIL("no error for a missing program's weights");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find("two_programs.pt2#decoder") != std::string::npos &&
                         std::string(e.what()).find("it holds: add_on_view, tiny_llama") != std::string::npos,
                     e.what());
        }
        // '#' after something that is not an archive names no program.
        try {
            ir::loadGraphFile(dataPath("real/add_on_view.json") + "#x");
            QFAIL("no error for '#x' after a JSON file");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find("cannot open") != std::string::npos, e.what());
        }
        try {
            io::readTensorFile(dataPath("real/add_on_view.inputs.pt") + "#x");
            QFAIL("no error for '#x' after a torch.save file");
        } catch (const std::exception& e) {
            QVERIFY(std::string(e.what()).find("add_on_view.inputs.pt#x") != std::string::npos);
        }
    }

    // torch.export's stack_trace reaches the node (Properties shows its frame);
    // pytorch-ir's JSON has none.
    void nodesKeepTheirStackTrace() {
        const ir::Graph g = ir::loadGraphFile(dataPath("real/add_on_view.pt2"));
        QCOMPARE(g.nodes.front().name, std::string("linear"));
        QVERIFY(g.nodes.front().exported);
        QVERIFY2(g.nodes.front().exported->stackTrace.find("linear.py\", line ") != std::string::npos,
                 g.nodes.front().exported->stackTrace.c_str());
        QVERIFY(!ir::loadGraphFile(dataPath("real/add_on_view.json")).nodes.front().exported);
    }

    // The module tree of a .pt2 is the one torch.export recorded
    // (nn_module_stack), not inferred: in the Kimi MoE layer expert 1's
    // linear_8 is in mlp.experts.1.gate_proj, silu_1 in mlp.experts.1 and the
    // dispatch select in mlp (read off the archive's JSON); the getitem nodes
    // irscope writes sit with their producer.
    void moduleTreeIsTheRecordedOne() {
        const ir::Graph g = ir::loadGraphFile(dataPath("real/kimi_moe_layer.pt2"));
        const ir::GraphIndex index(g);
        const auto tree = modules::inferModuleTree(g, index);
        auto moduleOf = [&](const std::string& node) {
            for (size_t n = 0; n < g.nodes.size(); ++n)
                if (g.nodes[n].name == node) return tree.module(tree.moduleOfNode(static_cast<int64_t>(n))).path;
            return std::string("(no node ") + node + ")";
        };
        QCOMPARE(moduleOf("linear_8"), std::string("mlp.experts.1.gate_proj"));
        QCOMPARE(moduleOf("silu_1"), std::string("mlp.experts.1"));
        QCOMPARE(moduleOf("select"), std::string("mlp"));
        for (size_t n = 0; n < g.nodes.size(); ++n) {
            const auto& node = g.nodes[n];
            if (!node.isGetitem()) continue;
            const std::string producer = *node.inputs.front().producerNode;
            QCOMPARE(moduleOf(node.name), moduleOf(producer));
        }
        QVERIFY(tree.find("mlp.experts") != modules::kNoModule);
        QVERIFY(tree.module(tree.find("mlp.experts")).isList);
    }

    // The dtype numbers of torch/_export/serde/schema.py's ScalarType.
    void scalarTypesAsPytorchIrSpellsThem() {
        QCOMPARE(ir::dtypeOfScalarType(7), std::string("float32"));
        QCOMPARE(ir::dtypeOfScalarType(6), std::string("float16"));
        QCOMPARE(ir::dtypeOfScalarType(13), std::string("bfloat16"));
        QCOMPARE(ir::dtypeOfScalarType(5), std::string("int64"));
        QCOMPARE(ir::dtypeOfScalarType(12), std::string("bool"));
        QCOMPARE(ir::dtypeOfScalarType(1), std::string("uint8"));
        QCOMPARE(ir::dtypeOfScalarType(29), std::string("float8_e4m3fn"));
        QCOMPARE(ir::dtypeOfScalarType(99), std::string());
    }

    // A torch.save file is a zip too: opened as an IR it says what it is.
    void torchSaveFileIsNotAGraph() {
        try {
            ir::loadGraphFile(dataPath("real/add_on_view.weights.pt"));
            QFAIL("a state_dict opened as a graph");
        } catch (const ir::LoadError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("add_on_view.weights.pt") != std::string::npos, what.c_str());
            QVERIFY2(what.find("not a torch.export archive") != std::string::npos, what.c_str());
        }
    }

    // Broken archives (make_pt2_archives.py write_hostile: add_on_view.pt2
    // with one thing broken) are errors naming the file, the record and what
    // is wrong; the graph and the weights are read apart, so each fails where
    // its own part is broken.
    void hostileArchives_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("graphFails");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown tensor") << "unknown_tensor.pt2" << true
                                        << "reads tensor 'nosuch', which no earlier node makes";
        QTest::newRow("cycle") << "cycle.pt2" << true << "reads tensor 'mul', which no earlier node makes";
        QTest::newRow("schema 99") << "schema_99.pt2" << true
                                   << "export schema version 99.0; irscope reads versions 1 to 8";
        QTest::newRow("compressed") << "compressed_graph.pt2" << true << "is compressed";
        QTest::newRow("past the end") << "weights_past_end.pt2" << false << "'lin.weight' reaches element 6399";
        QTest::newRow("missing file") << "missing_weight_file.pt2" << false
                                      << "weight_99, which the archive does not hold";
        QTest::newRow("stride count") << "stride_count.pt2" << false << "lists 1 strides for a 2-dim tensor";
    }
    void hostileArchives() {
        QFETCH(QString, file);
        QFETCH(bool, graphFails);
        QFETCH(QString, says);
        const std::string path = dataPath("real/hostile/" + file.toStdString());
        std::string error;
        try {
            if (graphFails)
                ir::loadGraphFile(path);
            else
                io::readTensorFile(path);
        } catch (const std::exception& e) {
            error = e.what();
        }
        QVERIFY2(!error.empty(), "a broken archive was read without a word");
        QVERIFY2(error.find(path) != std::string::npos, error.c_str());
        QVERIFY2(error.find(says.toStdString()) != std::string::npos, error.c_str());
        // The part that is not broken still reads.
        if (graphFails)
            QVERIFY(io::readTensorFile(path).size() == 4);
        else
            QCOMPARE(ir::loadGraphFile(path).nodes.size(), size_t(4));
    }

    // Cut short, an archive is an error naming the file, never a crash.
    void truncatedArchiveIsAnError() {
        QTemporaryDir dir;
        const std::string source = dataPath("real/add_on_view.pt2");
        std::ifstream in(source, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        for (size_t keep : {size_t(4), size_t(100), bytes.size() / 2, bytes.size() - 30}) {
            const std::string path = dir.filePath("cut.pt2").toStdString();
            std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(keep));
            try {
                ir::loadGraphFile(path);
                QFAIL(("a truncated archive opened, kept " + std::to_string(keep)).c_str());
            } catch (const ir::LoadError& e) {
                QVERIFY2(std::string(e.what()).find("cut.pt2") != std::string::npos, e.what());
            }
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestPt2Archive)
#include "test_pt2_archive.moc"
