// Op families (the drawing's colours) for the op types torch_ir files hold.
#include <QTest>

#include "core/layout/op_family.h"

using namespace irscope::layout;
Q_DECLARE_METATYPE(OpFamily)

class TestOpFamily : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void classify_data() {
        QTest::addColumn<QString>("op");
        QTest::addColumn<OpFamily>("family");
        QTest::newRow("conv2d") << "aten.conv2d.default" << OpFamily::ConvLinear;
        QTest::newRow("linear") << "aten.linear.default" << OpFamily::ConvLinear;
        QTest::newRow("matmul") << "aten.matmul.default" << OpFamily::ConvLinear;
        QTest::newRow("embedding") << "aten.embedding.default" << OpFamily::ConvLinear;
        QTest::newRow("batch_norm") << "aten.batch_norm.default" << OpFamily::Normalization;
        QTest::newRow("bn legit") << "aten._native_batch_norm_legit_no_training.default" << OpFamily::Normalization;
        QTest::newRow("layer_norm") << "aten.layer_norm.default" << OpFamily::Normalization;
        QTest::newRow("vector_norm") << "aten.linalg_vector_norm.default" << OpFamily::Reduction;
        QTest::newRow("relu_") << "aten.relu_.default" << OpFamily::Activation;
        QTest::newRow("softmax") << "aten.softmax.int" << OpFamily::Activation;
        QTest::newRow("silu") << "aten.silu.default" << OpFamily::Activation;
        QTest::newRow("view") << "aten.view.default" << OpFamily::Shape;
        QTest::newRow("getitem") << "<built-in function getitem>" << OpFamily::Shape;
        QTest::newRow("cat") << "aten.cat.default" << OpFamily::Shape;
        QTest::newRow("add") << "aten.add.Tensor" << OpFamily::Elementwise;
        QTest::newRow("mul short") << "mul.Tensor" << OpFamily::Elementwise;
        QTest::newRow("rsqrt") << "aten.rsqrt.default" << OpFamily::Elementwise;
        QTest::newRow("mean") << "aten.mean.dim" << OpFamily::Reduction;
        QTest::newRow("maxpool") << "aten.max_pool2d.default" << OpFamily::Reduction;
        QTest::newRow("sdpa") << "aten.scaled_dot_product_attention.default" << OpFamily::Attention;
        QTest::newRow("arange") << "aten.arange.start" << OpFamily::Other;
    }
    void classify() {
        QFETCH(QString, op);
        QFETCH(OpFamily, family);
        QCOMPARE(classifyOp(op.toStdString()), family);
    }
    void names() {
        QCOMPARE(QString(opFamilyName(OpFamily::ConvLinear)), QString("conv_linear"));
        QCOMPARE(QString(opFamilyName(OpFamily::Other)), QString("other"));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestOpFamily)
#include "test_op_family.moc"
