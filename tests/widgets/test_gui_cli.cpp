// The binary's GUI entry and `irscope render`, through QProcess:
// --screenshot writes a PNG of the window, --select, --compare, a failing
// file's exit code, render to SVG (parsed) and PNG.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include "test_support.h"

using irscope::test::kData;

namespace {
const QString kBinary = QString::fromUtf8(IRSCOPE_BINARY);
}  // namespace

class TestGuiCli : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    int run(const QStringList& args, QByteArray* err = nullptr, const QStringList& extraEnv = {}) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString& e : extraEnv) env.insert(e.section('=', 0, 0), e.section('=', 1));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir_.filePath(QStringLiteral("config")));  // fresh QSettings
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir_.path());
        p.setProcessEnvironment(env);
        p.start(kBinary, args);
        if (!p.waitForFinished(120000)) return -1;
        if (err) *err = p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

    struct InstallRun {
        bool ran = false;  // it ended on its own, not killed nor crashed
        int exitCode = -1;
        QByteArray err;
        QString shot;
    };
    // The binary and its modules copied to a folder of their own, all but
    // `missing` (a broken install), then `tiny_llama.pt2 --run --screenshot`.
    InstallRun runInstallWithout(const QString& missing) {
        InstallRun r;
        QTemporaryDir install;
        if (!QDir().mkpath(install.filePath(QStringLiteral("bin"))) ||
            !QDir().mkpath(install.filePath(QStringLiteral("lib"))))
            return r;
        const QString binary = install.filePath(QStringLiteral("bin/irscope"));
        if (!QFile::copy(kBinary, binary)) return r;
        const QDir built(QFileInfo(kBinary).dir().filePath(QStringLiteral("../lib")));
        for (const QString& lib : built.entryList({QStringLiteral("libirscope_*.so")}, QDir::Files))
            if (lib != missing && !QFile::copy(built.filePath(lib), install.filePath(QStringLiteral("lib/") + lib)))
                return r;
        r.shot = dir_.filePath(QStringLiteral("without_") + missing + QStringLiteral(".png"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir_.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir_.path());
        p.setProcessEnvironment(env);
        p.start(binary, {kData + QStringLiteral("/real/tiny_llama.pt2"), QStringLiteral("--new-window"),
                         QStringLiteral("--run"), QStringLiteral("--screenshot"), r.shot});
        if (!p.waitForFinished(120000)) return r;
        r.err = p.readAllStandardError();
        r.ran = p.exitStatus() == QProcess::NormalExit;
        r.exitCode = p.exitCode();
        return r;
    }

private slots:
    void screenshotWritesWindowPng() {
        const QString out = dir_.filePath(QStringLiteral("shot.png"));
        QCOMPARE(run({kData + QStringLiteral("/ir/resnet_tiny.json"), QStringLiteral("--screenshot"), out}), 0);
        QImage img(out);
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), QSize(1400, 900));  // the default window size with fresh settings
    }

    // libtorch loads behind the window's first frame: the dynamic loader's
    // log (LD_DEBUG=files) and IRSCOPE_TIMING's lines share stderr, in order.
    // The debugger still runs once it is in (--run), and where every call is
    // bound at load (LD_BIND_NOW) the engine comes first (the control: the
    // check sees libtorch load before the frame when it does).
    void theFirstFrameComesBeforeLibtorch() {
        const QString pt2 = kData + QStringLiteral("/real/tiny_llama.pt2");
        const QString out = dir_.filePath(QStringLiteral("first.png"));
        const auto order = [&](const QStringList& extraEnv, QByteArray& err) {
            const int code =
                run({pt2, QStringLiteral("--new-window"), QStringLiteral("--run"), QStringLiteral("--screenshot"), out},
                    &err, QStringList{QStringLiteral("LD_DEBUG=files"), QStringLiteral("IRSCOPE_TIMING=1")} + extraEnv);
            if (code != 0) return std::pair<qsizetype, qsizetype>{-1, -1};
            return std::pair{err.indexOf("irscope: first frame after"), err.indexOf("file=libtorch_cpu.so")};
        };
        QByteArray err;
        const auto [frame, torch] = order({}, err);
        QVERIFY2(frame >= 0 && torch >= 0, err.right(2000).constData());
        QVERIFY2(frame < torch, "libtorch was loaded before the first frame");
        // The docks' panels are made after that frame too, before the engine.
        const qsizetype panels = err.indexOf("irscope: panels made after");
        QVERIFY2(frame < panels && panels < torch, err.right(2000).constData());
        // The window's SVG icon is set after that frame: Qt SVG and its icon
        // engine load then, and they do load (the icon is set at all).
        const qsizetype svgIcon = err.indexOf("iconengines/libqsvgicon.so");
        QVERIFY2(svgIcon > frame, err.left(4000).constData());
        // Qt Charts (and Qt OpenGL behind it) load after the frame too, before
        // the panels that draw charts are made.
        const qsizetype charts = err.indexOf("file=libQt6Charts.so");
        QVERIFY2(frame < charts && charts < panels, err.left(4000).constData());
        QVERIFY2(err.contains("irscope: engine loaded after"), err.right(2000).constData());
        QVERIFY2(err.contains("finished: 43/43 nodes ran"), err.right(2000).constData());  // --run waited for it
        const auto [frameNow, torchNow] = order({QStringLiteral("LD_BIND_NOW=1")}, err);
        QVERIFY2(frameNow >= 0 && torchNow >= 0, err.right(2000).constData());
        QVERIFY(torchNow < frameNow);
        QVERIFY2(err.contains("finished: 43/43 nodes ran"), err.right(2000).constData());
        // The headless renderer is the window's drawing: it never needs the engine.
        QCOMPARE(run({QStringLiteral("render"), kData + QStringLiteral("/ir/llama_block.json"), QStringLiteral("-o"),
                      dir_.filePath(QStringLiteral("r.png"))},
                     &err, {QStringLiteral("LD_DEBUG=files")}),
                 0);
        QVERIFY(err.contains("libirscope_gui.so"));
        QVERIFY(!err.contains("libtorch"));
    }

    // The command line's files win over what an archive brings, also when the
    // debugger comes after the first frame: --inputs gives the second input
    // set, whose outputs PyTorch recorded (expected_b), not the archive's own
    // example inputs (whose outputs differ).
    void theCommandLinesInputsWinOverTheArchives() {
        const QString d = kData + QStringLiteral("/programs/dynamic_seq_llama");
        QByteArray err;
        QCOMPARE(run({d + QStringLiteral(".pt2"), QStringLiteral("--new-window"), QStringLiteral("--inputs"),
                      d + QStringLiteral(".inputs_b.pt"), QStringLiteral("--expected"),
                      d + QStringLiteral(".expected_b.pt"), QStringLiteral("--run"), QStringLiteral("--screenshot"),
                      dir_.filePath(QStringLiteral("inputs_b.png"))},
                     &err),
                 0);
        QVERIFY2(err.contains("finished: 81/81 nodes ran — outputs match"), err.constData());
    }

    // Without the engine module (a broken install), the window still opens
    // and draws the graph, and says why the program cannot run, naming the
    // file it looked for; a screenshot asked for reports the failure.
    void aMissingEngineIsSaidNotACrash() {
        const InstallRun r = runInstallWithout(QStringLiteral("libirscope_engine.so"));
        QVERIFY2(r.ran, r.err.constData());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("the execution engine did not load: cannot find libirscope_engine.so"),
                 r.err.constData());
        QVERIFY2(!r.err.contains("nodes ran"), r.err.constData());
        QVERIFY(!QImage(r.shot).isNull());  // the window, with the graph and the reason
    }

    // An install without the charts module: the window runs, and the panels
    // that draw charts say why there are none instead.
    void aMissingChartsModuleLeavesOnlyTheChartsOut() {
        const InstallRun r = runInstallWithout(QStringLiteral("libirscope_charts.so"));
        QVERIFY2(r.ran, r.err.constData());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("the charts did not load: cannot find libirscope_charts.so"), r.err.constData());
        QVERIFY2(r.err.contains("finished: 43/43 nodes ran"), r.err.constData());
        QVERIFY(!QImage(r.shot).isNull());
    }

    void selectAndDebuggerOptionsAccepted() {
        const QString out = dir_.filePath(QStringLiteral("sel.png"));
        QByteArray err;
        QCOMPARE(run({kData + QStringLiteral("/ir/llama_block.json"), QStringLiteral("--select"),
                      QStringLiteral("linear"), QStringLiteral("--weights"), QStringLiteral("w.pt"),
                      QStringLiteral("--run"), QStringLiteral("--screenshot"), out},
                     &err),
                 0);
        // The debugger acts: w.pt does not exist, which is said naming the file,
        // and the parameters are then reported as having no value.
        QVERIFY2(err.contains("w.pt: cannot open"), err.constData());
        QVERIFY(err.contains("no state_dict loaded"));
        QVERIFY(!err.contains("--select"));
        QVERIFY(!QImage(out).isNull());
    }

    // --run-to and --select take a position inside a subgraph's call: the
    // run stops in that call just after the node, which is selected; a call
    // the program did not make is said.
    void positionsInsideCalls() {
        const QString out = dir_.filePath(QStringLiteral("loop.png"));
        const QString pt2 = kData + QStringLiteral("/nested/branch_in_loop.pt2");
        QByteArray err;
        QCOMPARE(run({pt2, QStringLiteral("--run-to"), QStringLiteral("while_loop/while_loop_body_graph_0#2/sum_1"),
                      QStringLiteral("--select"), QStringLiteral("while_loop/while_loop_body_graph_0/sum_1"),
                      QStringLiteral("--screenshot"), out},
                     &err),
                 0);
        QVERIFY2(err.contains("in 'while_loop/while_loop_body_graph_0' (iteration 2 of 3)"), err.constData());
        QVERIFY2(!err.contains("--select"), err.constData());
        QVERIFY(!QImage(out).isNull());
        QCOMPARE(run({pt2, QStringLiteral("--run-to"), QStringLiteral("while_loop/while_loop_body_graph_0#9/sum_1"),
                      QStringLiteral("--screenshot"), out},
                     &err),
                 0);
        QVERIFY2(err.contains("the program did not make that call"), err.constData());
    }

    // A name the window's options do not know is refused, with the names they take.
    void unknownDockOverlayOrTabIsRefused() {
        const QString ir = kData + QStringLiteral("/ir/resnet_tiny.json");
        QByteArray err;
        QCOMPARE(run({ir, QStringLiteral("--show-dock"), QStringLiteral("bogus")}, &err), 2);
        QVERIFY2(err.contains("--show-dock: 'bogus' is not one of weights, constants, inputs, differences, "
                              "breakpoints, quantization"),
                 err.constData());
        QCOMPARE(run({ir, QStringLiteral("--overlay"), QStringLiteral("bogus")}, &err), 2);
        QVERIFY2(err.contains("--overlay: 'bogus' is not one of") && err.contains("sqnr"), err.constData());
        QCOMPARE(run({ir, QStringLiteral("--viewer-tab"), QStringLiteral("bogus")}, &err), 2);
        QVERIFY2(err.contains("--viewer-tab: 'bogus'"), err.constData());
        // The quantization dock is a dock --show-dock knows.
        QCOMPARE(run({ir, QStringLiteral("--show-dock"), QStringLiteral("quantization"), QStringLiteral("--screenshot"),
                      dir_.filePath(QStringLiteral("q.png"))},
                     &err),
                 0);
    }

    void brokenFileExitsNonZero() {
        const QString bad = dir_.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("[1, 2");
        f.close();
        QByteArray err;
        QCOMPARE(run({bad, QStringLiteral("--screenshot"), dir_.filePath(QStringLiteral("bad.png"))}, &err), 2);
        QVERIFY(err.contains("bad.json"));
    }

    // --compare opens B beside A (the screenshot waits for the diff); an
    // unreadable B is said naming the file, and the exit status says it failed.
    void compareOpensBothSides() {
        const QString out = dir_.filePath(QStringLiteral("cmp.png"));
        QByteArray err;
        QCOMPARE(run({kData + QStringLiteral("/ir/diff/diffnet.json"), QStringLiteral("--compare"),
                      kData + QStringLiteral("/ir/diff/diffnet_op.json"), QStringLiteral("--screenshot"), out},
                     &err),
                 0);
        QVERIFY2(!err.contains("--compare"), err.constData());
        QVERIFY(!QImage(out).isNull());
        const QString missing = dir_.filePath(QStringLiteral("nope.json"));
        QCOMPARE(run({kData + QStringLiteral("/ir/diff/diffnet.json"), QStringLiteral("--compare"), missing,
                      QStringLiteral("--screenshot"), dir_.filePath(QStringLiteral("cmp2.png"))},
                     &err),
                 2);
        QVERIFY2(err.contains("nope.json"), err.constData());
    }

    void renderSvgCarriesNamesAndDashes() {
        const QString out = dir_.filePath(QStringLiteral("r.svg"));
        QCOMPARE(
            run({QStringLiteral("render"), kData + QStringLiteral("/ir/resnet_tiny.json"), QStringLiteral("-o"), out}),
            0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&f);
        QSet<QString> ids;
        int dashedEdges = 0;
        bool inDashedEdge = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement()) continue;
            const auto attrs = xml.attributes();
            if (xml.name() == QLatin1String("g")) {
                ids.insert(attrs.value(QStringLiteral("id")).toString());
                inDashedEdge = attrs.value(QStringLiteral("class")).toString() == QLatin1String("edge dashed");
            }
            if (xml.name() == QLatin1String("path") && inDashedEdge &&
                attrs.hasAttribute(QStringLiteral("stroke-dasharray")))
                ++dashedEdges;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(ids.contains(QStringLiteral("op_convolution")));
        QVERIFY(ids.contains(QStringLiteral("op_linear")));
        QVERIFY(ids.contains(QStringLiteral("input_x")));
        QVERIFY(dashedEdges >= 50);
    }

    void renderPngUsesTheViewRenderer() {
        const QString one = dir_.filePath(QStringLiteral("r1.png")), half = dir_.filePath(QStringLiteral("r05.png"));
        const QString ir = kData + QStringLiteral("/ir/llama_block.json");
        QCOMPARE(run({QStringLiteral("render"), ir, QStringLiteral("-o"), one}), 0);
        QCOMPARE(run({QStringLiteral("render"), ir, QStringLiteral("-o"), half, QStringLiteral("--scale"),
                      QStringLiteral("0.5")}),
                 0);
        QImage a(one), b(half);
        QVERIFY(!a.isNull() && !b.isNull());
        QVERIFY(a.height() > 1000);
        QVERIFY(std::abs(b.width() * 2 - a.width()) <= 2);
        // Not blank: coloured boxes are drawn.
        int coloured = 0;
        for (int y = 0; y < a.height(); y += 3)
            for (int x = 0; x < a.width(); x += 3) {
                const QColor c = a.pixelColor(x, y);
                coloured += c.saturation() > 40;
            }
        QVERIFY(coloured > 500);
        // --no-weights gives a smaller drawing.
        const QString now = dir_.filePath(QStringLiteral("nw.png"));
        QCOMPARE(run({QStringLiteral("render"), ir, QStringLiteral("-o"), now, QStringLiteral("--no-weights")}), 0);
        QVERIFY(QImage(now).width() * QImage(now).height() < a.width() * a.height());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestGuiCli)
#include "test_gui_cli.moc"
