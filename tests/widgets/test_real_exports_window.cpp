// The corpus of real pytorch-ir exports (tests/data/real/, made by PyTorch
// 2.13 and pytorch-ir's extract_ir) opened in the window as a user does: the
// IR, its state_dict, inputs and the module's own outputs, then F5. Each runs
// to its end with no failure and its outputs match the module's (the same
// tolerances as cli.real_exports: float32 1e-4 / 1e-5, half types 2e-2);
// the graphs PyTorch exported with something the IR cannot run stop with
// the reason instead, or run pytorch-ir's reading of an ambiguous node and
// say so on the node. One window opens every model in turn, as a user does.
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include "wait_idle.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/numeric_checks.h"

using namespace irscope::widgets;

namespace {

QString real(const QString& file) { return QString::fromUtf8(IRSCOPE_TEST_DATA) + QStringLiteral("/real/") + file; }

QJsonArray manifest() {
    QFile f(real(QStringLiteral("manifest.json")));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const auto doc = QJsonDocument::fromJson(f.readAll());
    return doc.isArray() ? doc.array() : doc.object()[QStringLiteral("cases")].toArray();
}

// What the IR cannot run, as cli.real_exports lists it, and what the window says.
bool cannotRun(const QString& name) {
    static const QStringList names{QStringLiteral("no_grad_in_forward"), QStringLiteral("autocast_in_forward"),
                                   QStringLiteral("clamp_tensor_max")};
    return names.contains(name);
}

// Half-precision outputs or weights get the half tolerance.
bool isHalf(const QString& irPath) {
    QFile f(irPath);
    if (!f.open(QIODevice::ReadOnly)) return false;
    const QByteArray text = f.readAll();
    return text.contains("\"float16\"") || text.contains("\"bfloat16\"");
}

}  // namespace

