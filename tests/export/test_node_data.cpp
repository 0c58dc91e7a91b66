// Model Explorer node data (core/export/node_data.h): the two forms it
// reads, what it writes, and bad files named with the place and the reason.
#include <QtTest/QtTest>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/export/node_data.h"

using namespace irscope::exporter;

class TestNodeData : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writesTheGraphCollectionForm() {
        NodeData d;
        d.graphId = "LlamaBlock";
        d.values = {{"mul_4", 1.5}, {"add", std::numeric_limits<double>::infinity()}, {"skipped", std::nan("")}};
        d.thresholds = {{0.5, "#a5d6a7"}, {std::numeric_limits<double>::infinity(), "#ef9a9a"}};
        const std::string text = nodeDataJson(d);
        QCOMPARE(text, std::string("{\n"
                                   "  \"LlamaBlock\": {\n"
                                   "    \"results\": {\n"
                                   "      \"mul_4\": {\n"
                                   "        \"value\": 1.5\n"
                                   "      },\n"
                                   "      \"add\": {\n"
                                   "        \"value\": 1.7976931348623157e+308\n"
                                   "      }\n"
                                   "    },\n"
                                   "    \"thresholds\": [\n"
                                   "      {\n"
                                   "        \"value\": 0.5,\n"
                                   "        \"bgColor\": \"#a5d6a7\"\n"
                                   "      },\n"
                                   "      {\n"
                                   "        \"value\": 1.7976931348623157e+308,\n"
                                   "        \"bgColor\": \"#ef9a9a\"\n"
                                   "      }\n"
                                   "    ]\n"
                                   "  }\n"
                                   "}\n"));
        const NodeData back = parseNodeData(text, "x.json");
        QCOMPARE(back.graphId, std::string("LlamaBlock"));
        QCOMPARE(back.values.size(), size_t{2});
        QCOMPARE(back.values[0].first, std::string("mul_4"));
        QCOMPARE(back.values[0].second, 1.5);
        QCOMPARE(back.thresholds.size(), size_t{2});
        QCOMPARE(nodeDataColour(back.thresholds, 0.25), std::string("#a5d6a7"));
        QCOMPARE(nodeDataColour(back.thresholds, 2.0), std::string("#ef9a9a"));
    }

    void readsTheBareFormAndPicksAGraph() {
        NodeData bare = parseNodeData(R"({"results": {"a": {"value": 2}, "b": {"value": null}}})", "b.json");
        QCOMPARE(bare.graphId, std::string());
        QCOMPARE(bare.values.size(), size_t{1});  // a null value is a node without a number
        const std::string two = R"({"g1": {"results": {"a": {"value": 1}}}, "g2": {"results": {"a": {"value": 7}}}})";
        QCOMPARE(parseNodeData(two, "t.json").values[0].second, 1.0);
        QCOMPARE(parseNodeData(two, "t.json", "g2").values[0].second, 7.0);
    }

    void badFilesNameThePlace_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json")
            << "{\"results\": "
            << "bad.json: byte 13: not JSON (syntax error while parsing value - unexpected end of input; "
               "expected '[', '{', or a literal)";
        QTest::newRow("array") << "[1]"
                               << "bad.json: expected a JSON object (Model Explorer node data)";
        QTest::newRow("no results") << R"({"g": {"thresholds": []}})"
                                    << "bad.json: g: no \"results\" (Model Explorer node data keeps its values there)";
        QTest::newRow("string value") << R"({"results": {"mul": {"value": "x"}}})"
                                      << "bad.json: results.mul.value: expected a number, got string";
        QTest::newRow("no value") << R"({"g": {"results": {"mul": {}}}})"
                                  << "bad.json: g.results.mul: no \"value\"";
        QTest::newRow("threshold") << R"({"results": {}, "thresholds": [{"bgColor": "red"}]})"
                                   << "bad.json: thresholds[0]: expected {\"value\": number, \"bgColor\": colour}";
    }
    void badFilesNameThePlace() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        try {
            parseNodeData(text.toStdString(), "bad.json");
            QFAIL("no error");
        } catch (const std::runtime_error& e) {
            QCOMPARE(QString(e.what()), message);
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestNodeData)
#include "test_node_data.moc"
