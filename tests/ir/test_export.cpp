// Mermaid and info output against what pytorch-ir itself prints (its docs'
// drawings and the `info` example in docs/ir-format.md §6.2), plus hand-written variants.
#include <QtTest>

#include "core/export/info_summary.h"
#include "core/export/mermaid.h"
#include "core/ir/json_io.h"
#include "test_support.h"

using namespace irscope;
using irscope::test::dataPath;
using irscope::test::readFile;

class TestExport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void mermaidMatchesPytorchIrDocs_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("MaskedLinear") << "MaskedLinear";
        QTest::newRow("GatherWithIndex") << "GatherWithIndex";
    }
    void mermaidMatchesPytorchIrDocs() {
        QFETCH(QString, model);
        const auto graph = ir::loadGraphFile(dataPath("seeds/" + model.toStdString() + ".json"));
        QCOMPARE(exporter::graphToMermaid(graph) + "\n", readFile(dataPath("seeds/" + model.toStdString() + ".mmd")));
    }

    void mermaidCutAndNoWeights() {
        const auto graph = ir::loadGraphFile(dataPath("seeds/MaskedLinear.json"));
        const std::string expected =
            "flowchart TD\n"
            "    input_x[/\"Input: x<br/>1x4\"/]\n"
            "    op_linear[\"linear<br/>1x4\"]\n"
            "    input_x -->|\"1x4\"| op_linear\n"
            "    output_0[\\\"Output<br/>1x4\"/]\n"
            "    note[\"... 1 more nodes ...\"]";
        QCOMPARE(exporter::graphToMermaid(graph, {1, false}), expected);
    }

    void mermaidReplacesDoubleQuotes() {
        const std::string text =
            "{\"graph_inputs\": [{\"name\": \"x\", \"shape\": []}], \"graph_outputs\": [], \"weights\": [],"
            " \"nodes\": [{\"name\": \"n\", \"op_type\": \"custom.\\\"odd\\\".default\", \"inputs\": [], \"outputs\": "
            "[]}]}";
        const auto graph = ir::parseGraph(text, "q.json");
        QCOMPARE(exporter::graphToMermaid(graph),
                 std::string("flowchart TD\n    input_x[/\"Input: x<br/>\"/]\n    op_n[\"custom.'odd'\"]"));
    }

    void infoMatchesPytorchIrExample() {
        const auto graph = ir::loadGraphFile(dataPath("seeds/SimpleMLP.json"));
        QCOMPARE(exporter::formatInfoText(exporter::summarize(graph)), readFile(dataPath("seeds/SimpleMLP.info.txt")));
    }

    void infoJsonKeysAndValues() {
        const auto graph = ir::loadGraphFile(dataPath("seeds/SimpleMLP.json"));
        const std::string json = exporter::formatInfoJson(exporter::summarize(graph));
        const std::string expected =
            "{\n  \"model_name\": \"SimpleMLP\",\n  \"num_nodes\": 3,\n  \"num_inputs\": 1,\n  \"num_outputs\": 1,\n"
            "  \"num_weights\": 4,\n  \"total_parameters\": 58,\n  \"input_shapes\": {\n    \"x\": [\n      1,\n      "
            "4\n"
            "    ]\n  },\n  \"output_shapes\": {\n    \"linear_1\": [\n      1,\n      2\n    ]\n  },\n"
            "  \"op_distribution\": {\n    \"aten.linear.default\": 2,\n    \"aten.relu.default\": 1\n  }\n}\n";
        QCOMPARE(json, expected);
    }

    void opDistributionTiesKeepFirstSeenOrder() {
        const std::string text =
            "{\"graph_inputs\": [], \"graph_outputs\": [], \"weights\": [{\"name\": \"big\", \"shape\": [1000, "
            "11689]}], \"nodes\": ["
            "{\"name\": \"a\", \"op_type\": \"aten.b.default\", \"inputs\": [], \"outputs\": []},"
            "{\"name\": \"b\", \"op_type\": \"aten.a.default\", \"inputs\": [], \"outputs\": []},"
            "{\"name\": \"c\", \"op_type\": \"aten.c.default\", \"inputs\": [], \"outputs\": []},"
            "{\"name\": \"d\", \"op_type\": \"aten.c.default\", \"inputs\": [], \"outputs\": []}]}";
        const auto info = exporter::summarize(ir::parseGraph(text, "t.json"));
        QCOMPARE(info.opDistribution[0].first, std::string("aten.c.default"));
        QCOMPARE(info.opDistribution[1].first, std::string("aten.b.default"));
        QCOMPARE(info.opDistribution[2].first, std::string("aten.a.default"));
        QCOMPARE(exporter::withThousands(info.totalParameters), std::string("11,689,000"));
    }

    void hugeShapesDoNotOverflowTheParameterCount() {
        const std::string text =
            "{\"graph_inputs\": [], \"graph_outputs\": [], \"nodes\": [], \"weights\": ["
            "{\"name\": \"w\", \"shape\": [4294967296, 4294967296, 16]}]}";
        const auto info = exporter::summarize(ir::parseGraph(text, "h.json"));
        // 2^32 * 2^32 * 16 = 2^68 = 295147905179352825856
        QCOMPARE(exporter::withThousands(info.totalParameters), std::string("295,147,905,179,352,825,856"));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestExport)
#include "test_export.moc"
