// "Extract as runnable IR…" in the real window (offscreen): a
// module of tiny_llama cut out with the values of the window's run at the
// cut, which `irscope run` then reproduces bit for bit; a run that has not
// reached the selection is run up to it first; an existing value file that
// is not this extract's is never replaced; nodes marked with Shift+click and
// Shift+drag on the graph, apart from the selection.
#include <QFile>
#include <QLabel>
#include <QMouseEvent>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "debugger_window.h"
#include "test_support.h"
#include "wait_idle.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"

using namespace irscope;
using namespace irscope::widgets;

using irscope::test::irFixture;

namespace {}  // namespace

class TestExtract : public QObject {
    Q_OBJECT
    MainWindow* window_ = nullptr;
    DebuggerUi ui_;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanupTestCase() { delete window_; }

    void moduleWithItsValues() {
        QVERIFY(irscope::test::openInFreshWindow(window_, ui_, irFixture(QStringLiteral("tiny_llama.json")), QSize()));
        DebugController* c = ui_.controller;
        c->values()->loadWeights(irFixture(QStringLiteral("tiny_llama.weights.pt")));
        c->values()->loadConstants(irFixture(QStringLiteral("tiny_llama.constants.pt")));
        c->values()->loadInputs(irFixture(QStringLiteral("tiny_llama.inputs.pt")));
        QVERIFY(irscope::test::waitIdle(*c));
        const auto* tree = window_->session()->moduleTree();
        QVERIFY(tree);
        const auto m = tree->find("layers.1.mlp");
        QVERIFY(m != modules::kNoModule);
        std::vector<int64_t> nodes;
        for (size_t i = 0; i < tree->nodeModules().size(); ++i)
            if (tree->isAncestorOrSelf(m, tree->moduleOfNode(static_cast<int64_t>(i))))
                nodes.push_back(static_cast<int64_t>(i));
        QCOMPARE(nodes.size(), size_t(5));

        QTemporaryDir dir;
        const QString sub = dir.filePath(QStringLiteral("mlp.json"));
        QSignalSpy stopped(c, &DebugController::stopped);
        QCOMPARE(c->runCursor(), int64_t(0));
        c->extract(nodes, sub);
        QVERIFY(irscope::test::waitIdle(*c));
        QCOMPARE(c->runCursor(), nodes.back() + 1);  // ran up to the selection's last node
        QVERIFY(!stopped.isEmpty());
        QVERIFY2(stopped.last()[0].toString().contains(QLatin1String("with the values at the cut")),
                 qPrintable(stopped.last()[0].toString()));
        // The message bar shows the whole rerun command, selectable; run as
        // shown (the paths here need no quoting), it passes bit for bit.
        QVERIFY(window_->messageVisible());
        const QString shown = window_->messageText();
        const qsizetype at = shown.indexOf(QLatin1String("Reproduce: irscope run "));
        QVERIFY2(at >= 0, qPrintable(shown));
        QStringList args = shown.mid(at + int(strlen("Reproduce: irscope "))).split(QLatin1Char(' '));
        QCOMPARE(args.mid(0, 4), (QStringList{"run", sub, "--weights", irFixture("tiny_llama.weights.pt")}));
        QVERIFY(args.contains(dir.filePath("mlp.inputs.pt")) && args.contains(dir.filePath("mlp.expected.pt")));
        auto* label = window_->findChild<QLabel*>(QStringLiteral("messageLabel"));
        QVERIFY(label && (label->textInteractionFlags() & Qt::TextSelectableByMouse));
        QProcess run;
        run.start(QString::fromUtf8(IRSCOPE_BINARY), args << "--rtol"
                                                          << "0"
                                                          << "--atol"
                                                          << "0");
        QVERIFY(run.waitForFinished(60000));
        QVERIFY2(run.exitCode() == 0, run.readAllStandardOutput() + run.readAllStandardError());

        // Another name whose value file is someone else's: the IR is written, the values are not.
        const QString other = dir.filePath(QStringLiteral("other.json"));
        QFile theirs(dir.filePath(QStringLiteral("other.inputs.pt")));
        QVERIFY(theirs.open(QIODevice::WriteOnly));
        theirs.write("not ours");
        theirs.close();
        c->extract(nodes, other);
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY(QFile::exists(other));
        QVERIFY2(stopped.last()[0].toString().contains(QLatin1String("is not this extract's")),
                 qPrintable(stopped.last()[0].toString()));
        QVERIFY2(!window_->messageText().contains(QLatin1String("Reproduce")), qPrintable(window_->messageText()));
        QVERIFY(theirs.open(QIODevice::ReadOnly));
        QCOMPARE(theirs.readAll(), QByteArray("not ours"));
    }

