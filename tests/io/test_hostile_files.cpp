// Hostile pickles: every one must be refused with a message naming the
// global or opcode, and nothing in them may ever run (the marker file their
// payloads would create must never appear).
#include <filesystem>

#include "core/io/catalog/pickle_tree.h"
#include "core/io/catalog/unpickler.h"
#include "core/io/tensor_file.h"
#include "tensor_test_util.h"

#include <QtTest/QtTest>

using namespace irscope::io;
using namespace irscope::io::test;

namespace {

// Pickle bytes with embedded NULs.
template <size_t N>
std::string bytes(const char (&literal)[N]) {
    return std::string(literal, N - 1);
}

const char* kMarker = "/tmp/irscope-pwned-marker";  // the path make_tensor_fixtures.py's payloads target

std::string refusal(const std::string& pickle) {
    try {
        unpickle(pickle);
    } catch (const FormatError& e) {
        return e.what();
    }
    return {};
}

}  // namespace

class TestHostileFiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { std::filesystem::remove(kMarker); }
    void cleanup() { QVERIFY2(!std::filesystem::exists(kMarker), "a payload ran"); }

    void refusedFixtures_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("reason");
        QTest::newRow("os.system") << "evil_os_system.pt"
                                   << "refused global 'posix.system'";
        QTest::newRow("eval") << "evil_eval.pt"
                              << "refused global 'builtins.eval'";
        // Protocol 2 writes Python 2 names (commands.Popen); named as Python 3 resolves them.
        QTest::newRow("subprocess") << "evil_subprocess.pt"
                                    << "refused global 'subprocess.Popen'";
        QTest::newRow("exec, protocol 4") << "evil_exec_proto4.pt"
                                          << "refused global 'builtins.exec'";
        QTest::newRow("newobj") << "evil_newobj.pt"
                                << "refused global '__main__.EvilNewObj'";
        QTest::newRow("legacy os.system") << "evil_legacy.pt"
                                          << "refused global 'posix.system'";
        QTest::newRow("whole module") << "whole_module.pt"
                                      << "save model.state_dict() instead";
    }
    void refusedFixtures() {
        QFETCH(QString, file);
        QFETCH(QString, reason);
        const std::string path = fixture(file.toStdString());
        try {
            readTensorFile(path);
            QFAIL("a hostile file was accepted");
        } catch (const TensorFileError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ": pickle: "), e.what());
            QVERIFY2(QString(e.what()).contains(reason), e.what());
        }
    }

    void refusedOpcodes_data() {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<QString>("reason");
        auto row = [](const char* name, const std::string& p, const char* reason) {
            QTest::newRow(name) << QByteArray::fromStdString(p) << QString(reason);
        };
        row("NEWOBJ on an allowed class",
            "\x80\x02"
            "ccollections\nOrderedDict\n)\x81.",
            "refused NEWOBJ of global collections.OrderedDict");
        row("NEWOBJ on a refused class",
            "\x80\x02"
            "cos\nsystem\n)\x81.",
            "refused global 'os.system'");
        row("torchao subclass rebuilt by another function",
            "\x80\x02"
            "ctorch._tensor\n_rebuild_from_type_v2\n(ctorch._utils\n_rebuild_tensor_v2\n"
            "ctorchao.quantization\nInt8Tensor\n)}tR.",
            "not torch._utils._rebuild_wrapper_subclass");
        row("subclass of another library",
            "\x80\x02"
            "cmylib\nMyTensor\n.",
            "refused global 'mylib.MyTensor'");
        row("INST", "(ios\nsystem\n.", "refused opcode INST");
        row("OBJ", "(cos\nsystem\no.", "refused global 'os.system'");
        row("text INT", "I1\n.", "refused opcode INT");
        row("EXT1", "\x82\x01.", "refused opcode EXT1");
        row("invalid opcode", "\xff.", "invalid pickle opcode 0xff");
        row("quantized tensor", "ctorch._utils\n_rebuild_qtensor\n.", "quantized");
        row("REDUCE on a tuple", "))R.", "REDUCE on a tuple");
        row("BUILD on a list", "]}b.", "refused BUILD on a list");
        row("module persistent id",
            bytes("(X\x06\x00\x00\x00moduleX\x01\x00\x00\x00"
                  "at\x51."),
            "not a storage reference");
        row("storage class called", "ctorch\nFloatStorage\n)R.", "refused call of 'torch.FloatStorage'");
        row("v2 on a bad storage",
            bytes("ctorch._utils\n_rebuild_tensor_v2\n(NK\x00)))\x89}t"
                  "R."),
            "must be a storage");
        row("codecs other encoding",
            bytes("c_codecs\nencode\nX\x01\x00\x00\x00"
                  "aX\x05\x00\x00\x00rot13\x86R."),
            "encoding 'rot13'");
        row("empty", "", "truncated");
        row("no STOP", "\x80\x02N", "truncated");
        row("STOP on empty stack", ".", "STOP with 0 values");
        row("huge string claim", "X\xff\xff\xff\xff", "truncated");
        row("huge BINUNICODE8 claim", std::string("\x8d\xff\xff\xff\xff\xff\xff\xff\x7f", 9), "truncated");
        row("missing memo", "h\x07.", "memo entry 7 was never stored");
        row("pop empty", "0.", "POP on an empty stack");
        row("APPEND without list", "NNa.", "APPEND on a None");
        row("odd SETITEMS", "}(Nu.", "odd number");
        row("pop below MARK", "N(0.", "POP on an empty stack");
    }
    void refusedOpcodes() {
        QFETCH(QByteArray, pickle);
        QFETCH(QString, reason);
        std::string why = refusal(pickle.toStdString());
        QVERIFY2(QString::fromStdString(why).contains(reason), why.c_str());
    }

    // Structures that would blow the stack or the clock of a naive reader.
    void deepNestingIsHarmless() {
        std::string p = "N" + std::string(1'000'000, '\x85') + ".";  // 1M nested 1-tuples
        UnpickleResult r = unpickle(p);
        QVERIFY_THROWS_EXCEPTION(FormatError, collectTensors(r.arena, r.root, "", "x"));
    }
    void memoFanOutIsLinear() {
        // L(k+1) = [L(k), L(k)]: 2^200 paths through 200 lists.
        std::string p = bytes(
            "]q\x00"
            "0");
        for (int k = 0; k < 200; ++k)
            p += bytes(
                "(h\x00h\x00lq\x00"
                "0");
        p += bytes("h\x00.");
        UnpickleResult r = unpickle(p);
        QElapsedTimer timer;
        timer.start();
        try {
            collectTensors(r.arena, r.root, "", "x");
        } catch (const FormatError&) {
            // Too deep is a fine answer too; hanging is not.
        }
        QVERIFY(timer.elapsed() < 1000);
    }
    void selfWrappingTensorIsRefused() {
        // L = [_rebuild_from_type_v2, torch.Tensor, L, None]; REDUCE(_rebuild_from_type_v2, L)
        // would unwrap L forever.
        const std::string p = bytes(
            "ctorch._tensor\n_rebuild_from_type_v2\nq\x00"
            "]q\x01(h\x00"
            "ctorch\nTensor\nh\x01Ne0"
            "h\x00h\x01R.");
        const std::string why = refusal(p);
        QVERIFY2(why.find("nested more than 4 deep") != std::string::npos, why.c_str());
    }

    void cycleIsHarmless() {
        UnpickleResult r =
            unpickle(bytes("]q\x00h\x00"
                           "a."));
        QCOMPARE(collectTensors(r.arena, r.root, "", "x").size(), size_t(0));
    }
    void largeMemoIndexAllocatesNothing() {
        UnpickleResult r = unpickle(std::string("Nr\xff\xff\xff\xff.", 7));
        QCOMPARE(r.root.kind, PickleValue::Kind::None);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestHostileFiles)
#include "test_hostile_files.moc"
