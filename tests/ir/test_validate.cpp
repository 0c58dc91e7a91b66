// Validation against the malformed corpus (tests/data/malformed/expected.tsv,
// written by hand in make_malformed.py): every case must produce its finding.
#include <QtTest>

#include <fstream>

#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"
#include "core/ir/validate.h"
#include "test_support.h"

using namespace irscope;
using irscope::test::dataPath;

class TestValidate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void seedsAreClean_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("SimpleMLP") << "seeds/SimpleMLP.json";
        QTest::newRow("MaskedLinear") << "seeds/MaskedLinear.json";
        QTest::newRow("GatherWithIndex") << "seeds/GatherWithIndex.json";
    }
    void seedsAreClean() {
        QFETCH(QString, file);
        const auto graph = ir::loadGraphFile(dataPath(file.toStdString()));
        const ir::GraphIndex index(graph);
        const auto diagnostics = ir::validateGraph(graph, index);
        for (const auto& d : diagnostics) qWarning("%s", ir::formatDiagnostic(d).c_str());
        QCOMPARE(diagnostics.size(), size_t(0));
    }

    void corpus_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("text");
        std::ifstream manifest(dataPath("malformed/expected.tsv"));
        QVERIFY(manifest.good());
        std::string line;
        int rows = 0;
        while (std::getline(manifest, line)) {
            const auto fields = QString::fromStdString(line).split('\t');
            QCOMPARE(fields.size(), 4);
            QTest::newRow(qPrintable(fields[0])) << fields[0] << fields[1] << fields[2] << fields[3];
            ++rows;
        }
        QVERIFY(rows >= 30);
    }
    void corpus() {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QFETCH(QString, code);
        QFETCH(QString, text);
        const std::string path = dataPath("malformed/" + file.toStdString());
        if (kind == "load") {
            try {
                ir::loadGraphFile(path);
            } catch (const ir::LoadError& e) {
                QVERIFY2(std::string(e.what()).find(text.toStdString()) != std::string::npos, e.what());
                QVERIFY2(std::string(e.what()).rfind(path, 0) == 0, "the message must start with the file name");
                return;
            }
            QFAIL("expected the file to be refused");
        }
        const auto graph = ir::loadGraphFile(path);
        const ir::GraphIndex index(graph);
        const auto diagnostics = ir::validateGraph(graph, index);
        const ir::Severity severity = kind == "error"     ? ir::Severity::Error
                                      : kind == "warning" ? ir::Severity::Warning
                                                          : ir::Severity::Info;
        QString all;
        for (const auto& d : diagnostics) {
            all += QString::fromStdString(ir::formatDiagnostic(d)) + "\n";
            if (d.severity == severity && d.code == code.toStdString() &&
                d.message.find(text.toStdString()) != std::string::npos)
                return;
        }
        QFAIL(qPrintable("no " + kind + " [" + code + "] containing \"" + text + "\"; got:\n" + all));
    }

    // pytorch-ir drops a None passed for a Tensor? argument: clamp(x, max=t)
    // is clamp.Tensor with inputs [x, t]. validate says so before any run,
    // with both readings and how to settle it; an attr settles it; names
    // that say where each input goes leave nothing to report.
    void droppedNoneThatCouldBeEitherIsAWarning() {
        const auto clampGraph = [](const std::string& attrs) {
            return ir::parseGraph(
                R"({"model_name":"m","graph_inputs":[{"name":"x","shape":[3],"dtype":"float32"},
                  {"name":"t","shape":[3],"dtype":"float32"}],
                  "graph_outputs":[{"name":"c","shape":[3],"dtype":"float32"}],"weights":[],"nodes":[
                  {"name":"c","op_type":"aten.clamp.Tensor","inputs":[
                   {"name":"x","shape":[3],"dtype":"float32","producer_node":"x","producer_output_idx":0},
                   {"name":"t","shape":[3],"dtype":"float32","producer_node":"t","producer_output_idx":0}],
                  "outputs":[{"name":"c","shape":[3],"dtype":"float32"}],"attrs":)" +
                    attrs + "}]}",
                "clamp.json");
        };
        const auto ambiguities = [](const ir::Graph& g) {
            std::vector<ir::Diagnostic> out;
            for (auto& d : ir::validateGraph(g, ir::GraphIndex(g)))
                if (d.code == "ambiguous-inputs") out.push_back(d);
            return out;
        };
        auto found = ambiguities(clampGraph("{}"));
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].severity, ir::Severity::Warning);
        QCOMPARE(found[0].node, std::string("c"));
        QCOMPARE(found[0].jsonPath, std::string("nodes[0].inputs"));
        QVERIFY2(found[0].message.find("min=t or max=t") != std::string::npos, found[0].message.c_str());
        QVERIFY2(found[0].message.find(R"(("min": null or "max": null))") != std::string::npos,
                 found[0].message.c_str());
        QVERIFY(ambiguities(clampGraph(R"({"min": null})")).empty());
        QVERIFY(ambiguities(clampGraph(R"({"max": null})")).empty());
    }

    // An op of the model's own library is called a custom op, not an unknown one.
    void customOpIsNamedAsSuch() {
        const auto graph = ir::parseGraph(
            R"({"model_name":"m","graph_inputs":[{"name":"x","shape":[2],"dtype":"float32"}],
              "graph_outputs":[{"name":"c","shape":[2],"dtype":"float32"}],"weights":[],"nodes":[
              {"name":"c","op_type":"mylib.fused_gelu.default","inputs":[
               {"name":"x","shape":[2],"dtype":"float32","producer_node":"x","producer_output_idx":0}],
              "outputs":[{"name":"c","shape":[2],"dtype":"float32"}]}]})",
            "custom.json");
        const auto diagnostics = ir::validateGraph(graph, ir::GraphIndex(graph));
        QCOMPARE(diagnostics.size(), size_t(1));
        QCOMPARE(diagnostics[0].code, std::string("unknown-op"));
        QVERIFY2(diagnostics[0].message.find("custom op (namespace 'mylib'") != std::string::npos,
                 diagnostics[0].message.c_str());
    }

    // batch_norm without affine weights: inputs [x, b_bn_running_mean,
    // b_bn_running_var]; the names say where they go.
    void droppedNoneSettledByNamesIsNotReported() {
        const auto graph = ir::parseGraph(
            R"({"model_name":"m","graph_inputs":[{"name":"x","shape":[2,2],"dtype":"float32"}],
              "graph_outputs":[{"name":"bn","shape":[2,2],"dtype":"float32"}],
              "weights":[{"name":"bn.running_mean","shape":[2],"dtype":"float32"},
                         {"name":"bn.running_var","shape":[2],"dtype":"float32"}],
              "weight_name_mapping":{"b_bn_running_mean":"bn.running_mean","b_bn_running_var":"bn.running_var"},
              "nodes":[{"name":"bn","op_type":"aten.batch_norm.default","inputs":[
                {"name":"x","shape":[2,2],"dtype":"float32","producer_node":"x","producer_output_idx":0},
                {"name":"b_bn_running_mean","shape":[2],"dtype":"float32"},
                {"name":"b_bn_running_var","shape":[2],"dtype":"float32"}],
              "outputs":[{"name":"bn","shape":[2,2],"dtype":"float32"}],
              "attrs":{"training":false,"momentum":0.1,"eps":1e-5,"cudnn_enabled":false}}]})",
            "bn.json");
        const auto diagnostics = ir::validateGraph(graph, ir::GraphIndex(graph));
        for (const auto& d : diagnostics) qWarning("%s", ir::formatDiagnostic(d).c_str());
        for (const auto& d : diagnostics) QVERIFY(d.code != "ambiguous-inputs");
        QCOMPARE(ir::countSeverity(diagnostics, ir::Severity::Error), size_t(0));
    }

    void missingConstantNamesEverythingNeeded() {
        const auto graph = ir::loadGraphFile(dataPath("malformed/meta_extracted.json"));
        const ir::GraphIndex index(graph);
        const auto diagnostics = ir::validateGraph(graph, index);
        QCOMPARE(ir::countSeverity(diagnostics, ir::Severity::Error), size_t(0));  // a warning until execution
        const auto& d = diagnostics.at(0);
        QCOMPARE(d.code, std::string("missing-constant"));
        QCOMPARE(d.node, std::string("mul"));
        QCOMPARE(d.tensor, std::string("c_mask"));
        QVERIFY(d.message.find("--constants") != std::string::npos);
        QVERIFY(d.message.find("meta device") != std::string::npos);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestValidate)
#include "test_validate.moc"
