// The quantization debugger against PyTorch's own numbers: four PT2E-quantized
// programs (a CNN, a decoder block, an MLP static and dynamic; torchao's X86
// quantizer) and their float programs (tests/data/quantization/, made by
// make_quantization_cases.py, which also ran both programs in PyTorch, node by
// node, and recorded each paired tensor's SQNR and the sensitivity of each
// activation). irscope's per-tensor SQNR and output SQNR are within 0.1 dB of
// PyTorch's, its sensitivity list has the same order within 0.1 dB, every
// unpaired node says why, and each int8 weight read back is measured against
// its float weight per channel. The CNN's batch norms have statistics of their
// own: the conv PT2E folded one into stands for the norm's output, and its
// weight is compared with the float weight scaled by the norm.
#include "test_support.h"

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/exec/reference/quantization_compare.h"
#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/tensor_file.h"
#include "core/ir/json_io.h"

#include <QtTest/QtTest>

using namespace irscope;
using namespace irscope::exec;

namespace {

double dbOf(const nlohmann::json& v) { return v.is_string() ? INFINITY : v.get<double>(); }

bool withinTenthDb(double a, double b) { return (std::isinf(a) && std::isinf(b)) || std::abs(a - b) <= 0.1; }

struct QuantizationCase {
    std::string name;
    ir::Graph quantized, reference;
    io::TensorMap quantizedWeights, referenceWeights, inputs;
    nlohmann::json torch;
    explicit QuantizationCase(const std::string& n) : name(n) {
        const std::string base = irscope::test::dataPath("quantization/" + n);
        quantized = ir::loadGraphFile(base + ".pt2");
        reference = ir::loadGraphFile(base + ".float.pt2");
        quantizedWeights = io::readTensorFile(base + ".pt2");
        referenceWeights = io::readTensorFile(base + ".float.pt2");
        io::ReadOptions options;
        io::selectInputsOf(base + ".pt2", options);
        inputs = io::readTensorFile(base + ".pt2", options);
        std::ifstream f(base + ".torch.json");
        torch = nlohmann::json::parse(f);
    }
};

}  // namespace

class TestQuantizationCompare : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesPyTorch_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"pt2e_static_cnn", "pt2e_static_decoder", "pt2e_static_mlp", "pt2e_dynamic_mlp"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }
    void matchesPyTorch() {
        QFETCH(QString, name);
        const QuantizationCase c(name.toStdString());
        const QuantizationComparison r =
            compareQuantized(c.quantized, c.quantizedWeights, c.reference, c.referenceWeights, c.inputs);
        QVERIFY2(r.problem.empty(), r.problem.c_str());

        // Every tensor PyTorch paired, irscope paired and measured alike.
        const auto& expected = c.torch["nodes"];
        int matched = 0;
        for (const auto& e : r.nodes) {
            if (!expected.contains(e.output)) continue;
            const double want = dbOf(expected[e.output]);
            QVERIFY2(withinTenthDb(e.sqnrDb, want),
                     qPrintable(QString("%1: %2 dB, PyTorch %3 dB").arg(e.output.c_str()).arg(e.sqnrDb).arg(want)));
            ++matched;
        }
        QCOMPARE(matched, static_cast<int>(expected.size()));
        QVERIFY(withinTenthDb(r.outputSqnrDb, dbOf(c.torch["output_sqnr_db"])));

        // What to keep in float: the same order as PyTorch's reruns, the same SQNR.
        const auto& sensitivity = c.torch["sensitivity"];
        QCOMPARE(r.sensitivity.size(), sensitivity.size());
        for (size_t k = 0; k < r.sensitivity.size(); ++k) {
            QCOMPARE(r.sensitivity[k].quantize, sensitivity[k][0].get<std::string>());
            QVERIFY2(withinTenthDb(r.sensitivity[k].outputSqnrDb, dbOf(sensitivity[k][1])),
                     r.sensitivity[k].quantize.c_str());
        }

        // Nodes left unpaired say why; quantize nodes are compared after their dequantize.
        for (const auto& u : r.pairing.unpaired) QVERIFY(!u.reason.empty());
        // Each int8 weight is its float weight read back, per channel on the static programs.
        QVERIFY(!r.weights.empty());
        for (const auto& w : r.weights) {
            QVERIFY2(!w.referenceWeight.empty(), w.weight.c_str());
            QVERIFY2(w.sqnrDb > 25 && w.sqnrDb < 80,
                     qPrintable(QString("%1: %2 dB").arg(w.weight.c_str()).arg(w.sqnrDb)));
            if (w.axis >= 0) QVERIFY(!w.channelSqnrDb.empty());
        }
    }

    // A weight with one channel spoiled: named as the outlier.
    void anOutlierChannelIsNamed() {
        QuantizationCase c("pt2e_static_mlp");
        const QuantizationComparison clean =
            compareQuantized(c.quantized, c.quantizedWeights, c.reference, c.referenceWeights, c.inputs, {false});
        QVERIFY(!clean.weights.empty());
        const std::string floatWeight = clean.weights.front().referenceWeight;
        // The float program's placeholder -> its state_dict name.
        std::string original;
        for (const auto& [placeholder, orig] : c.reference.weightNameMapping)
            if (placeholder == floatWeight) original = orig;
        const at::Tensor* w = c.referenceWeights.find(original);
        QVERIFY2(w, original.c_str());
        at::Tensor spoiled = w->clone();
        spoiled.select(0, 3).mul_(1.5);  // channel 3 no longer what the int8 weight was made from
        c.referenceWeights.insert(original, spoiled);
        const QuantizationComparison r =
            compareQuantized(c.quantized, c.quantizedWeights, c.reference, c.referenceWeights, c.inputs, {false});
        QVERIFY(!r.weights.empty());
        QCOMPARE(r.weights.front().outlierChannels, std::vector<int64_t>{3});
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestQuantizationCompare)
#include "test_quantization_compare.moc"
