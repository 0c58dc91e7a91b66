// Graph matching and the structural diff on pairs traced by
// PyTorch (tests/data/make_diff_fixtures.py): each pair differs by one edit
// made in the model's source, and the diff must report exactly that edit and
// nothing else. The expected changes are the edits themselves, read off the
// script; for the two extractions with different input shapes the oracle is
// the two JSON files compared directly.
#include <QtTest/QtTest>

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/diff/change_rows.h"
#include "core/diff/graph_diff.h"
#include "core/diff/module_changes.h"
#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"
#include "core/modules/module_inference.h"
#include "test_support.h"

using namespace irscope;
using diff::MatchMode;

namespace {

struct Pair {
    ir::Graph a, b;
    std::unique_ptr<ir::GraphIndex> ia, ib;
    diff::GraphDiff d;
    Pair(ir::Graph ga, ir::Graph gb, MatchMode mode) : a(std::move(ga)), b(std::move(gb)) {
        ia = std::make_unique<ir::GraphIndex>(a);
        ib = std::make_unique<ir::GraphIndex>(b);
        d = diff::diffGraphs(*ia, *ib, mode);
    }
    std::string nameA(int64_t n) const { return a.nodes[static_cast<size_t>(n)].name; }
    std::string nameB(int64_t n) const { return b.nodes[static_cast<size_t>(n)].name; }
    QStringList added() const {
        QStringList out;
        for (int64_t n : d.addedNodes) out << QString::fromStdString(nameB(n));
        return out;
    }
    QStringList removed() const {
        QStringList out;
        for (int64_t n : d.removedNodes) out << QString::fromStdString(nameA(n));
        return out;
    }
    // "a>b:what,what" per changed node.
    QStringList changed() const {
        QStringList out;
        for (const auto& c : d.changedNodes) {
            QStringList what;
            for (const auto& w : c.what) what << QString::fromStdString(w);
            out << QString::fromStdString(nameA(c.a) + ">" + nameB(c.b) + ":") + what.join(',');
        }
        return out;
    }
    QStringList renamed() const {
        QStringList out;
        for (const auto& [x, y] : d.renamedNodes) out << QString::fromStdString(nameA(x) + ">" + nameB(y));
        return out;
    }
};

ir::Graph fixture(const std::string& name) { return ir::loadGraphFile(test::dataPath("ir/" + name)); }

// A hand-made IR: x [2] float32 through `nodes`, each "name op attrs-json input,input"
// (an input is a node or graph input name; none for a node that reads nothing).
ir::Graph handMade(const std::vector<std::string>& nodes) {
    std::string json = R"({"model_name": "Hand", "pytorch_version": "2.5.1",
      "graph_inputs": [{"name": "x", "shape": [2], "dtype": "float32", "producer_node": "x", "producer_output_idx": 0}],
      "graph_outputs": [], "weights": [], "weight_name_mapping": {}, "nodes": [)";
    std::string last;
    for (size_t i = 0; i < nodes.size(); ++i) {
        std::istringstream fields(nodes[i]);
        std::string name, op, attrs, inputs;
        fields >> name >> op >> attrs >> inputs;
        std::string ins;
        std::istringstream each(inputs);
        for (std::string in; std::getline(each, in, ',');)
            if (!in.empty() && in != "-")
                ins += (ins.empty() ? "" : ", ") + std::string(R"({"name": ")") + in +
                       R"(", "shape": [2], "dtype": "float32", "producer_node": ")" + in +
                       R"(", "producer_output_idx": 0})";
        json += (i ? ", " : "") + std::string(R"({"name": ")") + name + R"(", "op_type": ")" + op +
                R"(", "inputs": [)" + ins + R"(], "outputs": [{"name": ")" + name +
                R"(", "shape": [2], "dtype": "float32"}], "attrs": )" + attrs + "}";
        last = name;
    }
    json += R"(]})";
    auto g = ir::parseGraph(json, "hand.json");
    g.graphOutputs.push_back(g.nodes.back().outputs[0]);
    g.graphOutputs.back().producerNode = last;
    return g;
}

