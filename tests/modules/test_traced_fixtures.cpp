// Module inference against PyTorch itself: tests/data/make_ir_fixtures.py
// records, for every op make_fx traced, the nn.Module whose forward() was
// running (forward hooks), in NAME.modules.json. Every fixture must match
// op for op. A module without weights (ResNet's shared `relu`, a `maxpool`)
// leaves no trace in a torch_ir file, so the recorded path is compared at
// its deepest ancestor that owns weights.
#include <QtTest>

#include <fstream>

#include <nlohmann/json.hpp>

#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"
#include "core/modules/module_inference.h"

using namespace irscope;

class TestTracedFixtures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyOpInTheModuleThatRanIt_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("ops");
        for (auto [name, ops] : {std::pair{"simple_mlp", 3},
                                 {"masked_linear", 2},
                                 {"gather_with_index", 2},
                                 {"buffer_vs_constant", 3},
                                 {"cnn_bn", 10},
                                 {"resnet_tiny", 51},
                                 {"llama_block", 56},
                                 {"tiny_llama", 108},
                                 {"tiny_moe", 166}})
            QTest::newRow(name) << QString(name) << ops;
    }

    void everyOpInTheModuleThatRanIt() {
        QFETCH(QString, name);
        QFETCH(int, ops);
        const std::string base = std::string(IRSCOPE_TEST_DATA) + "/ir/" + name.toStdString();
        const auto graph = ir::loadGraphFile(base + ".json");
        const ir::GraphIndex index(graph);
        const auto tree = modules::inferModuleTree(graph, index);
        std::ifstream in(base + ".modules.json");
        const auto truth = nlohmann::json::parse(in).at("nodes");
        QCOMPARE(static_cast<int>(graph.nodes.size()), ops);
        QCOMPARE(truth.size(), graph.nodes.size());
        for (size_t n = 0; n < graph.nodes.size(); ++n) {
            std::string expected = truth.at(graph.nodes[n].name).get<std::string>();
            while (!expected.empty() && tree.find(expected) == modules::kNoModule) {
                const auto dot = expected.rfind('.');
                expected = dot == std::string::npos ? std::string() : expected.substr(0, dot);
            }
            const std::string& got = tree.module(tree.moduleOfNode(static_cast<int64_t>(n))).path;
            QCOMPARE(QString::fromStdString(graph.nodes[n].name + " -> " + got),
                     QString::fromStdString(graph.nodes[n].name + " -> " + expected));
        }
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestTracedFixtures)
#include "test_traced_fixtures.moc"
