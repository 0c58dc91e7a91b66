// One document at a time: what the user set up for a model (the
// Differences source, local mode, Failing only, the overlay, a comparison's
// B) stays with it on a reload and goes when another model is opened or the
// document is closed (File ▸ Close). Each part failed before its fix: the
// settings carried over to the next model and B was diffed against it.
#include <QAction>
#include <QCheckBox>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "debugger_window.h"
#include "test_support.h"
#include "wait_idle.h"
#include "widgets/compare/compare_session.h"
#include "widgets/compare/compare_ui.h"
#include "widgets/debugger/differences_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/numeric_checks.h"

using namespace irscope;
using namespace irscope::widgets;

using irscope::test::irFixture;

class TestDocumentLifetime : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;
    DebuggerUi ui_;
    CompareUi compare_;

    GraphSession* session() const { return window_->session(); }
    DebugController* ctl() const { return ui_.controller; }
    QCheckBox* failingOnly() const { return ui_.differences->findChild<QCheckBox*>(QStringLiteral("failingOnly")); }

    void openFresh(const QString& file) {
        QVERIFY(irscope::test::openInFreshWindow(window_, ui_, irFixture(file)));
        compare_ = installCompare(*window_, ctl());
        QVERIFY(irscope::test::waitIdle(*ctl()));
    }
    void openInWindow(const QString& file) {
        QSignalSpy loaded(session(), &GraphSession::graphLoaded);
        window_->openFile(irFixture(file));
        QVERIFY(loaded.wait(30000));
        QVERIFY(irscope::test::waitIdle(*ctl()));
    }
    // Everything a user sets up for llama_block: a bfloat16 second run as
    // the reference, local errors, failing rows only, the SQNR overlay, and
    // a comparison with its meta twin.
    void setUpEverything() {
        ctl()->values()->loadWeights(irFixture(QStringLiteral("llama_block.weights.pt")));
        ctl()->values()->loadInputs(irFixture(QStringLiteral("llama_block.inputs.pt")));
        exec::ReferenceChoice bf16;
        bf16.kind = exec::ReferenceChoice::Kind::Dtype;
        bf16.dtype = "bfloat16";
        ctl()->checks()->setReferenceChoice(bf16);
        ctl()->checks()->setErrorMode(exec::ErrorMode::Local);
        ctl()->checks()->setOverlay(exec::OverlayKind::ErrorSqnr);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        failingOnly()->setChecked(true);
        QSignalSpy ready(compare_.session, &CompareSession::diffReady);
        compare_.session->open(irFixture(QStringLiteral("llama_block.meta.json")));
        QVERIFY(ready.wait(30000));
        QCOMPARE(ctl()->checks()->referenceChoice().kind, exec::ReferenceChoice::Kind::Dtype);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanupTestCase() { delete window_; }

    void anotherModelStartsClean() {
        openFresh(QStringLiteral("llama_block.json"));
        setUpEverything();
        QSignalSpy closed(compare_.session, &CompareSession::closed);
        openInWindow(QStringLiteral("simple_mlp.json"));
        QCOMPARE(ctl()->checks()->referenceChoice(), exec::ReferenceChoice{});
        QCOMPARE(ctl()->checks()->errorMode(), exec::ErrorMode::Cumulative);
        QCOMPARE(ctl()->checks()->overlay(), exec::OverlayKind::None);
        QVERIFY(!failingOnly()->isChecked());
        QCOMPARE(closed.count(), 1);
        QVERIFY(!compare_.session->isOpen());
        QVERIFY(ctl()->values()->path(exec::ValueFile::Weights).isEmpty());
    }

    void aReloadKeepsThem() {
        openFresh(QStringLiteral("llama_block.json"));
        setUpEverything();
        QSignalSpy ready(compare_.session, &CompareSession::diffReady);
        openInWindow(QStringLiteral("llama_block.json"));  // the same file again
        QCOMPARE(ctl()->checks()->referenceChoice().kind, exec::ReferenceChoice::Kind::Dtype);
        QCOMPARE(ctl()->checks()->errorMode(), exec::ErrorMode::Local);
        QCOMPARE(ctl()->checks()->overlay(), exec::OverlayKind::ErrorSqnr);
        QVERIFY(failingOnly()->isChecked());
        QVERIFY(compare_.session->isOpen());
        QVERIFY(ready.count() > 0 || ready.wait(30000));  // B measured against the reloaded A
        QVERIFY(ctl()->values()->path(exec::ValueFile::Weights).endsWith(QLatin1String("llama_block.weights.pt")));
    }

    // File ▸ Close (Ctrl+W): nothing of the document is left, the document's
    // actions are off, and the next open starts clean.
    void fileCloseLeavesNothing() {
        openFresh(QStringLiteral("llama_block.json"));
        setUpEverything();
        auto* close = window_->findChild<QAction*>(QStringLiteral("closeDocumentAction"));
        QVERIFY(close && close->isEnabled());
        QCOMPARE(close->shortcut(), QKeySequence(QKeySequence::Close));
        close->trigger();
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(!session()->hasDocument());
        QVERIFY(!ctl()->hasDocument());
        QVERIFY(!close->isEnabled());
        QVERIFY(!compare_.session->isOpen());
        QCOMPARE(ctl()->checks()->overlay(), exec::OverlayKind::None);
        QVERIFY(ctl()->values()->weightRows().empty());
        QVERIFY(!window_->windowTitle().contains(QLatin1String("llama_block")));
        openInWindow(QStringLiteral("llama_block.json"));
        QCOMPARE(ctl()->checks()->referenceChoice(), exec::ReferenceChoice{});
        QVERIFY(ctl()->values()->path(exec::ValueFile::Weights).isEmpty());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestDocumentLifetime)
#include "test_document_lifetime.moc"
