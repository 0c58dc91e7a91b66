// How quantized weights read back to float, as Properties shows them: the
// int8 conv weights of a PT2E-quantized CNN (tests/data/programs/
// pt2e_static_cnn.pt2, torchao's X86 quantizer) are dequantized per channel
// along axis 0 with scale and zero point buffers of their own; a per-tensor
// dequantize with numbers in its arguments gives the numbers; a weight no
// dequantize reads has no quantization.
#include "core/ir/json_io.h"
#include "core/ir/weight_quantization.h"
#include "test_support.h"

#include <QtTest/QtTest>

using namespace irscope;

class TestWeightQuantization : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aPt2eConvWeightIsPerChannelInt8() {
        const ir::Graph g = ir::loadGraphFile(irscope::test::dataPath("programs/pt2e_static_cnn.pt2"));
        int found = 0;
        for (const auto& [placeholder, original] : g.weightNameMapping) {
            const auto q = ir::weightQuantization(g, placeholder);
            if (!q) continue;
            ++found;
            QCOMPARE(q->dtype, std::string("int8"));
            QCOMPARE(q->scheme, std::string("per channel (axis 0)"));
            QCOMPARE(q->quantMin.value_or(0), int64_t(-128));
            QCOMPARE(q->quantMax.value_or(0), int64_t(127));
            QVERIFY2(q->scaleTensor.find("scale") != std::string::npos, q->scaleTensor.c_str());
            QVERIFY2(q->zeroPointTensor.find("zero_point") != std::string::npos, q->zeroPointTensor.c_str());
            const auto& dq = g.nodes[static_cast<size_t>(q->dequantizeNode)];
            QCOMPARE(dq.opType, std::string("quantized_decomposed.dequantize_per_channel.default"));
            QCOMPARE(dq.inputs.front().name, placeholder);
            // The weight itself is stored as int8.
            bool int8 = false;
            for (const auto& w : g.weights)
                if (w.name == original) int8 = w.dtype == "int8";
            QVERIFY2(int8, original.c_str());
        }
        QVERIFY2(found >= 2, "both conv weights are quantized");
        // Its scales are not quantized weights themselves.
        for (const auto& [placeholder, original] : g.weightNameMapping)
            if (placeholder.find("scale") != std::string::npos) QVERIFY(!ir::weightQuantization(g, placeholder));
    }

    void aPerTensorDequantizeGivesItsNumbers() {
        const char* json = R"({"model_name": "Q", "pytorch_version": "2.13.0",
          "graph_inputs": [], "graph_outputs": [{"name": "dq", "shape": [4], "dtype": "float32",
                                                 "producer_node": "dq", "producer_output_idx": 0}],
          "weights": [{"name": "w", "shape": [4], "dtype": "int8"}],
          "weight_name_mapping": {"b_w": "w"},
          "nodes": [{"name": "dq", "op_type": "quantized_decomposed.dequantize_per_tensor.default",
                     "inputs": [{"name": "b_w", "shape": [4], "dtype": "int8"}],
                     "outputs": [{"name": "dq", "shape": [4], "dtype": "float32"}],
                     "attrs": {"scale": 0.0125, "zero_point": -3, "quant_min": -128, "quant_max": 127,
                               "dtype": "torch.int8"}}]})";
        const ir::Graph g = ir::parseGraph(json, "q.json");
        const auto q = ir::weightQuantization(g, "b_w");
        QVERIFY(q);
        QCOMPARE(q->scheme, std::string("per tensor"));
        QCOMPARE(q->scale.value_or(0), 0.0125);
        QCOMPARE(q->zeroPoint.value_or(0), int64_t(-3));
        QVERIFY(q->scaleTensor.empty());
        QVERIFY(!ir::weightQuantization(g, "nothing"));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestWeightQuantization)
#include "test_weight_quantization.moc"
