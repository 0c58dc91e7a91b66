// Weights that are tensor subclasses: torchao's quantize_ (int8 weight-only,
// int8 dynamic activations) saves each quantized weight pickled as
// torchao.quantization.Int8Tensor (tests/data/programs/make_torchao_programs.py).
// irscope reads it with the restricted unpickler into its parts
// ("up.weight.qdata", ".scale", ".zero_point"), rebuilds its value as
// torchao's own dequantize() does (bit for bit, against the values torchao
// wrote), runs the accessors that read the parts, and pairs the weight with
// the float program's for the quantization debugger, within 0.01 dB of
// torchao's compute_error.
#include "test_support.h"

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/exec/engine/subclass_values.h"
#include "core/exec/reference/program_pairing.h"
#include "core/exec/reference/quantization_compare.h"
#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/catalog/tensor_listing.h"
#include "core/io/catalog/tensor_subclass.h"
#include "core/io/tensor_file.h"
#include "core/io/weight_binding.h"
#include "core/ir/json_io.h"
#include "core/ir/subclass_access.h"
#include "core/ir/weight_quantization.h"

#include <ATen/ATen.h>
#include <QtTest/QtTest>

namespace {

std::string programPath(const std::string& name) { return irscope::test::dataPath("programs/" + name); }

nlohmann::json weightsJson(const std::string& name) {
    std::ifstream f(programPath(name + ".weights.json"));
    return nlohmann::json::parse(f);
}

}  // namespace

