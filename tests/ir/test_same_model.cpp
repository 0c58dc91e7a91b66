// Which graphs count as the same model, so that the window carries the
// user's files, filters and breakpoints over to them (core/ir/same_model.h).
// Expected answers are what the fixtures are: NAME.json and NAME.meta.json
// are one model extracted twice (real and meta device), the diffnet_* edits
// are one model changed in one place, and every other pair is two models.
// simple_mlp and masked_linear share "linear.weight" and "linear.bias"
// (with other shapes): they were once taken for the same model, and the
// window then kept masked_linear's typed constant for simple_mlp.
#include <QtTest/QtTest>

#include <filesystem>

#include "core/ir/json_io.h"
#include "core/ir/same_model.h"
#include "test_support.h"

using namespace irscope;
using irscope::test::irPath;
namespace fs = std::filesystem;

class TestSameModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void twinsAndEditsAreTheSameModel() {
        int twins = 0;
        for (const auto& e : fs::directory_iterator(irPath(""))) {
            const std::string file = e.path().filename().string();
            if (!file.ends_with(".meta.json")) continue;
            const std::string real = e.path().parent_path() / (file.substr(0, file.size() - 10) + ".json");
            if (!fs::exists(real)) continue;
            const ir::Graph a = ir::loadGraphFile(real), b = ir::loadGraphFile(e.path().string());
            QVERIFY2(ir::isSameModel(a, b) && ir::isSameModel(b, a), file.c_str());
            QVERIFY2(ir::isSameModel(a, a), real.c_str());
            ++twins;
        }
        QVERIFY(twins >= 4);
        const ir::Graph base = ir::loadGraphFile(irPath("diff/diffnet.json"));
        for (const char* edit : {"diffnet_attr", "diffnet_insert", "diffnet_op", "diffnet_weight"}) {
            const ir::Graph edited = ir::loadGraphFile(irPath(std::string("diff/") + edit + ".json"));
            QVERIFY2(ir::isSameModel(base, edited), edit);
        }
    }

    void differentModelsAreNot() {
        std::vector<std::pair<std::string, ir::Graph>> models;
        for (const auto& e : fs::directory_iterator(irPath(""))) {
            const std::string file = e.path().filename().string();
            if (!file.ends_with(".json") || file.ends_with(".meta.json") || file.ends_with(".modules.json") ||
                file.find("intermediates") != std::string::npos)
                continue;
            try {
                models.emplace_back(file, ir::loadGraphFile(e.path().string()));
            } catch (const std::exception&) {
                // not an IR (a side file): not a model
            }
        }
        QVERIFY(models.size() >= 8);
        for (const auto& [a, ga] : models)
            for (const auto& [b, gb] : models)
                if (a != b) QVERIFY2(!ir::isSameModel(ga, gb), (a + " taken for " + b).c_str());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestSameModel)
#include "test_same_model.moc"