class TestRealExportsWindow : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;
    DebuggerUi ui_;

    // F5 once the loads are done; the status the run stopped with ("" when it
    // never stopped, which the caller's checks then report).
    QString continueToEnd() {
        DebugController* c = ui_.controller;
        if (!irscope::test::waitIdle(*c)) return QStringLiteral("loads never finished");
        QSignalSpy stopped(c, &DebugController::stopped);
        ui_.continueAction->trigger();
        if (!irscope::test::waitIdle(*c) || stopped.isEmpty()) return QString();
        return stopped.last()[0].toString();
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        window_ = new MainWindow;
        ui_ = installDebugger(*window_);
        window_->resize(1400, 900);
        window_->show();
        QVERIFY2(manifest().size() >= 30, "tests/data/real/manifest.json lists the corpus");
    }
    void cleanupTestCase() { delete window_; }

    void cases_data() {
        QTest::addColumn<QString>("name");
        for (const auto& v : manifest()) {
            const QJsonObject c = v.toObject();
            const QString status = c[QStringLiteral("status")].toString();
            if (status != QLatin1String("ok") && status != QLatin1String("executor_failed")) continue;
            const QString name = c[QStringLiteral("name")].toString();
            QTest::newRow(qPrintable(name)) << name;
        }
    }
    void cases() {
        QFETCH(QString, name);
        DebugController* c = ui_.controller;
        QSignalSpy loaded(window_->session(), &GraphSession::graphLoaded);
        window_->openFile(real(name + QStringLiteral(".json")));
        QVERIFY(loaded.wait(30000));
        c->values()->loadWeights(real(name + QStringLiteral(".weights.pt")));
        if (QFile::exists(real(name + QStringLiteral(".inputs.pt"))))
            c->values()->loadInputs(real(name + QStringLiteral(".inputs.pt")));
        c->values()->loadExpected(real(name + QStringLiteral(".expected.pt")));
        const bool half = isHalf(real(name + QStringLiteral(".json")));
        c->checks()->setTolerance(half ? 2e-2 : 1e-4, half ? 2e-2 : 1e-5);
        const QString status = continueToEnd();
        if (cannotRun(name)) {
            // Either it stops before the node it cannot run, saying why, or
            // (an argument pytorch-ir dropped, so the inputs read two ways)
            // it runs pytorch-ir's own reading and the node says so, next to
            // the differing output.
            if (c->runCursor() < c->nodeCount()) {
                QVERIFY2(c->lastRunFailed() && !status.isEmpty(), qPrintable(status));
                return;
            }
            bool said = false;
            for (const auto& info : c->nodeInfos())
                for (const auto& d : info.diagnostics) said = said || d.find("ambiguous inputs") != std::string::npos;
            QVERIFY2(said, qPrintable(status));
            QVERIFY2(!c->verdict().startsWith(QLatin1String("outputs match")), qPrintable(status));
            return;
        }
        QVERIFY2(!c->lastRunFailed(), qPrintable(status));
        QCOMPARE(c->runCursor(), c->nodeCount());
        QVERIFY2(c->verdict().startsWith(QLatin1String("outputs match")), qPrintable(status));
    }

    // A torch.export archive opened in the window brings its weights and
    // constants (nothing else loaded): given the inputs, F5 gives the
    // module's outputs. tiny_llama has a lifted constant and tied weights.
    void archiveRunsWithItsOwnWeights() {
        DebugController* c = ui_.controller;
        QSignalSpy loaded(window_->session(), &GraphSession::graphLoaded);
        QSignalSpy notices(c, &DebugController::notice);
        // Said once the weights are in, never beside "no state_dict loaded"
        // while they still load (or after they failed).
        bool saidWhileLoading = false;
        auto early = connect(c, &DebugController::notice, this, [c, &saidWhileLoading](const QString& n) {
            if (n.contains(QLatin1String("from the archive")) && c->values()->isLoadingValues())
                saidWhileLoading = true;
        });
        window_->openFile(real(QStringLiteral("tiny_llama.pt2")));
        QVERIFY(loaded.wait(30000));
        QVERIFY(irscope::test::waitIdle(*c));
        bool said = false;
        for (const auto& n : notices)
            said = said || n[0].toString().contains(QLatin1String("example inputs from the archive"));
        QVERIFY2(said, "opening a .pt2 says its weights and example inputs came with it");
        disconnect(early);
        QVERIFY(!saidWhileLoading);
        // No inputs file: the example inputs torch.export.save stored are loaded.
        QCOMPARE(QFileInfo(c->values()->path(irscope::exec::ValueFile::Inputs)).canonicalFilePath(),
                 QFileInfo(real(QStringLiteral("tiny_llama.pt2"))).canonicalFilePath());
        QVERIFY(c->values()->missing().empty());
        c->values()->loadExpected(real(QStringLiteral("tiny_llama.expected.pt")));
        c->checks()->setTolerance(1e-4, 1e-5);
        const QString status = continueToEnd();
        QVERIFY2(!c->lastRunFailed(), qPrintable(status));
        QCOMPARE(c->runCursor(), c->nodeCount());
        QVERIFY2(c->verdict().startsWith(QLatin1String("outputs match")), qPrintable(status));
    }

    // A second walk-through: after one archive, a "same model" archive kept
    // the first archive's weights and inputs files (it said "Kept the files
    // loaded for ...") instead of its own, so a copy with changed weights ran
    // with the old ones. An archive's own data wins over another archive's.
    void anArchiveRunsWithItsOwnDataNotTheLastArchives() {
        DebugController* c = ui_.controller;
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("tiny_llama_v2.pt2"));
        QVERIFY(QFile::copy(real(QStringLiteral("tiny_llama.pt2")), copy));
        QSignalSpy loaded(window_->session(), &GraphSession::graphLoaded);
        window_->openFile(real(QStringLiteral("tiny_llama.pt2")));
        QVERIFY(loaded.wait(30000) && irscope::test::waitIdle(*c));
        window_->openFile(copy);
        QVERIFY(loaded.wait(30000) && irscope::test::waitIdle(*c));
        QVERIFY(window_->session()->sameModelAsBefore());
        // Neither its weights nor its inputs were kept, and the status bar does not claim they were
        // (an expected-outputs file loaded by an earlier test may be).
        const QString said = window_->statusBar()->currentMessage();
        QVERIFY2(!said.contains(QLatin1String("Kept the files")) ||
                     (!said.contains(QLatin1String("weights")) && !said.contains(QLatin1String("inputs"))),
                 qPrintable(said));
        QCOMPARE(QFileInfo(c->values()->path(irscope::exec::ValueFile::Weights)).canonicalFilePath(),
                 QFileInfo(copy).canonicalFilePath());
        QCOMPARE(QFileInfo(c->values()->path(irscope::exec::ValueFile::Inputs)).canonicalFilePath(),
                 QFileInfo(copy).canonicalFilePath());
    }

    // Weights inside an archive that do not read (a tensor past its file's
    // end): the error bar said nothing, because the example inputs loading
    // after them took the weights' error down. It stays until weights load.
    void anArchivesBrokenWeightsAreReported() {
        DebugController* c = ui_.controller;
        QSignalSpy loaded(window_->session(), &GraphSession::graphLoaded);
        window_->openFile(real(QStringLiteral("hostile/weights_past_end.pt2")));
        QVERIFY(loaded.wait(30000) && irscope::test::waitIdle(*c));
        QCoreApplication::processEvents();
        QVERIFY2(window_->messageVisible() && window_->messageText().contains(QLatin1String("weights_past_end.pt2")),
                 qPrintable(window_->messageText()));
    }

    // An archive of several programs opens its first; File ▸ Program lists
    // them all, the shown one checked, and picking another opens it as
    // FILE#NAME with its own weights and example inputs, ready to run.
    void archiveProgramsAreChosenFromTheFileMenu() {
        DebugController* c = ui_.controller;
        const QString multi = real(QStringLiteral("multi/two_programs.pt2"));
        QSignalSpy loaded(window_->session(), &GraphSession::graphLoaded);
        window_->openFile(multi);
        QVERIFY(loaded.wait(30000));
        QVERIFY(irscope::test::waitIdle(*c));
        QMenu* menu = window_->programMenu();
        QVERIFY(menu->isEnabled());
        const auto actions = menu->actions();
        QCOMPARE(actions.size(), 2);
        QCOMPARE(actions[0]->text(), QStringLiteral("add_on_view"));
        QVERIFY(actions[0]->isChecked());
        QVERIFY(!actions[1]->isChecked());
        actions[1]->trigger();
        QVERIFY(loaded.wait(30000));
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY2(window_->session()->filePath().endsWith(QLatin1String("two_programs.pt2#tiny_llama")),
                 qPrintable(window_->session()->filePath()));
        QVERIFY(window_->windowTitle().contains(QLatin1String("two_programs.pt2#tiny_llama")));
        QVERIFY(window_->programMenu()->actions()[1]->isChecked());
        QVERIFY(c->values()->missing().empty());
        c->values()->loadExpected(real(QStringLiteral("tiny_llama.expected.pt")));
        c->checks()->setTolerance(1e-4, 1e-5);
        const QString status = continueToEnd();
        QVERIFY2(!c->lastRunFailed(), qPrintable(status));
        QVERIFY2(c->verdict().startsWith(QLatin1String("outputs match")), qPrintable(status));
        // A JSON IR has no programs to choose.
        window_->openFile(real(QStringLiteral("add_on_view.json")));
        QVERIFY(loaded.wait(30000));
        QVERIFY(!window_->programMenu()->isEnabled());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestRealExportsWindow)
#include "test_real_exports_window.moc"
