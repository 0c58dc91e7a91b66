// The info / mermaid / validate commands as a user runs them: output, files,
// exit codes and messages.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/cli_runner.h"
#include "test_support.h"

using irscope::test::dataPath;
using irscope::test::q;
using irscope::test::readFile;
using irscope::test::runIrscope;

class TestIrCommands : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void versionAndHelp() {
        auto r = runIrscope({"--version"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("irscope "));
        r = runIrscope({"--help"});
        QCOMPARE(r.exitCode, 0);
        for (const char* command : {"info", "mermaid", "validate"}) QVERIFY2(r.out.contains(command), command);
        for (const char* command : {"info", "mermaid", "validate"}) {
            r = runIrscope({command, "--help"});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.startsWith(QString("Usage: irscope ") + command));
        }
    }

    void usageErrorsAreOneLineAndExit2() {
        for (const QStringList& args : {QStringList{"info"}, QStringList{"info", "a.json", "--bogus"},
                                        QStringList{"mermaid", "x.json", "--max-nodes", "ten"},
                                        QStringList{"mermaid", "x.json", "--max-nodes"}, QStringList{"frobnicate"}}) {
            const auto r = runIrscope(args);
            QCOMPARE(r.exitCode, 2);
            QCOMPARE(r.err.count('\n'), 1);
            QVERIFY(r.out.isEmpty());
        }
    }

    void infoPrintsPytorchIrLayout() {
        const auto r = runIrscope({"info", q(dataPath("seeds/SimpleMLP.json"))});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, q(readFile(dataPath("seeds/SimpleMLP.info.txt"))));
    }

    void infoJsonToFile() {
        QTemporaryDir dir;
        const QString out = dir.filePath("info.json");
        const auto r = runIrscope({"info", q(dataPath("seeds/SimpleMLP.json")), "--json", "-o", out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.isEmpty());
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const auto object = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(object["model_name"].toString(), QString("SimpleMLP"));
        QCOMPARE(object["num_nodes"].toInt(), 3);
        QCOMPARE(object["total_parameters"].toInt(), 58);
        QCOMPARE(object["input_shapes"].toObject()["x"].toArray().size(), 2);
        QCOMPARE(object["op_distribution"].toObject()["aten.linear.default"].toInt(), 2);
        QCOMPARE(object.keys().size(), 9);
    }

    void mermaidMatchesDocsAndWritesFile() {
        QTemporaryDir dir;
        const QString out = dir.filePath("g.mmd");
        const auto r = runIrscope({"mermaid", q(dataPath("seeds/GatherWithIndex.json")), "-o", out});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(q(readFile(out.toStdString())), q(readFile(dataPath("seeds/GatherWithIndex.mmd"))));
        const auto cut =
            runIrscope({"mermaid", q(dataPath("seeds/SimpleMLP.json")), "--max-nodes", "1", "--no-weights"});
        QCOMPARE(cut.exitCode, 0);
        QVERIFY(cut.out.endsWith("    note[\"... 2 more nodes ...\"]\n"));
        QVERIFY(!cut.out.contains("w_p_"));
    }

    void validateExitCodes() {
        auto r = runIrscope({"validate", q(dataPath("seeds/SimpleMLP.json")), q(dataPath("seeds/MaskedLinear.json"))});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.isEmpty());

        const QString bad = q(dataPath("malformed/duplicate_node.json"));
        r = runIrscope({"validate", bad});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.startsWith(bad + ": error: node 'linear': node name 'linear' is used by"), qPrintable(r.out));

        const QString meta = q(dataPath("malformed/meta_extracted.json"));
        r = runIrscope({"validate", meta});
        QCOMPARE(r.exitCode, 0);  // a missing constant is a warning until execution needs it
        QVERIFY(r.out.contains(meta + ": warning: node 'mul': lifted constant 'c_mask'"));

        r = runIrscope({"validate", q(dataPath("malformed/truncated.json")), bad});
        QCOMPARE(r.exitCode, 2);  // unreadable wins over errors
        QVERIFY(r.err.contains("truncated.json:"));
        QVERIFY(r.err.contains("unexpected end of file"));
        QVERIFY(r.out.contains("duplicate_node.json: error"));  // the other file is still checked
    }

    // A .pt2 records each module's class (nn_module_stack): the tree says
    // what the model's own code calls them, not a kind guessed from the ops
    // (the decoder layer computes attention inline, and is no "attention").
    void modulesOfAProgramAreNamedByTheirClass() {
        const auto r = runIrscope({"modules", q(dataPath("programs/dynamic_seq_llama.pt2"))});
        QCOMPARE(r.exitCode, 0);
        for (const char* line :
             {"layers.0  [Layer]", "layers.0.input_norm  [RMSNorm]", "layers.0.q_proj  [Linear]", "embed  [Embedding]"})
            QVERIFY2(r.out.contains(line), qPrintable(QString(line) + " in\n" + r.out));
        QVERIFY2(!r.out.contains("[attention]"), qPrintable(r.out));
    }

    void modulesPrintsTheInferredTree() {
        auto r = runIrscope({"modules", q(dataPath("seeds/SimpleMLP.json"))});
        QCOMPARE(r.exitCode, 0);
        // fc1 -> relu -> fc2: the linears are their modules, the relu is the model's.
        QCOMPARE(r.out,
                 QString("(model)  [model]                                        3 ops, 4 weights, 58 parameters\n"
                         "  fc1  [linear]                                         1 op, 2 weights, 40 parameters\n"
                         "  fc2  [linear]                                         1 op, 2 weights, 18 parameters\n"));
        r = runIrscope({"modules", q(dataPath("seeds/SimpleMLP.json")), "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto root = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(root["path"].toString(), QString(""));
        QCOMPARE(root["ops"].toInt(), 3);
        QCOMPARE(root["nodes"].toArray(), QJsonArray({"relu"}));
        QCOMPARE(root["weights"].toInt(), 4);
        QCOMPARE(root["parameters"].toInt(), 58);
        const auto children = root["children"].toArray();
        QCOMPARE(children.size(), 2);
        QCOMPARE(children[0].toObject()["path"].toString(), QString("fc1"));
        QCOMPARE(children[0].toObject()["nodes"].toArray(), QJsonArray({"linear"}));
        QCOMPARE(children[1].toObject()["nodes"].toArray(), QJsonArray({"linear_1"}));
        // --depth 0: the root alone, its counts still whole.
        r = runIrscope({"modules", q(dataPath("seeds/SimpleMLP.json")), "--json", "--depth", "0"});
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object()["children"].toArray().size(), 0);
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object()["ops"].toInt(), 3);
        // ResNet: blocks in their ModuleList, each block's convs and norms below it.
        r = runIrscope({"modules", q(dataPath("ir/resnet_tiny.json")), "--depth", "2"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("\n  layer1  [list]"));
        QVERIFY(r.out.contains("\n    layer2.0  [conv block]"));
        QVERIFY(!r.out.contains("layer2.0.conv1"));
        for (const QStringList& bad : {QStringList{"modules"}, QStringList{"modules", "a.json", "--depth", "-1"},
                                       QStringList{"modules", "a.json", "--depth", "x"}}) {
            r = runIrscope(bad);
            QCOMPARE(r.exitCode, 2);
        }
        r = runIrscope({"modules", "/nonexistent.json"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("/nonexistent.json"));
    }

    void renderByModuleDrawsBoxesAndFrames() {
        QTemporaryDir dir;
        const QString out = dir.filePath("resnet.svg");
        auto r = runIrscope({"render", q(dataPath("ir/resnet_tiny.json")), "--depth", "1", "-o", out});
        QCOMPARE(r.exitCode, 0);
        const QString svg = q(readFile(out.toStdString()));
        // The four block lists are open (frames), each block a box; one-op modules are their op.
        for (const char* id :
             {"frame_layer1", "frame_layer4", "module_layer1.0", "module_layer4.0", "op_convolution", "op_linear"})
            QVERIFY2(svg.contains(QString("id=\"%1\"").arg(id)), id);
        QVERIFY(!svg.contains("op_convolution_1\""));  // inside a closed block
        r = runIrscope({"render", q(dataPath("ir/resnet_tiny.json")), "--depth", "all", "-o", out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(q(readFile(out.toStdString())).contains("id=\"op_convolution_1\""));
        QVERIFY(!q(readFile(out.toStdString())).contains("frame_"));
        r = runIrscope({"render", q(dataPath("ir/resnet_tiny.json")), "--depth", "deep", "-o", out});
        QCOMPARE(r.exitCode, 2);
    }

    void unreadableFilesNameFileAndPlace() {
        auto r = runIrscope({"info", q(dataPath("malformed/missing_shape.json"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(
            r.err.contains("missing_shape.json:") && r.err.contains("nodes[1].inputs[0]: missing required key 'shape'"),
            qPrintable(r.err));
        r = runIrscope({"mermaid", "/nonexistent/file.json"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("/nonexistent/file.json: cannot open"));
    }

    void outputFileIsNotTouchedOnFailure() {
        QTemporaryDir dir;
        const QString out = dir.filePath("keep.txt");
        QFile file(out);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("precious");
        file.close();
        const auto r = runIrscope({"info", q(dataPath("malformed/empty.json")), "-o", out});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(q(readFile(out.toStdString())), QString("precious"));
    }

    // Started afresh, a light command maps neither libtorch nor Qt's GUI;
    // a command of the commands module maps libtorch (the control: the check
    // can see a library load).
    void lightCommandsNeverLoadLibtorch() {
        const auto loads = [](const QStringList& args) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("LD_DEBUG", "files");
            p.setProcessEnvironment(env);
            p.start(IRSCOPE_BINARY, args);
            p.waitForFinished(60000);
            return QString::fromUtf8(p.readAllStandardError());
        };
        const QString ir = q(dataPath("ir/llama_block.json"));
        for (const QStringList& args : {QStringList{"info", ir}, QStringList{"validate", ir},
                                        QStringList{"mermaid", ir}, QStringList{"modules", ir}}) {
            const QString log = loads(args);
            QVERIFY2(log.contains("file=libirscope_ir.so") && log.contains("file=libirscope_modules.so"),
                     qPrintable(args.join(' ')));
            QVERIFY2(!log.contains("libtorch") && !log.contains("libQt6Gui"), qPrintable(args.join(' ')));
        }
        QVERIFY(loads({"run", "--help"}).contains("file=libtorch_cpu.so"));
    }

    // The suites run commands through the binary's fork server (cli_runner.h):
    // what a command prints and returns is what the binary started afresh
    // prints and returns, for every kind of ending.
    void forkServerRunsAsTheBinaryDoes() {
        if (!irscope::test::ForkServerClient::instance().usable()) QSKIP("IRSCOPE_TEST_NO_FORK_SERVER is set");
        const QString llama = q(dataPath("ir/llama_block.json"));
        const QString weights = q(dataPath("ir/llama_block.weights.pt"));
        const QString inputs = q(dataPath("ir/llama_block.inputs.pt"));
        const QStringList cases[] = {
            {"run", llama, "--weights", weights, "--inputs", inputs, "--expected",
             q(dataPath("ir/llama_block.expected.pt"))},
            {"run", llama, "--weights", weights, "--inputs", inputs, "--expected",
             q(dataPath("ir/llama_block.expected_fp16cast.pt")), "--rtol", "0", "--atol", "0"},  // exit 1
            {"run", llama, "--weights", q(dataPath("ir/no_such_file.pt"))},                      // exit 2
            {"run", "--bogus"},
            {"run", "--help"},
            {"validate", q(dataPath("malformed/duplicate_node.json"))},
            {"frobnicate"},
        };
        // Timings differ from run to run; nothing else may.
        const auto untimed = [](QString text) {
            return text.replace(QRegularExpression("[0-9.]+ (ms|s)\\b"), "<time>");
        };
        QSet<int> exitCodes;
        for (const auto& args : cases) {
            const auto served = runIrscope(args);
            const auto direct = irscope::test::runIrscopeDirect(args);
            QCOMPARE(served.exitCode, direct.exitCode);
            QCOMPARE(untimed(served.out), untimed(direct.out));
            QCOMPARE(untimed(served.err), untimed(direct.err));
            exitCodes.insert(served.exitCode);
        }
        QCOMPARE(exitCodes, (QSet<int>{0, 1, 2}));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestIrCommands)
#include "test_ir_commands.moc"
