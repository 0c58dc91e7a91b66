// torch.export programs with what pytorch-ir's JSON cannot hold
// (tests/data/programs/, written by make_programs.py on PyTorch 2.13):
// PT2E-quantized programs, control flow (cond, while_loop, scan, map) and
// autocast / no_grad regions, dynamic shapes, float16 and bfloat16, an
// explicit None, a custom op, damaged archives. Each runnable program runs with no other file to the
// module's own outputs (NAME.expected.pt, computed by PyTorch), within
// assert_close's defaults for its dtype, on both libtorches. On the build
// against PyTorch 2.x the outputs are also PyTorch's bit for bit, computed on
// this machine at test time (make_torch_reference.py, CTest fixture
// cli.torch_reference; IRSCOPE_TORCH_REFERENCE names its folder).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::CliResult;
using irscope::test::dataPath;
using irscope::test::q;
using irscope::test::runIrscope;

namespace {

QString programFile(const QString& file) { return q(dataPath("programs/" + file.toStdString())); }

QJsonArray programManifest() {
    QFile f(programFile("manifest.json"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).array();
}

QString explainProgramRun(const CliResult& r) {
    return "exit " + QString::number(r.exitCode) + "\n" + r.out + "\n" + r.err;
}

// Programs irscope refuses, and the words its refusal must contain: it stops
// at that node and says why, never runs it wrong.
struct RefusedProgram {
    const char* name;
    const char* says;
};
constexpr RefusedProgram kRefusedPrograms[] = {
    // A user's own op: its kernel lives in the code that registered it.
    {"custom_op", "'irscope_test::scaled_add' is a custom op"},
};

const RefusedProgram* refusedProgram(const QString& name) {
    for (const auto& r : kRefusedPrograms)
        if (name == r.name) return &r;
    return nullptr;
}

}  // namespace

// A mismatch on a libtorch other than the one the expected values came from
// is accepted where the case ships PyTorch's intermediates and irscope, given
// them, names the first divergence a flipped decision or float noise (int8
// activations rounded at a tie after a last-bit difference: make_torchao_programs.py).
bool explainedOnOtherLibtorch(const QString& name, const QStringList& inputs, const QString& intermediates) {
    if (IRSCOPE_LIBTORCH_MAJOR >= 2 || !QFile::exists(programFile(name + intermediates))) return false;
    const CliResult e = runIrscope(
        QStringList{"run", programFile(name + ".pt2"), "--reference-intermediates", programFile(name + intermediates)} +
        inputs);
    const bool explained = e.out.contains("that is a flipped decision") || e.out.contains("that is float noise");
    if (!explained) qWarning("%s", qPrintable(explainProgramRun(e)));
    return explained;
}

class TestPt2Programs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void corpusIsThere() {
        QVERIFY2(programManifest().size() >= 17, "tests/data/programs/manifest.json: run make_programs.py");
    }

    void programs_data() {
        QTest::addColumn<QString>("name");
        for (const auto& v : programManifest()) {
            const QString name = v.toObject()["name"].toString();
            QTest::newRow(qPrintable(name)) << name;
        }
    }

    // The archive alone: its weights, constants and example inputs; then the
    // second input set where the case has one.
    void programs() {
        QFETCH(QString, name);
        const CliResult v = runIrscope({"validate", programFile(name + ".pt2")});
        QVERIFY2(v.exitCode == 0, qPrintable(explainProgramRun(v)));
        const CliResult r =
            runIrscope({"run", programFile(name + ".pt2"), "--expected", programFile(name + ".expected.pt")});
        if (const RefusedProgram* why = refusedProgram(name)) {
            QVERIFY2(r.exitCode != 0, qPrintable(explainProgramRun(r)));
            QVERIFY2((r.out + r.err).contains(why->says), qPrintable(explainProgramRun(r)));
            return;
        }
        QVERIFY2((r.exitCode == 0 && r.out.contains(": OK") && !r.out.contains("MISMATCH")) ||
                     explainedOnOtherLibtorch(name, {}, ".intermediates.pt"),
                 qPrintable(explainProgramRun(r)));
        const QString dir = qEnvironmentVariable("IRSCOPE_TORCH_REFERENCE");
        const bool machineReference = IRSCOPE_LIBTORCH_MAJOR >= 2 && !dir.isEmpty();
        if (QFile::exists(programFile(name + ".inputs_b.pt"))) {
            // Where PyTorch ran here, its numbers for this input set are the
            // reference, bit for bit; the recorded ones came from another
            // processor, whose kernels round otherwise (a quantized
            // activation one step apart, -127 for -128, is 0.002 at the output).
            const QString reference = dir + "/" + name + ".torch_b.pt";
            if (machineReference) QVERIFY2(QFile::exists(reference), qPrintable(reference + " was not computed"));
            const CliResult b = runIrscope(
                QStringList{"run", programFile(name + ".pt2"), "--inputs", programFile(name + ".inputs_b.pt"),
                            "--expected", machineReference ? reference : programFile(name + ".expected_b.pt")} +
                (machineReference ? QStringList{"--rtol", "0", "--atol", "0"} : QStringList{}));
            QVERIFY2((b.exitCode == 0 && b.out.contains(": OK")) ||
                         explainedOnOtherLibtorch(name, {"--inputs", programFile(name + ".inputs_b.pt")},
                                                  ".intermediates_b.pt"),
                     qPrintable(explainProgramRun(b)));
        }
        // PyTorch's own numbers, bit for bit, where they were computed here.
        if (machineReference) {
            const QString reference = dir + "/" + name + ".torch.pt";
            QVERIFY2(QFile::exists(reference), qPrintable(reference + " was not computed"));
            const CliResult e =
                runIrscope({"run", programFile(name + ".pt2"), "--expected", reference, "--rtol", "0", "--atol", "0"});
            QVERIFY2(e.exitCode == 0, qPrintable(explainProgramRun(e)));
        }
    }