std::unique_ptr<Pair> pairOf(const std::string& a, const std::string& b, MatchMode mode = MatchMode::Auto) {
    return std::make_unique<Pair>(fixture(a), fixture(b), mode);
}

}  // namespace

class TestGraphDiff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void identicalGraphsMatchNodeForNode() {
        auto p = pairOf("diff/diffnet.json", "diff/diffnet.json");
        QVERIFY(p->d.identical());
        for (size_t n = 0; n < p->a.nodes.size(); ++n) QCOMPARE(p->d.match.aToB[n], static_cast<int64_t>(n));
    }

    void attrChangeIsOneChangedNode() {
        auto p = pairOf("diff/diffnet.json", "diff/diffnet_attr.json");
        QCOMPARE(p->changed(), QStringList{"leaky_relu>leaky_relu:attrs"});
        QCOMPARE(p->d.changedNodes[0].details, std::vector<std::string>{"negative_slope: 0.1 -> 0.2"});
        QVERIFY(p->added().isEmpty() && p->removed().isEmpty() && p->renamed().isEmpty());
        QVERIFY(p->d.weights.empty() && p->d.graphInputs.empty() && p->d.graphOutputs.empty());
    }

    void swappedOpIsOneChangedNodeNotAnAddAndARemove() {
        auto p = pairOf("diff/diffnet.json", "diff/diffnet_op.json");
        QCOMPARE(p->changed(), QStringList{"tanh>sigmoid:op_type"});
        QCOMPARE(p->d.changedNodes[0].details,
                 std::vector<std::string>{"op aten.tanh.default -> aten.sigmoid.default"});
        QVERIFY(p->added().isEmpty() && p->removed().isEmpty() && p->renamed().isEmpty());
        QVERIFY(p->d.weights.empty() && p->d.graphOutputs.empty());
    }

    // `h * 0.5` inserted after fc1: FX names the new node `mul` and renumbers
    // the three later muls. The one real change besides the new node is that
    // leaky_relu now reads it.
    void insertedNodeRenumbersWithoutChangingTheRest() {
        auto p = pairOf("diff/diffnet.json", "diff/diffnet_insert.json");
        QCOMPARE(p->added(), QStringList{"mul"});
        QVERIFY(p->removed().isEmpty());
        QCOMPARE(p->changed(), QStringList{"leaky_relu>leaky_relu:inputs"});
        QCOMPARE(p->d.changedNodes[0].details, std::vector<std::string>{"input 0: from linear -> mul (added)"});
        QCOMPARE(p->renamed(), (QStringList{"mul>mul_1", "mul_1>mul_2", "mul_2>mul_3"}));
        QVERIFY(p->d.weights.empty() && p->d.graphInputs.empty() && p->d.graphOutputs.empty());

        // The other way round the same node is removed.
        auto back = pairOf("diff/diffnet_insert.json", "diff/diffnet.json");
        QCOMPARE(back->removed(), QStringList{"mul"});
        QVERIFY(back->added().isEmpty());
        QCOMPARE(back->changed(), QStringList{"leaky_relu>leaky_relu:inputs"});
        QCOMPARE(back->renamed().size(), 3);
    }

    // What pairing by name alone gets wrong on the same files: it is why the
    // default matches by structure.
    void matchingByNamesAloneCallsTheRenumberedNodesChanged() {
        auto p = pairOf("diff/diffnet.json", "diff/diffnet_insert.json", MatchMode::Names);
        QVERIFY(p->changed().size() >= 4);
        QCOMPARE(p->added(), QStringList{"mul_3"});
    }

    void reshapedWeightChangesTheWeightAndItsReader() {
        auto p = pairOf("diff/diffnet.json", "diff/diffnet_weight.json");
        QCOMPARE(p->d.weights.changed.size(), size_t{1});
        const auto& w = p->d.weights.changed[0];
        QCOMPARE(p->b.weights[static_cast<size_t>(w.b)].name, std::string("scale"));
        QCOMPARE(w.what, std::vector<std::string>{"shape"});
        QCOMPARE(w.detail, std::string("shape [16] -> [1, 16]"));
        QVERIFY(p->d.weights.added.empty() && p->d.weights.removed.empty());
        QCOMPARE(p->changed(), QStringList{"mul>mul:inputs"});
        QCOMPARE(p->d.changedNodes[0].details, std::vector<std::string>{"input 1: shape [16] -> [1, 16]"});
        QVERIFY(p->added().isEmpty() && p->removed().isEmpty() && p->renamed().isEmpty());
    }

    // TinyLlama extracted with 6 and with 4 tokens. The oracle is the two files
    // themselves: they have the same nodes in the same order, so comparing
    // them name by name gives what changed.
    void twoExtractionsWithOtherInputShapes() {
        auto p = pairOf("tiny_llama.json", "diff/tiny_llama_seq4.json");
        QVERIFY(p->added().isEmpty() && p->removed().isEmpty() && p->renamed().isEmpty());
        const auto ja = nlohmann::json::parse(test::readFile(test::dataPath("ir/tiny_llama.json")));
        const auto jb = nlohmann::json::parse(test::readFile(test::dataPath("ir/diff/tiny_llama_seq4.json")));
        QCOMPARE(ja["nodes"].size(), jb["nodes"].size());
        std::set<std::string> attrsChanged, shapesChanged;
        for (size_t i = 0; i < ja["nodes"].size(); ++i) {
            const auto& na = ja["nodes"][i];
            const auto& nb = jb["nodes"][i];
            QCOMPARE(na["name"], nb["name"]);
            QCOMPARE(na["op_type"], nb["op_type"]);
            if (na.value("attrs", nlohmann::json::object()) != nb.value("attrs", nlohmann::json::object()))
                attrsChanged.insert(na["name"]);
            for (const char* side : {"inputs", "outputs"})
                for (size_t k = 0; k < na[side].size(); ++k)
                    if (na[side][k]["shape"] != nb[side][k]["shape"]) shapesChanged.insert(na["name"]);
        }
        std::set<std::string> gotAttrs, gotChanged;
        for (const auto& c : p->d.changedNodes) {
            QCOMPARE(c.a, c.b);  // same node, same place
            gotChanged.insert(p->nameB(c.b));
            if (std::find(c.what.begin(), c.what.end(), "attrs") != c.what.end()) gotAttrs.insert(p->nameB(c.b));
            QVERIFY(std::find(c.what.begin(), c.what.end(), "op_type") == c.what.end());
        }
        QVERIFY(!attrsChanged.empty());
        QCOMPARE(gotAttrs, attrsChanged);
        std::set<std::string> expected = attrsChanged;
        expected.insert(shapesChanged.begin(), shapesChanged.end());
        QCOMPARE(gotChanged, expected);
        // The input, the lifted position_ids constant (shape) and the output.
        QCOMPARE(p->d.graphInputs.changed.size(), size_t{1});
        QCOMPARE(p->d.graphInputs.changed[0].detail, std::string("shape [1, 6] -> [1, 4]"));
        QCOMPARE(p->d.weights.changed.size(), size_t{1});
        QCOMPARE(p->b.weights[static_cast<size_t>(p->d.weights.changed[0].b)].name, std::string("position_ids"));
        QCOMPARE(p->d.graphOutputs.changed.size(), size_t{1});
        QCOMPARE(p->d.graphOutputs.changed[0].what, std::vector<std::string>{"shape"});
    }

    // Another exporter names every node differently: structure alone pairs
    // them all, and the only difference is the names.
    void structureMatchesGraphsWithNoNameInCommon() {
        auto renamedJson = nlohmann::ordered_json::parse(test::readFile(test::dataPath("ir/diff/diffnet.json")));
        std::map<std::string, std::string> newName;
        for (auto& n : renamedJson["nodes"]) newName[n["name"]] = "n_" + n["name"].get<std::string>();
        auto rename = [&](nlohmann::ordered_json& t) {
            if (t.contains("producer_node") && newName.count(t["producer_node"]))
                t["producer_node"] = newName[t["producer_node"]];
            if (newName.count(t["name"])) t["name"] = newName[t["name"]];
        };
        for (auto& n : renamedJson["nodes"]) {
            n["name"] = newName[n["name"]];
            for (auto& t : n["inputs"]) rename(t);
            for (auto& t : n["outputs"]) rename(t);
        }
        for (auto& t : renamedJson["graph_outputs"]) rename(t);
        auto b = ir::parseGraph(renamedJson.dump(), "renamed.json");
        Pair p(fixture("diff/diffnet.json"), std::move(b), MatchMode::Structure);
        QVERIFY(p.changed().isEmpty() && p.added().isEmpty() && p.removed().isEmpty());
        QCOMPARE(p.renamed().size(), 11);
        QVERIFY(p.renamed().contains("leaky_relu>n_leaky_relu"));
        QVERIFY(p.d.graphOutputs.empty());
    }

    void changesAreCountedPerModule() {
        auto p = pairOf("tiny_llama.json", "diff/tiny_llama_seq4.json");
        const auto ta = modules::inferModuleTree(p->a, *p->ia);
        const auto tb = modules::inferModuleTree(p->b, *p->ib);
        const auto byModule = diff::changesByModule(p->d, ta, tb);
        int64_t total = 0;
        QStringList order;
        for (const auto& m : byModule) {
            total += m.changed;
            order << QString::fromStdString(m.path);
        }
        QCOMPARE(total, static_cast<int64_t>(p->d.changedNodes.size()));
        // Execution order: the embedding first, a layer's norm before its attention before its MLP.
        QCOMPARE(order.first(), QString("embed_tokens"));
        QVERIFY(order.indexOf("layers.0.input_layernorm") < order.indexOf("layers.0.self_attn"));
        QVERIFY(order.indexOf("layers.0.self_attn") < order.indexOf("layers.0.mlp"));
        QVERIFY(order.indexOf("layers.0.mlp") < order.indexOf("layers.1.input_layernorm"));
        const auto norm = std::find_if(byModule.begin(), byModule.end(),
                                       [](const auto& m) { return m.path == "layers.0.input_layernorm"; });
        QVERIFY(norm != byModule.end());
        QCOMPARE(norm->changed, int64_t{6});  // pow, mean, add, rsqrt, mul, mul_1: RMSNorm's six ops
    }

    // A node that reads nothing (a `full`) has no context of its own: one
    // inserted before three others of the same attrs takes the name `full`
    // and renumbers them, and must not take the place of A's `full`.
    void insertedContextFreeNodeDoesNotShiftItsLookAlikes() {
        const std::string fill = R"({"size":[2],"fill_value":1.0})";
        ir::Graph a = handMade({"full aten.full.default " + fill + " -", "add aten.add.Tensor {} x,full",
                                "full_1 aten.full.default " + fill + " -", "add_1 aten.add.Tensor {} add,full_1",
                                "full_2 aten.full.default " + fill + " -", "add_2 aten.add.Tensor {} add_1,full_2"});
        ir::Graph b = handMade({"full aten.full.default " + fill + " -", "mul aten.mul.Tensor {} x,full",
                                "full_1 aten.full.default " + fill + " -", "add aten.add.Tensor {} mul,full_1",
                                "full_2 aten.full.default " + fill + " -", "add_1 aten.add.Tensor {} add,full_2",
                                "full_3 aten.full.default " + fill + " -", "add_2 aten.add.Tensor {} add_1,full_3"});
        Pair p(std::move(a), std::move(b), MatchMode::Auto);
        QCOMPARE(p.added(), (QStringList{"full", "mul"}));
        QVERIFY(p.removed().isEmpty());
        QCOMPARE(p.changed(), QStringList{"add>add:inputs"});
        QCOMPARE(p.renamed(), (QStringList{"full>full_1", "full_1>full_2", "full_2>full_3"}));
    }

    // NaN equals NaN, and -inf reads as -Infinity, not null.
    void nanAndInfinityAttrsCompareAsValues() {
        ir::Graph a = handMade({"full aten.full.default {\"size\":[2],\"fill_value\":NaN} -",
                                "fill aten.masked_fill.Scalar {\"value\":-Infinity} x,full"});
        ir::Graph same = handMade({"full aten.full.default {\"size\":[2],\"fill_value\":NaN} -",
                                   "fill aten.masked_fill.Scalar {\"value\":-Infinity} x,full"});
        Pair p(std::move(a), std::move(same), MatchMode::Auto);
        QVERIFY(p.d.identical());
        ir::Graph a2 = handMade({"full aten.full.default {\"size\":[2],\"fill_value\":NaN} -",
                                 "fill aten.masked_fill.Scalar {\"value\":-Infinity} x,full"});
        ir::Graph b2 = handMade({"full aten.full.default {\"size\":[2],\"fill_value\":NaN} -",
                                 "fill aten.masked_fill.Scalar {\"value\":-1000000000.0} x,full"});
        Pair q(std::move(a2), std::move(b2), MatchMode::Auto);
        QCOMPARE(q.changed(), QStringList{"fill>fill:attrs"});
        QCOMPARE(q.d.changedNodes[0].details, std::vector<std::string>{"value: -Infinity -> -1000000000.0"});
    }

    // An output added in front pairs nothing else off; swapped inputs are a change.
    void outputsPairByProducerAndInputsByPlace() {
        auto json = nlohmann::ordered_json::parse(test::readFile(test::dataPath("ir/diff/diffnet.json")));
        auto outputs = json["graph_outputs"];
        json["graph_outputs"] = nlohmann::ordered_json::array({json["nodes"][0]["outputs"][0]});  // linear, first
        for (auto& o : outputs) json["graph_outputs"].push_back(o);
        Pair p(fixture("diff/diffnet.json"), ir::parseGraph(json.dump(), "more_outputs.json"), MatchMode::Auto);
        QCOMPARE(p.d.graphOutputs.added, std::vector<int64_t>{0});
        QVERIFY(p.d.graphOutputs.removed.empty());
        QCOMPARE(p.d.graphOutputs.changed.size(), size_t{2});  // both moved one place down
        for (const auto& c : p.d.graphOutputs.changed) QCOMPARE(c.what, std::vector<std::string>{"position"});
        QVERIFY(p.d.changedNodes.empty());

        const std::string two = R"({"model_name": "T", "pytorch_version": "2.5.1",
          "graph_inputs": [{"name": "x", "shape": [2], "dtype": "float32"}, {"name": "y", "shape": [2], "dtype": "float32"}],
          "graph_outputs": [{"name": "sub", "shape": [2], "dtype": "float32", "producer_node": "sub", "producer_output_idx": 0}],
          "weights": [], "weight_name_mapping": {},
          "nodes": [{"name": "sub", "op_type": "aten.sub.Tensor", "inputs": [
            {"name": "x", "shape": [2], "dtype": "float32", "producer_node": "x", "producer_output_idx": 0},
            {"name": "y", "shape": [2], "dtype": "float32", "producer_node": "y", "producer_output_idx": 0}],
            "outputs": [{"name": "sub", "shape": [2], "dtype": "float32"}], "attrs": {}}]})";
        auto swapped = nlohmann::ordered_json::parse(two);
        std::swap(swapped["graph_inputs"][0], swapped["graph_inputs"][1]);
        Pair q(ir::parseGraph(two, "a.json"), ir::parseGraph(swapped.dump(), "b.json"), MatchMode::Auto);
        QVERIFY(!q.d.identical());
        QCOMPARE(q.d.graphInputs.changed.size(), size_t{2});
        QCOMPARE(q.d.graphInputs.changed[0].what, std::vector<std::string>{"position"});
        QVERIFY(q.d.changedNodes.empty());  // sub still reads x then y
    }

    // The Changes dock's rows (and F8's order): execution order, a removed
    // node where its neighbours are; module counts include what is below.
    void changeRowsFollowExecutionOrder() {
        using Kind = diff::ChangeRow::Kind;
        auto p = pairOf("diff/diffnet.json", "diff/diffnet_insert.json");
        const auto rows = diff::changeRows(p->d, *p->ia, *p->ib, nullptr, nullptr);
        QStringList got;
        for (const auto& r : rows)
            got << QString::number(static_cast<int>(r.kind)) + ":" + QString::fromStdString(r.nameB);
        const auto k = [](Kind kind, const char* name) { return QString::number(static_cast<int>(kind)) + ":" + name; };
        QCOMPARE(got, (QStringList{k(Kind::NodeAdded, "mul"), k(Kind::NodeChanged, "leaky_relu"),
                                   k(Kind::NodeRenamed, "mul_1"), k(Kind::NodeRenamed, "mul_2"),
                                   k(Kind::NodeRenamed, "mul_3")}));
        auto back = pairOf("diff/diffnet_insert.json", "diff/diffnet.json");
        const auto backRows = diff::changeRows(back->d, *back->ia, *back->ib, nullptr, nullptr);
        QCOMPARE(backRows[0].kind, Kind::NodeRemoved);
        QCOMPARE(backRows[0].nameA, std::string("mul"));
        QCOMPARE(backRows[1].nameB, std::string("leaky_relu"));

        auto w = pairOf("diff/diffnet.json", "diff/diffnet_weight.json");
        const auto wRows = diff::changeRows(w->d, *w->ia, *w->ib, nullptr, nullptr);
        QCOMPARE(wRows.size(), size_t{2});
        QCOMPARE(wRows[1].kind, Kind::Weight);
        QCOMPARE(wRows[1].nameB, std::string("scale"));
        QCOMPARE(wRows[1].detail, std::string("shape [16] -> [1, 16]"));

        auto seq = pairOf("tiny_llama.json", "diff/tiny_llama_seq4.json");
        const auto tb = modules::inferModuleTree(seq->b, *seq->ib);
        const auto inside = diff::changesInsideModules(diff::nodeStatesB(seq->d), tb);
        QCOMPARE(inside[modules::kRootModule], 108);
        QCOMPARE(inside[static_cast<size_t>(tb.find("layers.0.input_layernorm"))], 6);
    }

    // Which kinds of change a module holds: additions only, removals only, or a mix.
    void changeKindsInsideModules() {
        auto seq = pairOf("tiny_llama.json", "tiny_llama.json");
        const auto tree = modules::inferModuleTree(seq->b, *seq->ib);
        std::vector<diff::NodeDiffState> states(seq->b.nodes.size(), diff::NodeDiffState::Unchanged);
        const auto nodesOf = [&](const char* path) {
            const modules::Module& m = tree.module(static_cast<modules::ModuleId>(tree.find(path)));
            return std::pair{m.firstNode, m.lastNode};
        };
        for (const char* path : {"layers.0.mlp", "layers.1.mlp", "layers.1.self_attn"})
            QVERIFY2(nodesOf(path).first >= 0, path);
        const auto [mlpFirst, mlpLast] = nodesOf("layers.0.mlp");
        for (auto n = mlpFirst; n <= mlpLast; ++n) states[static_cast<size_t>(n)] = diff::NodeDiffState::Added;
        states[static_cast<size_t>(nodesOf("layers.1.mlp").first)] = diff::NodeDiffState::Removed;
        states[static_cast<size_t>(nodesOf("layers.1.self_attn").first)] = diff::NodeDiffState::Renamed;
        const auto kinds = diff::changeKindsInsideModules(states, tree);
        const auto at = [&](const char* path) { return kinds[static_cast<size_t>(tree.find(path))]; };
        QCOMPARE(at("layers.0.mlp"), uint8_t(diff::kModuleHasAdded));
        QCOMPARE(at("layers.0"), uint8_t(diff::kModuleHasAdded));
        QCOMPARE(at("layers.1.mlp"), uint8_t(diff::kModuleHasRemoved));
        QCOMPARE(at("layers.1.self_attn"), uint8_t(0));  // a rename is not a change
        QCOMPARE(at("layers.0.self_attn"), uint8_t(0));
        QCOMPARE(kinds[modules::kRootModule], uint8_t(diff::kModuleHasAdded | diff::kModuleHasRemoved));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestGraphDiff)
#include "test_graph_diff.moc"
