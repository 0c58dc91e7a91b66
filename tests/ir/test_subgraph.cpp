// Cutting a graph down to a repro: node selection by name, by
// path and by neighbourhood, and the cut itself, on a small branchy graph
// whose answers are worked out by hand:
//
//   x -> a = relu(x) -> b = neg(a) ----+
//                    +-> c = exp(a) ---> d = add(b, c) -> e = mul(d, p_w) -> (output e)
//                                                      +-> f = sin(d)  (dead end)
#include <QtTest/QtTest>

#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"
#include "core/ir/node_selection.h"
#include "core/ir/subgraph.h"
#include "core/ir/validate.h"

using namespace irscope::ir;

namespace {

const char* kBranchy = R"({
  "model_name": "Branchy", "pytorch_version": "2.5.1",
  "graph_inputs": [{"name": "x", "shape": [2, 3], "dtype": "float32"}],
  "graph_outputs": [{"name": "e", "shape": [2, 3], "dtype": "float32"}],
  "weights": [{"name": "w", "shape": [2, 3], "dtype": "float32"}, {"name": "unused", "shape": [1], "dtype": "float32"}],
  "weight_name_mapping": {"p_w": "w", "p_unused": "unused"},
  "nodes": [
    {"name": "a", "op_type": "aten.relu.default", "inputs": [{"name": "x", "shape": [2, 3], "dtype": "float32", "producer_node": "x", "producer_output_idx": 0}], "outputs": [{"name": "a", "shape": [2, 3], "dtype": "float32"}], "attrs": {}},
    {"name": "b", "op_type": "aten.neg.default", "inputs": [{"name": "a", "shape": [2, 3], "dtype": "float32", "producer_node": "a", "producer_output_idx": 0}], "outputs": [{"name": "b", "shape": [2, 3], "dtype": "float32"}], "attrs": {}},
    {"name": "c", "op_type": "aten.exp.default", "inputs": [{"name": "a", "shape": [2, 3], "dtype": "float32", "producer_node": "a", "producer_output_idx": 0}], "outputs": [{"name": "c", "shape": [2, 3], "dtype": "float32"}], "attrs": {}},
    {"name": "d", "op_type": "aten.add.Tensor", "inputs": [{"name": "b", "shape": [2, 3], "dtype": "float32", "producer_node": "b", "producer_output_idx": 0}, {"name": "c", "shape": [2, 3], "dtype": "float32", "producer_node": "c", "producer_output_idx": 0}], "outputs": [{"name": "d", "shape": [2, 3], "dtype": "float32"}], "attrs": {}},
    {"name": "e", "op_type": "aten.mul.Tensor", "inputs": [{"name": "d", "shape": [2, 3], "dtype": "float32", "producer_node": "d", "producer_output_idx": 0}, {"name": "p_w", "shape": [2, 3], "dtype": "float32"}], "outputs": [{"name": "e", "shape": [2, 3], "dtype": "float32"}], "attrs": {}},
    {"name": "f", "op_type": "aten.sin.default", "inputs": [{"name": "d", "shape": [2, 3], "dtype": "float32", "producer_node": "d", "producer_output_idx": 0}], "outputs": [{"name": "f", "shape": [2, 3], "dtype": "float32"}], "attrs": {}}
  ]
})";

QStringList names(const std::vector<std::string>& v) {
    QStringList out;
    for (const auto& s : v) out << QString::fromStdString(s);
    return out;
}

QStringList nodeNames(const Graph& g, const std::vector<int64_t>& idx) {
    QStringList out;
    for (int64_t i : idx) out << QString::fromStdString(g.nodes[static_cast<size_t>(i)].name);
    return out;
}

}  // namespace

class TestSubgraph : public QObject {
    Q_OBJECT
    Graph g_ = parseGraph(kBranchy, "branchy.json");

private Q_SLOTS:
    void selections() {
        GraphIndex idx(g_);
        QCOMPARE(nodeNames(g_, selectNodesByName(idx, splitNames(" c, b ,b"))), (QStringList{"b", "c"}));
        // a -> d: a, both branches, d; not e or f (they come after d).
        QCOMPARE(nodeNames(g_, selectNodesBetween(idx, "a", "d")), (QStringList{"a", "b", "c", "d"}));
        QCOMPARE(nodeNames(g_, selectNodesBetween(idx, "b", "e")), (QStringList{"b", "d", "e"}));
        QCOMPARE(nodeNames(g_, selectNodesAround(idx, "d", 1)), (QStringList{"b", "c", "d", "e", "f"}));
        QCOMPARE(nodeNames(g_, selectNodesAround(idx, "b", 0)), (QStringList{"b"}));
        QCOMPARE(nodeNames(g_, selectNodesAround(idx, "b", 2)), (QStringList{"a", "b", "c", "d", "e", "f"}));
        auto refuses = [&](auto call, const char* needle) {
            try {
                call();
            } catch (const std::invalid_argument& e) {
                QVERIFY2(std::string(e.what()).find(needle) != std::string::npos, e.what());
                return;
            }
            QFAIL(needle);
        };
        refuses([&] { selectNodesByName(idx, {"b", "zz"}); }, "no node named 'zz'");
        refuses([&] { selectNodesBetween(idx, "b", "c"); }, "'c' does not depend on 'b'");
        refuses([&] { selectNodesBetween(idx, "e", "a"); }, "runs before it");
        refuses([&] { selectNodesAround(idx, "nope", 1); }, "--around: no node named 'nope'");
    }