    // Control flow runs as PyTorch runs it: cond takes the branch its
    // predicate picks (each input set picks another), loops run their body
    // until their condition or their input ends.
    void controlFlowSaysWhatItDid() {
        const CliResult a = runIrscope({"run", programFile("cond_branches.pt2")});
        QVERIFY2(a.exitCode == 0 && a.out.contains("cond (cond) took true_graph_0"), qPrintable(explainProgramRun(a)));
        const CliResult b =
            runIrscope({"run", programFile("cond_branches.pt2"), "--inputs", programFile("cond_branches.inputs_b.pt")});
        QVERIFY2(b.exitCode == 0 && b.out.contains("cond (cond) took false_graph_0"), qPrintable(explainProgramRun(b)));
        const CliResult w = runIrscope({"run", programFile("while_loop_count.pt2")});
        QVERIFY2(w.exitCode == 0 && w.out.contains("while_loop (while_loop) ran its body 5 times"),
                 qPrintable(explainProgramRun(w)));
        const CliResult s = runIrscope({"run", programFile("scan_cumulative.pt2")});
        QVERIFY2(s.exitCode == 0 && s.out.contains("scan (scan) ran its body 5 times"),
                 qPrintable(explainProgramRun(s)));
        // validate has nothing to say of a higher-order op whose subgraphs the archive holds.
        const CliResult v = runIrscope({"validate", programFile("cond_branches.pt2")});
        QVERIFY2(v.exitCode == 0 && !(v.out + v.err).contains("higher-order"), qPrintable(explainProgramRun(v)));
    }

    // PT2E's quantize / dequantize ops run natively; the model keeps its
    // class name (torch.export wraps it in a local class of its own).
    void quantizedProgramsKeepTheirNames() {
        const CliResult info = runIrscope({"info", programFile("pt2e_static_cnn.pt2")});
        QVERIFY2(info.exitCode == 0, qPrintable(explainProgramRun(info)));
        QVERIFY2(info.out.startsWith("Model: SmallCNN\n"), qPrintable(explainProgramRun(info)));
        QVERIFY2(info.out.contains("quantized_decomposed.dequantize_per_channel.default: 3"), qPrintable(info.out));
        // The folded weights are int8 and stay int8.
        const CliResult t = runIrscope({"tensors", programFile("pt2e_static_cnn.pt2")});
        QVERIFY2(t.exitCode == 0, qPrintable(explainProgramRun(t)));
        QVERIFY2(QRegularExpression("_frozen_param0\\s+int8\\s+\\[8, 3, 3, 3\\]").match(t.out).hasMatch(),
                 qPrintable(t.out));
    }

    // clamp(min=None, max=t): the archive says which bound the tensor is,
    // so it runs as written (pytorch-ir's JSON of it stays ambiguous).
    void explicitNoneIsHonoured() {
        const CliResult r = runIrscope({"run", programFile("clamp_explicit_none.pt2"), "--expected",
                                        programFile("clamp_explicit_none.expected.pt")});
        QVERIFY2(r.exitCode == 0 && !r.out.contains("ambiguous"), qPrintable(explainProgramRun(r)));
        const CliResult v = runIrscope({"validate", programFile("clamp_explicit_none.pt2")});
        QVERIFY2(v.exitCode == 0 && !(v.out + v.err).contains("ambiguous"), qPrintable(explainProgramRun(v)));
    }

