// Values across a comparison: a dump of graph B's run, renamed
// through the match, stands as the reference of graph A's run, node for node.
// A = diffnet_attr (leaky_relu's slope 0.2), B = diffnet (0.1), same weights
// and input; B's values are PyTorch's own (diffnet.intermediates.pt), and the
// expected differences were computed by PyTorch (diffnet_attr.vs_diffnet.json).
#include "exec_test_util.h"

#include "core/diff/graph_diff.h"
#include "core/diff/tensor_name_map.h"
#include "core/exec/debugger/debugger.h"
#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"

#include <cmath>
#include <fstream>
#include <set>

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;

namespace {

std::string diffFixture(const std::string& name) { return std::string(IRSCOPE_TEST_DATA) + "/ir/diff/" + name; }

std::vector<std::pair<std::string, std::string>> namesBToA(const ir::Graph& a, const std::string& bFile) {
    const ir::Graph b = ir::loadGraphFile(diffFixture(bFile));
    const ir::GraphIndex ia(a), ib(b);
    return diff::tensorNamesBToA(diff::diffGraphs(ia, ib), ia, ib);
}

const OutputError* row(const std::vector<OutputError>& rows, const std::string& node) {
    for (const auto& r : rows)
        if (r.nodeName == node) return &r;
    return nullptr;
}

}  // namespace

class TestCompareValues : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The renumbered names map back; an added node's name does not.
    void namesFollowTheMatchNotTheSpelling() {
        const ir::Graph a = ir::loadGraphFile(diffFixture("diffnet.json"));
        const auto names = namesBToA(a, "diffnet_insert.json");
        std::map<std::string, std::string> m(names.begin(), names.end());
        QCOMPARE(m.at("mul_1"), std::string("mul"));
        QCOMPARE(m.at("mul_3"), std::string("mul_2"));
        QCOMPARE(m.at("leaky_relu"), std::string("leaky_relu"));
        QCOMPARE(m.at("x"), std::string("x"));
        QVERIFY(!m.count("mul"));  // B's inserted node: A has nothing it computes
    }

    void otherGraphsRunIsTheReferenceNodeForNode() {
        std::ifstream f(diffFixture("diffnet_attr.vs_diffnet.json"));
        const auto want = nlohmann::json::parse(f);
        ir::Graph a = ir::loadGraphFile(diffFixture("diffnet_attr.json"));
        Debugger dbg(a, RetentionPolicy::KeepAll);
        dbg.values().loadWeights(diffFixture("diffnet_attr.weights.pt"));
        dbg.values().loadInputs(diffFixture("diffnet.inputs.pt"));
        dbg.values().loadRenamedReference(diffFixture("diffnet.intermediates.pt"), namesBToA(a, "diffnet.json"));
        QVERIFY(dbg.checks().checking());
        QCOMPARE(dbg.runToEnd().reason, StopReason::Finished);
        auto rows = dbg.checks().errorRows();
        // Cumulative: the first linear matches (PyTorch wrote 0 on the machine that made the
        // fixture; this CPU's BLAS may round a matmul an ulp apart, 6e-8 here), leaky_relu and
        // what follows differ by far more.
        QVERIFY(std::fabs(row(rows, "linear")->metrics.maxAbs - want["linear_max_abs"].get<double>()) < 1e-6);
        QVERIFY(!row(rows, "linear")->failing);
        QVERIFY(row(rows, "leaky_relu")->failing);
        QVERIFY(std::fabs(row(rows, "leaky_relu")->metrics.maxAbs - want["leaky_relu_max_abs"].get<double>()) < 1e-6);
        QVERIFY(std::fabs(row(rows, "linear_2")->metrics.maxAbs - want["linear_2_max_abs"].get<double>()) < 1e-6);
        // Local: each node on B's inputs, so only the changed node differs.
        dbg.checks().setErrorMode(ErrorMode::Local);
        QCOMPARE(dbg.runToEnd().reason, StopReason::Finished);
        rows = dbg.checks().errorRows();
        std::set<std::string> failing;
        for (const auto& r : rows)
            if (r.failing) failing.insert(r.nodeName);
        QCOMPARE(failing, std::set<std::string>{"leaky_relu"});
    }

    void aDumpOfAnUnrelatedGraphIsRefused() {
        ir::Graph a = ir::loadGraphFile(diffFixture("diffnet.json"));
        Debugger dbg(a, RetentionPolicy::KeepAll);
        bool threw = false;
        try {
            dbg.values().loadRenamedReference(diffFixture("diffnet.intermediates.pt"), {{"no_such_tensor", "linear"}});
        } catch (const std::exception& e) {
            threw = true;
            QVERIFY2(std::string(e.what()).find("diffnet.intermediates.pt") != std::string::npos, e.what());
        }
        QVERIFY(threw);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestCompareValues)
#include "test_compare_values.moc"