class TestSubclassWeights : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cases_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("weight only") << "torchao_int8_weight_only_mlp";
        QTest::newRow("dynamic activations") << "torchao_int8_dynamic_decoder";
    }

    // Each quantized weight is listed as what it is, then as its parts.
    void listsWeightAndParts_data() { cases_data(); }
    void listsWeightAndParts() {
        QFETCH(QString, name);
        const auto listing = irscope::io::listTensorFile(programPath(name.toStdString() + ".pt2"), {}, false);
        const nlohmann::json torchao = weightsJson(name.toStdString());
        QVERIFY(!torchao.empty());
        for (const auto& [weight, info] : torchao.items()) {
            auto row = [&](const std::string& n) {
                for (const auto& r : listing)
                    if (r.name == n) return &r;
                return static_cast<const irscope::io::TensorListing*>(nullptr);
            };
            const auto* outer = row(weight);
            QVERIFY2(outer, weight.c_str());
            QVERIFY2(outer->supported && outer->dtype == "float32", outer->note.c_str());
            QVERIFY2(QString::fromStdString(outer->subclass).contains("Int8Tensor of qdata, scale, zero_point"),
                     outer->subclass.c_str());
            const std::string block = "block_size [" + std::to_string(info["block_size"][0].get<int>()) + ", " +
                                      std::to_string(info["block_size"][1].get<int>()) + "]";
            QVERIFY2(QString::fromStdString(outer->subclass).contains(QString::fromStdString(block)),
                     outer->subclass.c_str());
            const auto* qdata = row(weight + ".qdata");
            QVERIFY2(qdata && qdata->dtype == "int8" && qdata->shape == outer->shape, weight.c_str());
            QVERIFY2(row(weight + ".scale") && row(weight + ".zero_point"), weight.c_str());
        }
    }

    // The rebuilt value is torchao's dequantize(), bit for bit.
    void valueIsTorchaosDequantize_data() { cases_data(); }
    void valueIsTorchaosDequantize() {
        QFETCH(QString, name);
        const auto weights = irscope::io::readTensorFile(programPath(name.toStdString() + ".pt2"));
        const auto torchao = irscope::io::readTensorFile(programPath(name.toStdString() + ".dequantized.pt"));
        QCOMPARE(weights.subclasses().size(), torchao.size());
        const auto rebuilt = irscope::exec::withSubclassValues(weights);
        QVERIFY(rebuilt.skipped().empty());
        for (const auto& e : torchao) {
            const at::Tensor* mine = rebuilt.find(e.name);
            QVERIFY2(mine, e.name.c_str());
            QCOMPARE(mine->scalar_type(), e.tensor.scalar_type());
            // Bit for bit although recorded on another machine: dequantizing
            // is elementwise (a cast, a subtraction, a product), each
            // correctly rounded by IEEE on every processor.
            QVERIFY2(at::equal(*mine, e.tensor), e.name.c_str());
        }
    }

    // Bound to the program, every weight is there and no part is "unused in
    // the file": the parts are read through the weight's accessors. What
    // Properties says of the weight comes from the program alone.
    void bindsAndDescribes_data() { cases_data(); }
    void bindsAndDescribes() {
        QFETCH(QString, name);
        const std::string path = programPath(name.toStdString() + ".pt2");
        const irscope::ir::Graph g = irscope::ir::loadGraphFile(path);
        const auto weights = irscope::exec::withSubclassValues(irscope::io::readTensorFile(path));
        const auto binding = irscope::io::bindWeights(g, weights);
        for (const auto& p : binding.problems)
            QFAIL(qPrintable(QString::fromStdString(irscope::io::weightProblemKindName(p.kind)) + ": " +
                             QString::fromStdString(p.message)));
        std::string quantized;  // the first weight the program reads by parts
        for (const auto& node : g.nodes)
            if (quantized.empty() && irscope::ir::isSubclassAccess(node)) quantized = node.inputs[0].name;
        const auto q = irscope::ir::weightQuantization(g, quantized);
        QVERIFY(q);
        QCOMPARE(q->dequantizeNode, int64_t{-1});
        QCOMPARE(q->dtype, std::string("int8"));
        QVERIFY2(
            QString::fromStdString(q->scheme).contains("qdata") && QString::fromStdString(q->scheme).contains("scale"),
            q->scheme.c_str());
        QVERIFY(!q->scaleTensor.empty());
    }

    // A subclass whose layout irscope cannot dequantize is named, with why;
    // its parts stay.
    void unknownLayoutSaysWhy() {
        irscope::io::TensorMap parts;
        parts.insert("w.packed", at::zeros({4, 2}, at::kByte));
        auto layout = std::make_shared<irscope::io::TensorSubclass>();
        layout->type = "torchao.quantization.Int4PackedTensor";
        layout->parts = {"packed"};
        parts.addSubclass({"w", layout, "bfloat16", {4, 4}, "model.pt2"});
        const auto out = irscope::exec::withSubclassValues(parts);
        QVERIFY(!out.find("w"));
        QCOMPARE(out.skipped().size(), size_t{1});
        QVERIFY2(QString::fromStdString(out.skipped()[0].reason).contains("Int4PackedTensor of packed"),
                 out.skipped()[0].reason.c_str());
        QVERIFY(out.find("w.packed"));
    }

    // The quantization debugger pairs each subclass weight with the float
    // weight of its name, and each quantized Linear's last op with the float
    // linear; weight SQNR within 0.01 dB of torchao's compute_error.
    void pairsWithFloatProgram_data() { cases_data(); }
    void pairsWithFloatProgram() {
        QFETCH(QString, name);
        const std::string base = programPath(name.toStdString());
        const irscope::ir::Graph q = irscope::ir::loadGraphFile(base + ".pt2");
        const irscope::ir::Graph f = irscope::ir::loadGraphFile(base + ".float.pt2");
        irscope::io::ReadOptions options;
        irscope::io::selectInputsOf(base + ".pt2", options);
        const auto inputs = irscope::io::readTensorFile(base + ".pt2", options);
        const auto comparison =
            irscope::exec::compareQuantized(q, irscope::io::readTensorFile(base + ".pt2"), f,
                                            irscope::io::readTensorFile(base + ".float.pt2"), inputs, {false});
        QVERIFY2(comparison.problem.empty(), comparison.problem.c_str());
        const nlohmann::json torchao = weightsJson(name.toStdString());
        QCOMPARE(comparison.weights.size(), torchao.size());
        for (const auto& w : comparison.weights) {
            QCOMPARE(w.weight, w.referenceWeight);
            const std::string key = w.weight.substr(2);  // p_up_weight -> up_weight
            bool found = false;
            for (const auto& [weight, info] : torchao.items()) {
                std::string flat = weight;
                std::replace(flat.begin(), flat.end(), '.', '_');
                if (flat != key) continue;
                found = true;
                QVERIFY2(std::abs(w.sqnrDb - info["sqnr_db"].get<double>()) <= 0.01,
                         qPrintable(QString("%1: %2 dB, torchao %3 dB")
                                        .arg(QString::fromStdString(weight))
                                        .arg(w.sqnrDb)
                                        .arg(info["sqnr_db"].get<double>())));
                QCOMPARE(w.axis, int64_t{0});  // per row: block_size [1, K]
                QVERIFY(!w.channelSqnrDb.empty());
            }
            QVERIFY2(found, w.weight.c_str());
        }
        // Every quantized Linear's output is paired with the float linear's.
        int linears = 0;
        for (const auto& p : comparison.pairing.outputs)
            if (p.referenceNode.rfind("linear", 0) == 0) ++linears;
        QCOMPARE(linears, static_cast<int>(torchao.size()));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestSubclassWeights)
#include "test_subclass_weights.moc"
