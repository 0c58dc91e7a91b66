// Real exports: every case of tests/data/real/ (written by pytorch-ir's own
// extract_ir on PyTorch 2.13, tests/data/real/make_real_exports.py) opened,
// validated and run by irscope as a user would, against what PyTorch
// computed: the module's outputs (NAME.expected.pt) and every node's output
// recorded while PyTorch ran the exported program (NAME.intermediates.pt).
// Expected values come from PyTorch, never from irscope.
//
// A case irscope cannot run is listed in kCannotRun with the words its
// message must contain: the run must stop at that node and say why.
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

QString real(const QString& file) { return q(dataPath("real/" + file.toStdString())); }

// Python's json writes inf as the bare tokens Infinity / -Infinity / NaN
// (masked_fill(-inf) gives "value": -Infinity), which QJsonDocument refuses;
// this test reads only names and dtypes, so they become 0.
QJsonObject readReportJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QByteArray text = f.readAll();
    text.replace("-Infinity", "0").replace("Infinity", "0").replace("NaN", "0");
    return QJsonDocument::fromJson(text).object();
}

QJsonArray manifest() {
    QFile f(real("manifest.json"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const auto doc = QJsonDocument::fromJson(f.readAll());
    return doc.isArray() ? doc.array() : doc.object()["cases"].toArray();
}

bool hasFile(const QJsonObject& c, const QString& suffix) {
    const QString want = c["name"].toString() + suffix;
    for (const auto& f : c["files"].toArray())
        if (f.toString() == want || f.toString().endsWith("/" + want)) return true;
    return QFile::exists(real(want));
}

// Cases whose graph holds something irscope cannot run, and what it must say.
// `archiveToo`: the .pt2 of the case cannot run either. An archive knows more
// than pytorch-ir's JSON: clamp_tensor_max's archive says the tensor is `max`,
// and the no_grad and autocast regions' archives hold the regions' subgraphs.
struct CannotRun {
    const char* name;
    const char* says;
    bool archiveToo;
};
constexpr CannotRun kCannotRun[] = {
    {"no_grad_in_forward", "higher-order op", false},
    {"autocast_in_forward", "higher-order op", false},
    {"clamp_tensor_max", "ambiguous inputs", false},
};

const CannotRun* cannotRun(const QString& name) {
    for (const auto& c : kCannotRun)
        if (name == c.name) return &c;
    return nullptr;
}

// float32 within rtol 1e-4, atol 1e-5; half types within what their own
// rounding allows (PyTorch's and libtorch 1.13's kernels may accumulate in
// another order).
QStringList tolerancesFor(const QJsonObject& ir) {
    bool half = false;
    for (const auto& o : ir["graph_outputs"].toArray()) {
        const QString d = o.toObject()["dtype"].toString();
        half = half || d == "float16" || d == "bfloat16";
    }
    for (const auto& w : ir["weights"].toArray()) {
        const QString d = w.toObject()["dtype"].toString();
        half = half || d == "float16" || d == "bfloat16";
    }
    return half ? QStringList{"--rtol", "2e-2", "--atol", "2e-2"} : QStringList{"--rtol", "1e-4", "--atol", "1e-5"};
}

QStringList realRunArgs(const QString& name, const QString& irFile) {
    QStringList args{"run", real(irFile), "--weights", real(name + ".weights.pt")};
    if (QFile::exists(real(name + ".inputs.pt"))) args << "--inputs" << real(name + ".inputs.pt");
    return args;
}

bool okInManifest(const QString& name) {
    for (const auto& v : manifest())
        if (v.toObject()["name"].toString() == name) return v.toObject()["status"].toString() == "ok";
    return false;
}

// Where pytorch-ir's executor's outputs for this case were computed on this
// machine, or empty where there is no bit-exact check: a build on libtorch 1.13
// (pytorch-ir needs PyTorch 2), a case pytorch-ir's executor gets wrong, or a
// build configured without IRSCOPE_REFERENCE_PYTHON.
QString executorReference(const QString& name) {
    const QString dir = qEnvironmentVariable("IRSCOPE_EXECUTOR_REFERENCE");
    if (IRSCOPE_LIBTORCH_MAJOR < 2 || dir.isEmpty() || !okInManifest(name)) return {};
    return dir + "/" + name + ".executor.pt";
}

QString explain(const CliResult& r) { return "exit " + QString::number(r.exitCode) + "\n" + r.out + "\n" + r.err; }

}  // namespace

class TestRealExports : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void corpusIsThere() {
        const QJsonArray cases = manifest();
        QVERIFY2(cases.size() >= 30, qPrintable(QString("%1 cases in manifest.json").arg(cases.size())));
    }

    // Where the bit-exact reference is asked for, it was computed whole.
    void executorReferenceComputed() {
        const QString dir = qEnvironmentVariable("IRSCOPE_EXECUTOR_REFERENCE");
        if (IRSCOPE_LIBTORCH_MAJOR < 2 || dir.isEmpty()) QSKIP("no bit-exact reference in this build");
        QFile done(dir + "/done");
        QVERIFY2(done.open(QIODevice::ReadOnly), qPrintable(dir + "/done is missing: see cli.executor_reference"));
        QVERIFY2(done.readAll().contains("torch 2."), qPrintable(dir + "/done"));
    }

    void cases_data() {
        QTest::addColumn<QString>("name");
        for (const auto& v : manifest()) {
            const QJsonObject c = v.toObject();
            if (c["status"].toString() != "ok" && c["status"].toString() != "executor_failed") continue;
            const QString name = c["name"].toString();
            QTest::newRow(qPrintable(name)) << name;
        }
    }

    // validate finds no error; the run matches the module's outputs and
    // every intermediate PyTorch recorded, or stops where it must, saying why.
    void cases() {
        QFETCH(QString, name);
        const QJsonObject ir = readReportJson(real(name + ".json"));
        QVERIFY2(!ir.isEmpty(), qPrintable(name + ".json does not read"));

        const CliResult v = runIrscope({"validate", real(name + ".json")});
        QVERIFY2(v.exitCode == 0, qPrintable(explain(v)));

        QStringList args = realRunArgs(name, name + ".json")
                           << "--expected" << real(name + ".expected.pt") << tolerancesFor(ir);
        if (const CannotRun* c = cannotRun(name)) {
            // An ambiguity is in the file: validate names it before any run.
            if (QString(c->says) == "ambiguous inputs")
                QVERIFY2((v.out + v.err).contains("ambiguous inputs") &&
                             (v.out + v.err).contains("min=linear or max=linear"),
                         qPrintable(explain(v)));
            const CliResult r = runIrscope(args);
            QVERIFY2(r.exitCode != 0, qPrintable(explain(r)));
            QVERIFY2((r.out + r.err).contains(c->says), qPrintable(explain(r)));
            return;
        }
        // One run checks both: the outputs and every intermediate.
        if (QFile::exists(real(name + ".intermediates.pt")))
            args << "--reference-intermediates" << real(name + ".intermediates.pt");
        const CliResult r = runIrscope(args);
        QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
        QVERIFY2(r.out.contains(": OK") && !r.out.contains("MISMATCH"), qPrintable(explain(r)));

        // On the libtorch irscope was built against, the outputs are pytorch-ir's
        // IRExecutor's bit for bit (where pytorch-ir's executor runs it right).
        // PyTorch's CPU kernels differ in the last bit from one processor to
        // another, so the executor runs here, on this machine and this torch,
        // before the suite (make_executor_reference.py, CTest fixture
        // cli.executor_reference; IRSCOPE_EXECUTOR_REFERENCE names its folder).
        const QString reference = executorReference(name);
        if (!reference.isEmpty()) {
            QVERIFY2(QFile::exists(reference), qPrintable(reference + " was not computed"));
            QStringList exact = realRunArgs(name, name + ".json") << "--expected" << reference << "--rtol"
                                                                  << "0"
                                                                  << "--atol"
                                                                  << "0";
            const CliResult e = runIrscope(exact);
            QVERIFY2(e.exitCode == 0, qPrintable(explain(e)));
        }
    }

    // `info`, a light command, reads an archive too (once: a light command
    // starts afresh, which under ASan costs a second a run).
    void archiveInfo() {
        const CliResult info = runIrscope({"info", real("tiny_llama.pt2")});
        QVERIFY2(info.exitCode == 0, qPrintable(explain(info)));
        QVERIFY2(info.out.contains("Model: TinyLlama") && info.out.contains("Nodes: 43"), qPrintable(explain(info)));
    }

    // One program of an archive that holds several, named after '#': run
    // with its own weights and example inputs, and diffed against another
    // program of the same archive.
    void archiveProgramByName() {
        const QString multi = real("multi/two_programs.pt2");
        const QJsonObject ir = readReportJson(real("tiny_llama.json"));
        QStringList args{"run", multi + "#tiny_llama", "--expected", real("tiny_llama.expected.pt")};
        args << tolerancesFor(ir);
        const CliResult r = runIrscope(args);
        QVERIFY2(r.exitCode == 0 && r.out.contains(": OK"), qPrintable(explain(r)));
        const CliResult d = runIrscope({"diff", multi + "#add_on_view", multi + "#tiny_llama"});
        QVERIFY2(d.exitCode == 1, qPrintable(explain(d)));  // they differ
        const CliResult bad = runIrscope({"info", multi + "#decoder"});
        QVERIFY2(bad.exitCode == 2 && bad.err.contains("no program 'decoder' (it holds: add_on_view, tiny_llama)"),
                 qPrintable(explain(bad)));
    }

    // The torch.export archive of each case (make_pt2_archives.py) runs with
    // no other file: the weights, the constants and the example inputs
    // torch.export.save stored come from inside it, and the outputs are the
    // module's, as from pytorch-ir's JSON.
    void archives_data() { cases_data(); }
    void archives() {
        QFETCH(QString, name);
        if (!QFile::exists(real(name + ".pt2"))) QSKIP("no archive for this case");
        const QJsonObject ir = readReportJson(real(name + ".json"));
        QStringList args{"run", real(name + ".pt2")};
        args << "--expected" << real(name + ".expected.pt") << tolerancesFor(ir);
        const CliResult r = runIrscope(args);
        if (const CannotRun* c = cannotRun(name); c && c->archiveToo) {
            QVERIFY2(r.exitCode != 0, qPrintable(explain(r)));
            QVERIFY2((r.out + r.err).contains(c->says), qPrintable(explain(r)));
            return;
        }
        QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
        QVERIFY2(r.out.contains(": OK") && !r.out.contains("MISMATCH"), qPrintable(explain(r)));

        // convert writes what pytorch-ir's extract_ir wrote for the same
        // program, byte for byte (constants embedded as extract_ir embeds them).
        QTemporaryDir dir;
        const QString out = dir.filePath(name + ".json");
        const CliResult c =
            runIrscope({"convert", real(name + ".pt2"), out, "--weights", dir.filePath("w.safetensors")});
        QVERIFY2(c.exitCode == 0, qPrintable(explain(c)));
        QFile mine(out), theirs(real(name + ".json"));
        QVERIFY(mine.open(QIODevice::ReadOnly) && theirs.open(QIODevice::ReadOnly));
        QVERIFY2(mine.readAll() == theirs.readAll(), qPrintable(out + " differs from " + name + ".json"));
        // ... and its weights file runs it.
        QStringList again{"run", out, "--weights", dir.filePath("w.safetensors")};
        if (QFile::exists(real(name + ".inputs.pt"))) again << "--inputs" << real(name + ".inputs.pt");
        again << "--expected" << real(name + ".expected.pt") << tolerancesFor(ir);
        const CliResult w = runIrscope(again);
        QVERIFY2(w.exitCode == 0 || cannotRun(name), qPrintable(explain(w)));
    }

    // irscope's info and mermaid print what pytorch-ir's own CLI prints for
    // the same file, byte for byte (texts recorded by make_cli_texts.py).
    void pytorchIrTexts_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        for (const auto& v : manifest()) {
            const QString name = v.toObject()["name"].toString();
            const QString ir = real(name + ".json");
            const auto row = [&](const char* what, QStringList args, const QString& suffix) {
                QTest::newRow(qPrintable(name + " " + what)) << name << args << suffix;
            };
            row("info", {"info", ir}, ".info.txt");
            row("info --json", {"info", "--json", ir}, ".info_json.txt");
            row("mermaid", {"mermaid", ir}, ".visualize.txt");
            row("mermaid all", {"mermaid", "--max-nodes", "100000", "--no-weights", ir}, ".visualize_all.txt");
        }
    }
    void pytorchIrTexts() {
        QFETCH(QString, name);
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        QFile f(real(name + expected));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(name + expected + " is missing: run make_cli_texts.py"));
        const QByteArray want = f.readAll();
        const CliResult r = runIrscope(args);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.toUtf8(), want);
    }

    // A meta-device extraction has no constants: irscope names them before
    // running, and runs once they are given.
    void metaExtractions_data() {
        QTest::addColumn<QString>("name");
        for (const auto& v : manifest()) {
            const QJsonObject c = v.toObject();
            const QString name = c["name"].toString();
            if (c["status"].toString() == "ok" && hasFile(c, ".meta.json") && hasFile(c, ".constants.pt") &&
                !cannotRun(name))
                QTest::newRow(qPrintable(name)) << name;
        }
    }
    void metaExtractions() {
        QFETCH(QString, name);
        const QJsonObject ir = readReportJson(real(name + ".meta.json"));
        const CliResult missing = runIrscope(realRunArgs(name, name + ".meta.json"));
        QVERIFY2(missing.exitCode != 0, qPrintable(explain(missing)));
        // Each constant the IR maps to is named.
        const QJsonObject mapping = ir["weight_name_mapping"].toObject();
        bool named = false;
        for (auto it = mapping.begin(); it != mapping.end(); ++it)
            if (it.key().startsWith("c_") && (missing.out + missing.err).contains(it.key())) named = true;
        bool hasConstantPlaceholder = false;
        for (auto it = mapping.begin(); it != mapping.end(); ++it) hasConstantPlaceholder |= it.key().startsWith("c_");
        if (hasConstantPlaceholder) QVERIFY2(named, qPrintable(explain(missing)));

        QStringList args = realRunArgs(name, name + ".meta.json")
                           << "--constants" << real(name + ".constants.pt") << "--expected"
                           << real(name + ".expected.pt") << tolerancesFor(ir);
        const CliResult r = runIrscope(args);
        QVERIFY2(r.exitCode == 0, qPrintable(explain(r)));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_GUILESS_MAIN(TestRealExports)
#include "test_real_exports.moc"
