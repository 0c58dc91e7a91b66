// Python tracebacks as torch.export records them in a node's stack_trace:
// frames parsed, and the frame shown in Properties is the innermost one in
// the user's own code, not in PyTorch's modules. Expected values are read
// off the traceback text by hand.
#include "core/ir/stack_trace.h"

#include <QtTest/QtTest>

using namespace irscope::ir;

class TestStackTrace : public QObject {
    Q_OBJECT

    static constexpr const char* kTrace =
        "File \"/home/me/proj/model.py\", line 42, in forward\n"
        "    x = self.proj(x)\n"
        "File \"/home/me/proj/blocks.py\", line 7, in forward\n"
        "    return self.lin(x) * 2\n"
        "File \"/venv/lib/python3.11/site-packages/torch/nn/modules/linear.py\", line 134, in forward\n"
        "    return F.linear(input, self.weight, self.bias)";

private Q_SLOTS:
    void framesInOrder() {
        const auto frames = parseStackTrace(kTrace);
        QCOMPARE(frames.size(), size_t(3));
        QCOMPARE(frames[0].file, std::string("/home/me/proj/model.py"));
        QCOMPARE(frames[0].line, int64_t(42));
        QCOMPARE(frames[0].function, std::string("forward"));
        QCOMPARE(frames[0].code, std::string("x = self.proj(x)"));
        QCOMPARE(frames[2].line, int64_t(134));
        QCOMPARE(frames[2].code, std::string("return F.linear(input, self.weight, self.bias)"));
    }
    void userFrameSkipsPytorchsOwnFiles() {
        const auto f = userFrame(kTrace);
        QVERIFY(f);
        QCOMPARE(f->file, std::string("/home/me/proj/blocks.py"));
        QCOMPARE(f->line, int64_t(7));
        QCOMPARE(f->code, std::string("return self.lin(x) * 2"));
    }
    void onlyPytorchFramesGiveTheInnermost() {
        const auto f = userFrame(
            "File \"/x/site-packages/torch/nn/modules/linear.py\", line 134, in forward\n    return F.linear(a)");
        QVERIFY(f);
        QCOMPARE(f->line, int64_t(134));
    }
    void emptyOrForeignTextHasNoFrame() {
        QVERIFY(!userFrame(""));
        QVERIFY(!userFrame("Traceback (most recent call last):\nnothing here"));
        QVERIFY(parseStackTrace("File \"a.py\", line x, in f").empty());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestStackTrace)
#include "test_stack_trace.moc"
