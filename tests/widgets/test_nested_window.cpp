// Control flow nested two levels in the window (tests/data/nested/
// branch_in_loop.pt2: a cond inside a while_loop's body, which takes its
// true branch in the body's first call and its false one after). Driven as a
// user drives it: F10 to the loop, F11 into it, F10 to the cond inside the
// body, F11 into the cond: the Call Stack lists both frames, innermost
// first; the frames in the drawing say the call each stands in and the
// branch not taken in this call; a click on a node two levels deep selects
// that node (not the outer loop), its Properties give its position, and its
// value appears in the Tensor dock once it ran in this call, not before; F9
// on it stops Continue there once per call that reaches it, and the run then
// finishes; Shift+F11 leaves one level.
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "core/ir/execution_position.h"
#include "debugger_window.h"
#include "wait_idle.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/exec_info_panel.h"
#include "widgets/debugger/tensor_viewer.h"
#include "widgets/debugger/tensor_viewer_area.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/panels/call_stack_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"

using namespace irscope::widgets;

namespace {

const char* const kBody = "while_loop/while_loop_body_graph_0";
const char* const kTrueBranch = "while_loop/while_loop_body_graph_0/cond/true_graph_0";

}  // namespace

class TestNestedWindow : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;
    DebuggerUi ui_;

    bool press(QAction* action) {
        action->trigger();
        return irscope::test::waitIdle(*ui_.controller);
    }
    QString callStack() const { return window_->panelAs<CallStackPanel>(kCallStackPanel)->frames().join(" | "); }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanupTestCase() { delete window_; }

    void stepIntoABranchInsideALoopBody() {
        QVERIFY(irscope::test::openInFreshWindow(
            window_, ui_, QString::fromUtf8(IRSCOPE_TEST_DATA) + QStringLiteral("/nested/branch_in_loop.pt2")));
        DebugController* c = ui_.controller;
        GraphSession* s = window_->session();
        QVERIFY(irscope::test::waitIdle(*c));
        const auto& graph = s->document()->graph;
        int64_t loop = -1;
        for (size_t n = 0; n < graph.nodes.size(); ++n)
            if (!graph.nodes[n].subgraphs.empty()) loop = static_cast<int64_t>(n);
        QVERIFY(loop >= 0);
        const irscope::ir::Graph* body = irscope::ir::subgraphAtPath(graph, kBody);
        QVERIFY(body);

        // F10 to the loop, F11 into it, F10 through its first condition call
        // into the body until the cond stands next.
        while (c->runCursor() < loop) QVERIFY(press(ui_.stepAction));
        QVERIFY(press(ui_.stepIntoAction));
        QVERIFY(c->frame());
        for (int guard = 0; guard < 20; ++guard) {
            const auto* f = c->frame();
            QVERIFY(f);
            if (f->path == kBody && f->cursor < static_cast<int64_t>(body->nodes.size()) &&
                !body->nodes[static_cast<size_t>(f->cursor)].subgraphs.empty())
                break;
            QVERIFY(press(ui_.stepAction));
        }
        QCOMPARE(c->frame()->path, std::string(kBody));
        QVERIFY2(callStack().contains(QStringLiteral("▶ cond")), qPrintable(callStack()));

        // F11 at the cond: into the branch it takes in this call.
        QVERIFY(press(ui_.stepIntoAction));
        QCOMPARE(c->frames().size(), size_t(2));
        QCOMPARE(c->frame()->path, std::string(kTrueBranch));
        QCOMPARE(c->frame()->cursor, int64_t(0));
        const QStringList frames = window_->panelAs<CallStackPanel>(kCallStackPanel)->frames();
        QVERIFY2(frames.size() >= 5, qPrintable(callStack()));
        QVERIFY2(frames[0].startsWith(QStringLiteral("▶ linear")), qPrintable(callStack()));
        QVERIFY2(frames[1].contains(QStringLiteral("true_graph_0    iteration 1 of 1")), qPrintable(callStack()));
        QVERIFY2(frames[2].startsWith(QStringLiteral("cond")), qPrintable(callStack()));
        QVERIFY2(frames[3].contains(QStringLiteral("while_loop_body_graph_0    iteration 1 of 3")),
                 qPrintable(callStack()));
        QVERIFY2(frames[4].startsWith(QStringLiteral("while_loop")), qPrintable(callStack()));

        // A click on `linear`, two levels deep, selects it.
        auto* view = window_->findChild<GraphView*>();
        QVERIFY(view);
        int32_t linearItem = -1;
        const auto& items = s->layout()->result.items;
        for (size_t i = 0; i < items.size(); ++i)
            if (items[i].kind == irscope::layout::ItemKind::Op && items[i].position == kTrueBranch &&
                items[i].irIndex == 0)
                linearItem = static_cast<int32_t>(i);
        QVERIFY(linearItem >= 0);
        const ItemRef linear = s->layout()->refOf(linearItem);
        QVERIFY(linear.isSubgraphNode());
        QCOMPARE(linear.subgraph, std::string(kTrueBranch));
        view->centerOn(linear);
        const auto& r = items[static_cast<size_t>(linearItem)].rect;
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                          view->mapFromScene(QPointF(r.x + r.width / 2, r.y + r.height / 2)).toPoint());
        QCOMPARE(s->selectionModel()->selection(), linear);
        QVERIFY(irscope::test::waitIdle(*c));
        auto* exec = window_->findChild<ExecInfoPanel*>();
        QVERIFY(exec);
        QVERIFY2(exec->text().contains(QStringLiteral("current (next to run)")), qPrintable(exec->text()));
        QCOMPARE(c->frame()->cursor, int64_t(0));  // selecting is not stepping
        auto* viewer = ui_.tensors->follower();
        QCOMPARE(viewer->tensor(), QString::fromUtf8(kTrueBranch) + QStringLiteral("/linear"));
        QVERIFY2(!viewer->summaryText().contains(QStringLiteral("2 × 4")), qPrintable(viewer->summaryText()));

        // F10: it ran in this call, and its value is there.
        QVERIFY(press(ui_.stepAction));
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY2(exec->text().contains(QStringLiteral("ran (in this call)")), qPrintable(exec->text()));
        QVERIFY2(viewer->summaryText().contains(QStringLiteral("2 × 4")) ||
                     viewer->summaryText().contains(QStringLiteral("[2, 4]")),
                 qPrintable(viewer->summaryText()));

        // Shift+F11 leaves the branch, standing in the body after the cond.
        QVERIFY(press(ui_.stepOutAction));
        QCOMPARE(c->frames().size(), size_t(1));
        QCOMPARE(c->frame()->path, std::string(kBody));

        // F9 on `linear`: Continue stops there in each call that reaches it
        // (the true branch is taken in the body's first call only), then finishes.
        QVERIFY(press(ui_.resetAction));
        s->selectionModel()->select(linear);
        c->toggleBreakpointAtSelection();
        QCOMPARE(c->subgraphBreakpoints().size(), size_t(1));
        QCOMPARE(c->subgraphBreakpoints().front().subgraph, std::string(kTrueBranch));
        QSignalSpy stopped(c, &DebugController::stopped);
        QVERIFY(press(ui_.continueAction));
        QVERIFY(!stopped.isEmpty());
        QVERIFY2(stopped.last()[0].toString().contains(QStringLiteral("breakpoint")),
                 qPrintable(stopped.last()[0].toString()));
        QCOMPARE(c->frames().size(), size_t(2));
        QCOMPARE(c->frame()->path, std::string(kTrueBranch));
        QCOMPARE(c->frames().front().iteration, int64_t(0));
        QVERIFY(press(ui_.continueAction));
        QVERIFY(c->frames().empty());
        QCOMPARE(c->runCursor(), c->nodeCount());
        c->toggleBreakpointAtSelection();
        QVERIFY(c->subgraphBreakpoints().empty());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestNestedWindow)
#include "test_nested_window.moc"
