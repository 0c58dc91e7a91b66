// torch.export programs with what pytorch-ir's JSON cannot hold
// (tests/data/programs/) opened in the window as a user opens them: a cond
// and a loop, a PT2E-quantized CNN and a dynamic-sequence decoder run to the
// module's outputs with nothing but the archive; an input outside the
// decoder's range is refused before the run, naming the symbol and its
// range; a damaged archive is called damaged, not "no state_dict loaded".
// A cond is drawn as a frame around both branches; after a run the branch
// taken is marked (decoration, Execution section), per input; its frame
// closes from its title like a module's. Step Into a while_loop stands
// before its first subgraph node, the Call Stack shows the subgraph and its
// iteration above the loop, the iteration selector brings back any
// iteration's values, and F9 on a node inside the body stops Continue there,
// once per iteration.
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "wait_idle.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/exec_info_panel.h"
#include "widgets/debugger/iteration_selector.h"
#include "widgets/debugger/tensor_viewer.h"
#include "widgets/debugger/tensor_viewer_area.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/panels/call_stack_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"

using namespace irscope::widgets;

namespace {

QString programPath(const QString& file) {
    return QString::fromUtf8(IRSCOPE_TEST_DATA) + QStringLiteral("/programs/") + file;
}

}  // namespace

class TestPt2ProgramsWindow : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;
    DebuggerUi ui_;

    bool open(const QString& file) {
        QSignalSpy loaded(window_->session(), &GraphSession::graphLoaded);
        window_->openFile(programPath(file));
        return loaded.wait(30000) && irscope::test::waitIdle(*ui_.controller);
    }

    // F5 once the loads are done; the status the run stopped with.
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
    }
    void cleanupTestCase() { delete window_; }

    void programsRunToTheModulesOutputs_data() {
        QTest::addColumn<QString>("name");
        for (const char* name : {"cond_branches", "while_loop_count", "pt2e_static_cnn", "dynamic_seq_llama"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void programsRunToTheModulesOutputs() {
        QFETCH(QString, name);
        DebugController* c = ui_.controller;
        QVERIFY(open(name + QStringLiteral(".pt2")));
        QVERIFY2(c->values()->missing().empty(), "the archive brings its weights and example inputs");
        c->values()->loadExpected(programPath(name + QStringLiteral(".expected.pt")));
        const QString status = continueToEnd();
        QVERIFY2(!c->lastRunFailed(), qPrintable(status));
        QCOMPARE(c->runCursor(), c->nodeCount());
        QVERIFY2(c->verdict().startsWith(QLatin1String("outputs match")), qPrintable(c->verdict() + " / " + status));
    }

    void aCondShowsBothBranchesAndMarksTheOneTaken() {
        DebugController* c = ui_.controller;
        GraphSession* s = window_->session();
        QVERIFY(open(QStringLiteral("cond_branches.pt2")));
        int64_t cond = -1;
        const auto& nodes = s->document()->graph.nodes;
        for (size_t n = 0; n < nodes.size(); ++n)
            if (!nodes[n].subgraphs.empty()) cond = static_cast<int64_t>(n);
        QVERIFY(cond >= 0);
        QVERIFY(s->isRegionOpen(cond));
        const irscope::layout::PlacedItem* region = nullptr;
        QStringList branches;
        for (const auto& it : s->layout()->result.items) {
            if (it.kind == irscope::layout::ItemKind::Region) region = &it;
            if (it.kind == irscope::layout::ItemKind::Subgraph) branches << QString::fromStdString(it.name);
        }
        QVERIFY(region);
        QCOMPARE(region->irIndex, cond);
        QCOMPARE(branches, QStringList({QStringLiteral("true_graph_0"), QStringLiteral("false_graph_0")}));
        QCOMPARE(s->layout()->itemsOf(ItemRef::node(cond)).size(), size_t(1));  // selecting the cond finds its frame

        // The example input takes the true branch; inputs_b the false one.
        c->values()->loadExpected(programPath(QStringLiteral("cond_branches.expected.pt")));
        continueToEnd();
        QVERIFY(c->verdict().startsWith(QLatin1String("outputs match")));
        QVERIFY(s->decorations()->nodeDecoration(cond));
        QCOMPARE(s->decorations()->nodeDecoration(cond)->takenSubgraph, 0);
        s->selectionModel()->select(ItemRef::node(cond));
        auto* exec = window_->findChild<ExecInfoPanel*>();
        QVERIFY(exec);
        QVERIFY2(exec->text().contains(QLatin1String("Took")) && exec->text().contains(QLatin1String("true_graph_0")),
                 qPrintable(exec->text()));
        // Beside the branch, the predicate's value that chose it.
        const QString predicate = QString::fromStdString(s->document()->graph.nodes[cond].inputs[0].name);
        QVERIFY2(exec->text().contains(QStringLiteral("Predicate") + QLatin1Char('\t') + predicate + " = True") ||
                     exec->text().contains(predicate + " = True"),
                 qPrintable(exec->text()));

        c->values()->loadInputs(programPath(QStringLiteral("cond_branches.inputs_b.pt")));
        c->values()->loadExpected(programPath(QStringLiteral("cond_branches.expected_b.pt")));
        QVERIFY(irscope::test::waitIdle(*c));
        continueToEnd();
        QVERIFY2(c->verdict().startsWith(QLatin1String("outputs match")), qPrintable(c->verdict()));
        QCOMPARE(s->decorations()->nodeDecoration(cond)->takenSubgraph, 1);

        // F11 at the cond enters the branch it takes (the false one for inputs_b).
        ui_.resetAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        while (c->runCursor() < cond) {
            ui_.stepAction->trigger();
            QVERIFY(irscope::test::waitIdle(*c));
        }
        ui_.stepIntoAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY(c->frame());
        QCOMPARE(c->frame()->subgraph, 1);
        QVERIFY2(window_->panelAs<CallStackPanel>(kCallStackPanel)
                     ->frames()
                     .join(" | ")
                     .contains(QStringLiteral("false_graph_0    iteration 1 of 1")),
                 qPrintable(window_->panelAs<CallStackPanel>(kCallStackPanel)->frames().join(" | ")));
        ui_.stepOutAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY(!c->frame());

        // A double-click on the frame's title closes it to the op's box.
        auto* view = window_->findChild<GraphView*>();
        QVERIFY(view);
        view->centerOn(ItemRef::node(cond));
        const auto items = s->layout()->itemsOf(ItemRef::node(cond));
        const auto& r = s->layout()->result.items[static_cast<size_t>(items.front())].rect;
        const QPoint title = view->mapFromScene(QPointF(r.x + r.width / 2, r.y + 8)).toPoint();
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, title);
        QVERIFY(!s->isRegionOpen(cond));
        const auto closed = s->layout()->itemsOf(ItemRef::node(cond));
        QCOMPARE(closed.size(), size_t(1));
        QCOMPARE(s->layout()->result.items[static_cast<size_t>(closed.front())].kind, irscope::layout::ItemKind::Op);
        s->setRegionOpen(cond, true);
    }

    void stepIntoALoopBodyChooseAnIterationAndBreakInside() {
        DebugController* c = ui_.controller;
        GraphSession* s = window_->session();
        QVERIFY(open(QStringLiteral("while_loop_count.pt2")));
        const auto& nodes = s->document()->graph.nodes;
        int64_t loop = -1;
        for (size_t n = 0; n < nodes.size(); ++n)
            if (!nodes[n].subgraphs.empty()) loop = static_cast<int64_t>(n);
        QVERIFY(loop >= 0);
        const auto& subs = nodes[static_cast<size_t>(loop)].subgraphs;
        const int32_t body = subs[0].name.find("body") != std::string::npos ? 0 : 1;
        const auto& bodyGraph = *subs[static_cast<size_t>(body)].graph;
        const std::string bodyPath = nodes[static_cast<size_t>(loop)].name + "/" + subs[static_cast<size_t>(body)].name;
        const std::string acc = bodyGraph.graphOutputs.back().name;  // acc * 0.5 + 1.0
        int64_t accAt = -1;
        for (size_t j = 0; j < bodyGraph.nodes.size(); ++j)
            if (bodyGraph.nodes[j].outputs.front().name == acc) accAt = static_cast<int64_t>(j);
        QVERIFY(accAt >= 0);

        while (c->runCursor() < loop) {
            ui_.stepAction->trigger();
            QVERIFY(irscope::test::waitIdle(*c));
        }
        ui_.stepIntoAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY(c->frame());
        QCOMPARE(c->frame()->node, loop);
        QCOMPARE(c->frame()->cursor, int64_t(0));
        QCOMPARE(s->selectionModel()->runCursor(), loop);  // the loop is the call site
        auto* stack = window_->panelAs<CallStackPanel>(kCallStackPanel);
        QStringList frames = stack->frames();
        QVERIFY2(frames.size() >= 3, qPrintable(frames.join(" | ")));
        QVERIFY2(frames[0].startsWith(QStringLiteral("▶ lt")), qPrintable(frames.join(" | ")));
        QVERIFY2(frames[1].contains(QStringLiteral("cond_graph_0    iteration 1 of 6")),
                 qPrintable(frames.join(" | ")));
        QVERIFY2(frames[2].startsWith(QString::fromStdString(nodes[static_cast<size_t>(loop)].name)),
                 qPrintable(frames.join(" | ")));
        // In the condition's first call the body has not run: its node has no
        // value where the debugger stands (not the last iteration's), and its
        // frame says so.
        QCOMPARE(c->frame()->callsBefore.at(static_cast<size_t>(body)), int64_t(0));
        s->selectionModel()->select(ItemRef::subgraphNode(loop, bodyPath, accAt, QString::fromStdString(acc)));
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY2(!ui_.tensors->follower()->summaryText().contains(QStringLiteral("3 × 4")) &&
                     !ui_.tensors->follower()->summaryText().contains(QStringLiteral("[3, 4]")),
                 qPrintable(ui_.tensors->follower()->summaryText()));
        QCOMPARE(c->frame()->cursor, int64_t(0));  // looking is not stepping
        QVERIFY2(ui_.execInfo->text().contains(QStringLiteral("not run yet")), qPrintable(ui_.execInfo->text()));

        // F10 twice: past the condition into the first body call.
        for (int k = 0; k < 2; ++k) {
            ui_.stepAction->trigger();
            QVERIFY(irscope::test::waitIdle(*c));
        }
        QCOMPARE(c->frame()->subgraph, body);
        QCOMPARE(c->frame()->iteration, int64_t(0));
        // In the body's first call now: its node is there to run, in this call.
        QVERIFY2(ui_.execInfo->text().contains(QStringLiteral("call 1 of 5")), qPrintable(ui_.execInfo->text()));

        // The iteration selector: the fifth iteration, every value of it
        // shown; looking there is not moving the run, which stays in the
        // body's first call, and says so.
        auto* selector = window_->findChild<IterationSelector*>();
        QVERIFY(selector);
        QCOMPARE(selector->iterations(), 5);
        const int64_t standing = c->frame()->cursor;
        selector->choose(5);
        QVERIFY(irscope::test::waitIdle(*c));
        QCOMPARE(c->frame()->iteration, int64_t(0));
        QCOMPARE(c->frame()->cursor, standing);
        QCOMPARE(c->frame()->viewedIteration, int64_t(4));
        QCOMPARE(selector->iteration(), 5);
        QVERIFY2(window_->panelAs<CallStackPanel>(kCallStackPanel)->frames().join(" | ").contains("iteration 1 of 5"),
                 qPrintable(window_->panelAs<CallStackPanel>(kCallStackPanel)->frames().join(" | ")));
        // Selecting the body's node shows its value of that iteration in the Tensor dock.
        s->selectionModel()->select(ItemRef::subgraphNode(loop, bodyPath, accAt, QString::fromStdString(acc)));
        QVERIFY(irscope::test::waitIdle(*c));
        auto* viewer = ui_.tensors->follower();
        const QString qualified =
            QString::fromStdString(nodes[static_cast<size_t>(loop)].name + "/" + subs[body].name + "/" + acc);
        QCOMPARE(viewer->tensor(), qualified);
        QVERIFY2(viewer->summaryText().contains(QStringLiteral("3 × 4")) ||
                     viewer->summaryText().contains(QStringLiteral("[3, 4]")),
                 qPrintable(viewer->summaryText()));

        // Shift+F11 leaves the loop.
        ui_.stepOutAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY(!c->frame());

        // F9 on the body's node: Continue stops there in each iteration, then finishes.
        ui_.resetAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        c->toggleBreakpointAtSelection();
        QCOMPARE(c->subgraphBreakpoints().size(), size_t(1));
        for (int k = 0; k < 5; ++k) {
            const QString status = continueToEnd();
            QVERIFY2(c->frame() && c->frame()->iteration == k && c->frame()->cursor == accAt, qPrintable(status));
            QVERIFY2(status.contains(QStringLiteral("breakpoint")), qPrintable(status));
        }
        continueToEnd();
        QVERIFY(!c->frame());
        QCOMPARE(c->runCursor(), c->nodeCount());
        c->toggleBreakpointAtSelection();
        QVERIFY(c->subgraphBreakpoints().empty());
    }

    // A sequence longer than Dim("seq", max=256): refused before any node
    // runs, with the symbol, its range and the input, where missing values
    // are listed (Diagnostics, the status bar).
    void anInputOutsideTheProgramsRangeIsRefused() {
        DebugController* c = ui_.controller;
        QVERIFY(open(QStringLiteral("dynamic_seq_llama.pt2")));
        c->values()->loadInputs(programPath(QStringLiteral("dynamic_seq_llama.refused_long.pt")));
        QVERIFY(irscope::test::waitIdle(*c));
        QString refusal;
        for (const auto& row : c->values()->missing())
            if (!row.value.refusal.empty()) refusal = QString::fromStdString(row.value.refusal);
        QVERIFY2(refusal.contains(QStringLiteral("input 'ids' has shape [1, 300]: 300 at dim 1 is outside s27 "
                                                 "\u2208 [2, 256]")),
                 qPrintable(refusal));
        // The headline says what is wrong: an input outside a range, not a value missing.
        const auto* status = window_->findChild<QLabel*>(QStringLiteral("debugStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QLatin1String("1 input(s) outside the program's ranges")) &&
                     !status->text().contains(QLatin1String("missing")),
                 qPrintable(status->text()));
        QVERIFY2(status->toolTip().contains(QLatin1String("outside s27")), qPrintable(status->toolTip()));
        // The Inputs dock's Problem column says it beside the input.
        QString problem;
        for (const auto& r : c->values()->inputRows())
            if (r.name == "ids") problem = QString::fromStdString(r.problem);
        QVERIFY2(problem.contains(QLatin1String("outside s27")), qPrintable(problem));
        continueToEnd();
        QCOMPARE(c->runCursor(), int64_t{0});  // nothing ran
    }

    // torch._check(position.item() >= 1) with position 0: the run stops at
    // the program's own check, which names the expression and the value that
    // broke it, in the status bar and beside the input in the Inputs dock;
    // the input the check does not read is not blamed. Reset clears it.
    void aFailedRuntimeCheckIsTheInputsProblem() {
        DebugController* c = ui_.controller;
        QVERIFY(open(QStringLiteral("sized_kv_cache_item.pt2")));
        c->values()->loadInputs(programPath(QStringLiteral("sized_kv_cache_item.refused_position_zero.pt")));
        QVERIFY(irscope::test::waitIdle(*c));
        const QString status = continueToEnd();
        QVERIFY2(c->lastRunFailed(), qPrintable(status));
        QVERIFY2(status.contains(QLatin1String("refuses these inputs")) && status.contains(QLatin1String("u0 >= 1")),
                 qPrintable(status));
        QVERIFY(irscope::test::waitIdle(*c));
        QString position, cache;
        for (const auto& r : c->values()->inputRows()) {
            if (r.name == "position") position = QString::fromStdString(r.problem);
            if (r.name == "cache") cache = QString::fromStdString(r.problem);
        }
        QVERIFY2(position.contains(QLatin1String("refuses it")) && position.contains(QLatin1String("u0 >= 1")) &&
                     position.contains(QLatin1String("position.item()")),
                 qPrintable(position));
        QVERIFY2(cache.isEmpty(), qPrintable(cache));
        ui_.resetAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        for (const auto& r : c->values()->inputRows()) QVERIFY2(r.problem.empty(), r.problem.c_str());
    }

    // A weight file gone from the archive: the window says the archive is
    // damaged and which entry, and loads none of its weights.
    void aDamagedArchiveIsCalledDamaged() {
        DebugController* c = ui_.controller;
        QVERIFY(open(QStringLiteral("damaged_weight_file.pt2")));
        QCoreApplication::processEvents();
        QVERIFY2(window_->messageVisible() &&
                     window_->messageText().contains(QLatin1String("the archive is damaged")) &&
                     window_->messageText().contains(QLatin1String("mlp_float/data/weights/weight_0")),
                 qPrintable(window_->messageText()));
        QVERIFY(c->values()->path(irscope::exec::ValueFile::Weights).isEmpty());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestPt2ProgramsWindow)
#include "test_pt2_programs_window.moc"