    // Shift+click marks (and unmarks) a node without selecting it; Shift+drag adds a rectangle's nodes.
    void marksWithTheMouse() {
        GraphView* view = window_->graphView();
        GraphSession* session = window_->session();
        session->selectionModel()->setMarked({});
        session->selectionModel()->clearSelection();
        const int64_t node = 5;
        if (session->closedModuleOf(node) >= 0) {  // the first view shows the layers as boxes
            QSignalSpy relaid(session, &GraphSession::layoutChanged);
            session->expandAllModules();
            QVERIFY(relaid.wait(10000));
        }
        view->centerOn(ItemRef::node(node));
        QCoreApplication::processEvents();
        const QPoint at = view->viewportPosOf(ItemRef::node(node)).toPoint();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, at);
        QCOMPARE(session->selectionModel()->markedNodes(), std::vector<int64_t>{node});
        QVERIFY(session->selectionModel()->selection().isNone());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, at);
        QVERIFY(session->selectionModel()->markedNodes().empty());
        // A rectangle over the whole viewport: every node drawn there.
        const QRect vp = view->viewport()->rect();
        QTest::mousePress(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, vp.topLeft() + QPoint(2, 2));
        QMouseEvent move(QEvent::MouseMove, QPointF(vp.bottomRight() - QPoint(2, 2)),
                         view->viewport()->mapToGlobal(QPointF(vp.bottomRight() - QPoint(2, 2))), Qt::NoButton,
                         Qt::LeftButton, Qt::ShiftModifier);
        QCoreApplication::sendEvent(view->viewport(), &move);
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, Qt::ShiftModifier, vp.bottomRight() - QPoint(2, 2));
        const auto marked = session->selectionModel()->markedNodes();
        QVERIFY2(marked.size() > 1, qPrintable(QString::number(marked.size())));
        QVERIFY(std::find(marked.begin(), marked.end(), node) != marked.end());
        QVERIFY(std::is_sorted(marked.begin(), marked.end()));
    }

    // From a .pt2, Extract on a while_loop (whose body holds a cond) writes
    // the cut as a program beside the chosen name (a torch_ir JSON holds no
    // subgraph), and the reproduce line the window shows runs it: no
    // --weights, the program carries them.
    void controlFlowFromAProgram() {
        QVERIFY(irscope::test::openInFreshWindow(
            window_, ui_, QString::fromStdString(irscope::test::dataPath("nested/branch_in_loop.pt2")), QSize()));
        DebugController* c = ui_.controller;
        QVERIFY(irscope::test::waitIdle(*c));
        const auto& g = window_->session()->document()->graph;
        std::vector<int64_t> nodes;
        for (size_t i = 0; i < g.nodes.size(); ++i)
            if (g.nodes[i].name == "while_loop") nodes.push_back(static_cast<int64_t>(i));
        QCOMPARE(nodes.size(), size_t(1));
        QTemporaryDir dir;
        QSignalSpy stopped(c, &DebugController::stopped);
        c->extract(nodes, dir.filePath(QStringLiteral("loop.json")));
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY(!stopped.isEmpty());
        QVERIFY2(stopped.last()[0].toString().contains(dir.filePath(QStringLiteral("loop.pt2"))),
                 qPrintable(stopped.last()[0].toString()));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("loop.json"))));
        const QString shown = window_->messageText();
        const qsizetype at = shown.indexOf(QLatin1String("Reproduce: irscope run "));
        QVERIFY2(at >= 0, qPrintable(shown));
        const QStringList args = shown.mid(at + int(strlen("Reproduce: irscope "))).split(QLatin1Char(' '));
        QVERIFY2(!args.contains(QStringLiteral("--weights")), qPrintable(shown));
        QProcess run;
        run.start(QString::fromUtf8(IRSCOPE_BINARY), args);
        QVERIFY(run.waitForFinished(60000));
        const QString out = run.readAllStandardOutput() + run.readAllStandardError();
        QVERIFY2(run.exitCode() == 0 && out.contains(QLatin1String("while_loop (while_loop) ran its body")),
                 qPrintable(out));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestExtract)
#include "test_extract.moc"