    // On libtorch 1.13 (no CPU half matmul) the float16 nodes compute in
    // float32 on their rounded inputs and say so; on 2.x they need not.
    void halfPrecisionRunsEverywhere() {
        const CliResult r =
            runIrscope({"run", programFile("float16_mlp.pt2"), "--expected", programFile("float16_mlp.expected.pt")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(": OK"), qPrintable(explainProgramRun(r)));
        if (IRSCOPE_LIBTORCH_MAJOR < 2)
            QVERIFY2(r.out.contains("computed in float32 on their rounded inputs") && r.out.contains("linear"),
                     qPrintable(explainProgramRun(r)));
    }

    // A dynamic-shape program: its symbols by name with their ranges, sizes
    // as edges, and inputs outside a range or a specialized dim refused
    // before the run, naming the symbol, its range and the input.
    void dynamicShapes() {
        const CliResult info = runIrscope({"info", programFile("dynamic_seq_llama.pt2")});
        QVERIFY2(info.exitCode == 0, qPrintable(explainProgramRun(info)));
        QVERIFY2(info.out.contains("  ids: [1, s27]\n") && info.out.contains("  linear_14: [1, s27, 64]\n") &&
                     info.out.contains("Symbols:\n  s27 \u2208 [2, 256]\n"),
                 qPrintable(info.out));
        const CliResult mermaid = runIrscope({"mermaid", programFile("dynamic_seq_llama.pt2")});
        QVERIFY2(mermaid.out.contains("op_sym_size_int_1 -->|\"\"| op_arange") &&
                     mermaid.out.contains("op_sym_size_int_1 -->|\"\"| op_view"),
                 qPrintable(mermaid.out.left(2000)));
        const CliResult tooLong = runIrscope({"run", programFile("dynamic_seq_llama.pt2"), "--inputs",
                                              programFile("dynamic_seq_llama.refused_long.pt")});
        QVERIFY2(tooLong.exitCode == 2 && tooLong.err.contains("input 'ids' has shape [1, 300]: 300 at dim 1 is "
                                                               "outside s27 \u2208 [2, 256]"),
                 qPrintable(explainProgramRun(tooLong)));
        QVERIFY2(!tooLong.out.contains("ran "), qPrintable(explainProgramRun(tooLong)));  // refused before the run
        const CliResult batch = runIrscope({"run", programFile("dynamic_seq_llama.pt2"), "--inputs",
                                            programFile("dynamic_seq_llama.refused_batch.pt")});
        QVERIFY2(batch.exitCode == 2 && batch.err.contains("2 at dim 0, where the program was exported for 1 only"),
                 qPrintable(explainProgramRun(batch)));
    }

    void refusedInputs_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("says");
        QFile f(programFile("refused.json"));
        QVERIFY2(f.open(QIODevice::ReadOnly), "tests/data/programs/refused.json: run make_sized_programs.py");
        const QJsonObject refused = QJsonDocument::fromJson(f.readAll()).object();
        for (auto it = refused.begin(); it != refused.end(); ++it)
            QTest::newRow(qPrintable(it.key())) << it.key() << it.value().toString();
    }

    // Inputs a program refuses: a size outside its symbol's range (a derived
    // one included: an odd length where the program was exported for 2 * s)
    // before the run; a failing runtime check (torch._check on a value read
    // with .item()) at its node, with the assertion's own words. Exit 2 either way.
    void refusedInputs() {
        QFETCH(QString, file);
        QFETCH(QString, says);
        const QString program = file.left(file.indexOf(".refused_")) + ".pt2";
        const CliResult r = runIrscope({"run", programFile(program), "--inputs", programFile(file)});
        QVERIFY2(r.exitCode == 2 && r.err.contains(says), qPrintable(explainProgramRun(r)));
        QVERIFY2(!(r.out + r.err).contains("custom op") && !(r.out + r.err).contains("value(s) missing"),
                 qPrintable(explainProgramRun(r)));
    }

    void damagedArchives_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("says");
        QTest::newRow("weight file removed") << "damaged_weight_file"
                                             << "mlp_float/data/weights/weight_0";
        QTest::newRow("weights config removed") << "damaged_weights_config"
                                                << "mlp_float/data/weights/model_weights_config.json is missing";
        QTest::newRow("weights config cut short") << "damaged_config_json"
                                                  << "model_weights_config.json: not JSON";
    }

    // A damaged archive is called damaged, with the entry, by validate and run.
    void damagedArchives() {
        QFETCH(QString, name);
        QFETCH(QString, says);
        const CliResult v = runIrscope({"validate", programFile(name + ".pt2")});
        QVERIFY2(v.exitCode == 1, qPrintable(explainProgramRun(v)));
        QVERIFY2((v.out + v.err).contains("the archive is damaged") && (v.out + v.err).contains(says),
                 qPrintable(explainProgramRun(v)));
        const CliResult r = runIrscope({"run", programFile(name + ".pt2")});
        QVERIFY2(r.exitCode != 0, qPrintable(explainProgramRun(r)));
        QVERIFY2(r.err.contains("the archive is damaged") && r.err.contains(says) && !r.err.contains("values missing"),
                 qPrintable(explainProgramRun(r)));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestPt2Programs)
#include "test_pt2_programs.moc"