    // The two branches alone: a feeds in, both results go on to d.
    void middleOfABranch() {
        GraphIndex idx(g_);
        const Subgraph s = extractSubgraph(idx, selectNodesByName(idx, {"b", "c"}));
        QCOMPARE(names(s.inputs), (QStringList{"a"}));
        QCOMPARE(names(s.outputs), (QStringList{"b", "c"}));
        QCOMPARE(s.graph.graphInputs.size(), size_t(1));
        QCOMPARE(s.graph.graphInputs[0].shape, (Shape{2, 3}));
        QCOMPARE(s.graph.graphInputs[0].dtype, std::string("float32"));
        QVERIFY(!s.graph.graphInputs[0].producerNode);
        QCOMPARE(*s.graph.nodes[0].inputs[0].producerNode, std::string("a"));  // its own producer now
        QVERIFY(s.graph.weights.empty());
        QVERIFY(s.graph.weightNameMapping.empty());
        QCOMPARE(s.graph.nodes.size(), size_t(2));
    }

    // a and b: a's value is still needed by c outside, so it is an output too.
    void valueUsedOutsideIsAnOutput() {
        GraphIndex idx(g_);
        const Subgraph s = extractSubgraph(idx, selectNodesByName(idx, {"a", "b"}));
        QCOMPARE(names(s.inputs), (QStringList{"x"}));
        QCOMPARE(names(s.outputs), (QStringList{"a", "b"}));
    }

    // d and e: the weight it reads comes along (and only it), e stays the graph output.
    void keepsOnlyTheWeightsItReads() {
        GraphIndex idx(g_);
        const Subgraph s = extractSubgraph(idx, selectNodesByName(idx, {"d", "e"}));
        QCOMPARE(names(s.inputs), (QStringList{"b", "c"}));
        QCOMPARE(names(s.outputs), (QStringList{"d", "e"}));  // d: f outside reads it
        QCOMPARE(s.graph.weights.size(), size_t(1));
        QCOMPARE(s.graph.weights[0].name, std::string("w"));
        QCOMPARE(s.graph.weightNameMapping, (std::vector<std::pair<std::string, std::string>>{{"p_w", "w"}}));
        // The cut is a valid IR that reads back the same.
        const Graph again = parseGraph(graphToJson(s.graph), "cut.json");
        QCOMPARE(again.nodes.size(), size_t(2));
        QCOMPARE(again.graphInputs.size(), size_t(2));
        GraphIndex againIndex(again);
        for (const auto& d : validateGraph(again, againIndex))
            QVERIFY2(d.severity != Severity::Error, d.message.c_str());
    }

    // An input the IR resolves only at run time by name (no producer field,
    // a state_dict key the file does not list) stays such a lookup in the cut;
    // a producer that lists fewer outputs than a consumer reads is refused by name.
    void lookupsByNameAndUnlistedOutputs() {
        std::string text = kBranchy;
        const std::string bInput =
            R"({"name": "a", "shape": [2, 3], "dtype": "float32", "producer_node": "a", "producer_output_idx": 0}], "outputs": [{"name": "b")";
        QVERIFY(text.find(bInput) != std::string::npos);
        text.replace(
            text.find(bInput), bInput.size(),
            R"({"name": "a", "shape": [2, 3], "dtype": "float32", "producer_node": "a", "producer_output_idx": 0}, {"name": "extra.bias", "shape": [3], "dtype": "float32"}], "outputs": [{"name": "b")");
        const Graph g = parseGraph(text, "lookup.json");
        GraphIndex idx(g);
        const Subgraph s = extractSubgraph(idx, selectNodesByName(idx, {"b"}));
        QCOMPARE(names(s.inputs), (QStringList{"a"}));
        QCOMPARE(s.graph.nodes[0].inputs[1].name, std::string("extra.bias"));
        QVERIFY(!s.graph.nodes[0].inputs[1].producerNode);

        std::string bad = kBranchy;
        const std::string dInput = R"("producer_node": "b", "producer_output_idx": 0)";
        bad.replace(bad.find(dInput), dInput.size(), R"("producer_node": "b", "producer_output_idx": 3)");
        const Graph g2 = parseGraph(bad, "unlisted.json");
        GraphIndex idx2(g2);
        try {
            extractSubgraph(idx2, selectNodesByName(idx2, {"d"}));
            QFAIL("an unlisted output cannot be named at the cut");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("reads output 3 of 'b'") != std::string::npos, e.what());
        }
    }

    void refusesWhatCannotBeCut() {
        GraphIndex idx(g_);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, extractSubgraph(idx, {}));
        try {
            extractSubgraph(idx, selectNodesByName(idx, {"f"}));  // f's result is used by nothing
            QFAIL("a dead end has nothing to compare");
        } catch (const NothingToCompare& e) {
            QVERIFY2(std::string(e.what()).find("used by nothing") != std::string::npos, e.what());
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestSubgraph)
#include "test_subgraph.moc"
