// `irscope extract` end to end on fixtures made by PyTorch: every module of
// tiny_llama (each layer, its attention, MLP and norms, each linear) cut out
// with the values at the cut, then run on its own against the values the
// whole run produced there, bit for bit; a cut from a dump; cuts of a .pt2
// written as programs (control flow nested to any depth, sizes computed
// inside); and the bad inputs (an unknown node, a file that exists, no
// selection).
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::dataPath;
using irscope::test::irFixture;
using irscope::test::q;
using irscope::test::runIrscope;

namespace {

QStringList values(const QString& model) {
    QStringList v = {"--weights", irFixture(model + ".weights.pt"), "--inputs", irFixture(model + ".inputs.pt")};
    if (QFile::exists(irFixture(model + ".constants.pt"))) v << "--constants" << irFixture(model + ".constants.pt");
    return v;
}

void collectPaths(const QJsonObject& module, QStringList& out) {
    if (!module["path"].toString().isEmpty()) out << module["path"].toString();
    for (const auto& c : module["children"].toArray()) collectPaths(c.toObject(), out);
}

}  // namespace

class TestExtractCommand : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Each module, cut out, runs alone and gives exactly what it gave in the whole graph.
    void everyModuleRunsOnItsOwn() {
        auto modules = runIrscope({"modules", irFixture("tiny_llama.json"), "--json"});
        QCOMPARE(modules.exitCode, 0);
        QStringList paths;
        collectPaths(QJsonDocument::fromJson(modules.out.toUtf8()).object(), paths);
        QVERIFY2(paths.contains("layers.1.self_attn") && paths.contains("layers.0"), qPrintable(paths.join(' ')));
        QTemporaryDir dir;
        int ran = 0;
        for (const QString& path : paths) {
            if (path == "layers") continue;  // the list: the same as both layers, done below as layers.0 and .1
            const QString sub = dir.filePath(path + ".json");
            auto r = runIrscope(QStringList{"extract", irFixture("tiny_llama.json"), "--module", path, "-o", sub} +
                                values("tiny_llama"));
            QVERIFY2(r.exitCode == 0, qPrintable(path + ": " + r.err));
            QVERIFY2(r.out.contains("reproduce: irscope run"), qPrintable(r.out));
            auto v = runIrscope({"validate", sub, "-q"});
            QVERIFY2(v.exitCode == 0, qPrintable(path + ": " + v.out + v.err));
            QStringList again = {"run",         sub,
                                 "--inputs",    dir.filePath(path + ".inputs.pt"),
                                 "--expected",  dir.filePath(path + ".expected.pt"),
                                 "--weights",   irFixture("tiny_llama.weights.pt"),
                                 "--constants", irFixture("tiny_llama.constants.pt"),
                                 "--rtol",      "0",
                                 "--atol",      "0"};
            r = runIrscope(again);
            QVERIFY2(r.exitCode == 0, qPrintable(path + ": " + r.out + r.err));
            ++ran;
        }
        QVERIFY(ran >= 20);
    }

    // From a dump: the path from one node to another in llama_block, checked the same way.
    void cutFromADump() {
        QTemporaryDir dir;
        const QString dump = dir.filePath("dump.pt");
        auto r = runIrscope(QStringList{"run", irFixture("llama_block.json"), "--dump", dump} + values("llama_block"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString sub = dir.filePath("attn.json");
        r = runIrscope({"extract", irFixture("llama_block.json"), "--from", "linear", "--to", "linear_1", "--values",
                        dump, "--inputs", irFixture("llama_block.inputs.pt"), "-o", sub});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject cut = [&] {
            QFile f(sub);
            f.open(QIODevice::ReadOnly);
            return QJsonDocument::fromJson(f.readAll()).object();
        }();
        QCOMPARE(cut["nodes"].toArray().first().toObject()["name"].toString(), QString("linear"));
        QCOMPARE(cut["nodes"].toArray().last().toObject()["name"].toString(), QString("linear_1"));
        r = runIrscope({"run", sub, "--weights", irFixture("llama_block.weights.pt"), "--inputs",
                        dir.filePath("attn.inputs.pt"), "--expected", dir.filePath("attn.expected.pt"), "--rtol", "0",
                        "--atol", "0"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    // A dump is complete: a module whose cut needs graph inputs (the MoE's
    // embedding reads input_ids; a whole layer reads the RoPE tables made
    // from them) extracts from the dump alone, no --inputs, and reruns bit
    // for bit. Before, the dump held node outputs only and extract refused.
    void moduleFromADumpAlone() {
        QTemporaryDir dir;
        const QString dump = dir.filePath("dump.pt");
        auto r = runIrscope(QStringList{"run", irFixture("tiny_moe.json"), "--dump", dump} + values("tiny_moe"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const QString module : {"embed_tokens", "layers.0"}) {
            const QString sub = dir.filePath(module + ".json");
            r = runIrscope({"extract", irFixture("tiny_moe.json"), "--module", module, "--values", dump, "-o", sub});
            QVERIFY2(r.exitCode == 0, qPrintable(module + ": " + r.out + r.err));
            r = runIrscope({"run", sub, "--weights", irFixture("tiny_moe.weights.pt"), "--constants",
                            irFixture("tiny_moe.constants.pt"), "--inputs", dir.filePath(module + ".inputs.pt"),
                            "--expected", dir.filePath(module + ".expected.pt"), "--rtol", "0", "--atol", "0"});
            QVERIFY2(r.exitCode == 0, qPrintable(module + ": " + r.out + r.err));
        }
    }

    // A cut holding a higher-order op is written as a program (a torch_ir
    // JSON holds no subgraph): for every higher-order op of the nested
    // corpus and of the control-flow fixtures, `-o SUB.json` becomes SUB.pt2,
    // and the reproduce line it prints runs and matches the whole program's
    // own values at the cut, exactly (the cut runs the same kernels on the
    // same values). The torch2 stage loads the same cuts with
    // torch.export.load (tests/python/test_program_cuts.py).
    void cutsHoldingControlFlowAreProgramsThatRun() {
        const QList<QPair<QString, QString>> cases = {
            {"nested/branch_in_loop.pt2", "while_loop"},     {"nested/branch_in_branch.pt2", "cond"},
            {"nested/branch_in_map.pt2", "map_impl"},        {"nested/loop_in_branch.pt2", "cond"},
            {"nested/loop_in_loop.pt2", "while_loop"},       {"nested/scan_in_branch.pt2", "cond"},
            {"programs/while_loop_count.pt2", "while_loop"}, {"programs/scan_cumulative.pt2", "scan"},
            {"programs/cond_branches.pt2", "cond"}};
        for (const auto& [file, node] : cases) {
            QTemporaryDir dir;
            const QString pt2 = q(dataPath(file.toStdString()));
            const QString sub = dir.filePath("cut.json");
            auto r = runIrscope({"extract", pt2, "--nodes", node, "-o", sub, "--weights", pt2, "--inputs", pt2});
            QVERIFY2(r.exitCode == 0, qPrintable(file + ": " + r.out + r.err));
            QVERIFY2(!QFile::exists(sub) && QFile::exists(dir.filePath("cut.pt2")), qPrintable(file + ": " + r.out));
            QVERIFY2(r.out.contains("a torch_ir JSON holds no subgraph"), qPrintable(r.out));
            const QString line = r.out.section("reproduce: irscope ", 1).trimmed();
            QVERIFY2(line.startsWith("run " + dir.filePath("cut.pt2")) && !line.contains("--weights"),
                     qPrintable(file + ": " + r.out));
            r = runIrscope(line.split(' ') + QStringList{"--rtol", "0", "--atol", "0"});
            QVERIFY2(r.exitCode == 0 && r.out.contains(": OK"), qPrintable(file + ": " + r.out + r.err));
            QVERIFY2(r.out.contains(node + " ("), qPrintable(file + ": the cut does not run " + node + "\n" + r.out));
        }
    }

    // A size the cut reads is computed inside it, from the tensor it is the
    // size of (a program's inputs are tensors): a dynamic-shape head reshape
    // cut alone runs at another sequence length than the export's.
    void programCutsComputeTheirSizes() {
        QTemporaryDir dir;
        const QString pt2 = q(dataPath("programs/dynamic_seq_llama.pt2"));
        const QString sub = dir.filePath("heads.pt2");
        auto r = runIrscope(
            {"extract", pt2, "--nodes", "linear,view,transpose", "-o", sub, "--weights", pt2, "--inputs", pt2});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("sym_size_int_1"), qPrintable(r.out));
        r = runIrscope(
            {"run", sub, "--inputs", dir.filePath("heads.inputs.pt"), "--expected", dir.filePath("heads.expected.pt")});
        QVERIFY2(r.exitCode == 0 && r.out.contains("output transpose: OK"), qPrintable(r.out + r.err));
        // From a torch_ir JSON there is no program to cut.
        r = runIrscope({"extract", irFixture("llama_block.json"), "--nodes", "linear", "-o", dir.filePath("x.pt2")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("only a cut of a .pt2"), qPrintable(r.err));
    }

    void refusesBadInput() {
        QTemporaryDir dir;
        const QString sub = dir.filePath("s.json");
        auto r = runIrscope({"extract", irFixture("llama_block.json"), "--nodes", "linear,nope", "-o", sub});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no node named 'nope'"), qPrintable(r.err));
        QVERIFY(!QFile::exists(sub));
        r = runIrscope({"extract", irFixture("llama_block.json"), "-o", sub});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("one way"), qPrintable(r.err));
        r = runIrscope({"extract", irFixture("llama_block.json"), "--module", "nowhere", "-o", sub});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no module 'nowhere'"), qPrintable(r.err));

        // An existing file stays as it was unless --force.
        QFile f(sub);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("mine");
        f.close();
        r = runIrscope({"extract", irFixture("llama_block.json"), "--nodes", "linear", "-o", sub});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("exists; pass --force"), qPrintable(r.err));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("mine"));
        f.close();
        r = runIrscope({"extract", irFixture("llama_block.json"), "--nodes", "linear", "-o", sub, "--force", "-q"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("\"graph_inputs\""));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestExtractCommand)
#include "test_extract_command.moc"
