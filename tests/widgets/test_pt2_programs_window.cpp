// torch.export programs with what pytorch-ir's JSON cannot hold
// (tests/data/programs/) opened in the window as a user opens them: a cond
// and a loop, a PT2E-quantized CNN and a dynamic-sequence decoder run to the
// module's outputs with nothing but the archive; an input outside the
// decoder's range is refused before the run, naming the symbol and its
// range; a damaged archive is called damaged, not "no state_dict loaded".
// A cond is drawn as a frame around both branches; after a run the branch
// taken is marked (decoration, Execution section), per input; its frame
// closes from its title like a module's.
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/exec_info_panel.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
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
        return loaded.wait(30000) && ui_.controller->waitIdle();
    }

    // F5 once the loads are done; the status the run stopped with.
    QString continueToEnd() {
        DebugController* c = ui_.controller;
        if (!c->waitIdle()) return QStringLiteral("loads never finished");
        QSignalSpy stopped(c, &DebugController::stopped);
        ui_.continueAction->trigger();
        if (!c->waitIdle() || stopped.isEmpty()) return QString();
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
        QVERIFY2(c->missing().empty(), "the archive brings its weights and example inputs");
        c->loadExpected(programPath(name + QStringLiteral(".expected.pt")));
        const QString status = continueToEnd();
        QVERIFY2(!c->lastRunFailed(), qPrintable(status));
        QCOMPARE(c->cursor(), c->nodeCount());
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
        c->loadExpected(programPath(QStringLiteral("cond_branches.expected.pt")));
        continueToEnd();
        QVERIFY(c->verdict().startsWith(QLatin1String("outputs match")));
        QVERIFY(s->nodeDecoration(cond));
        QCOMPARE(s->nodeDecoration(cond)->takenSubgraph, 0);
        s->select(ItemRef::node(cond));
        auto* exec = window_->findChild<ExecInfoPanel*>();
        QVERIFY(exec);
        QVERIFY2(exec->text().contains(QLatin1String("Took")) && exec->text().contains(QLatin1String("true_graph_0")),
                 qPrintable(exec->text()));

        c->loadInputs(programPath(QStringLiteral("cond_branches.inputs_b.pt")));
        c->loadExpected(programPath(QStringLiteral("cond_branches.expected_b.pt")));
        QVERIFY(c->waitIdle());
        continueToEnd();
        QVERIFY2(c->verdict().startsWith(QLatin1String("outputs match")), qPrintable(c->verdict()));
        QCOMPARE(s->nodeDecoration(cond)->takenSubgraph, 1);

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

    // A sequence longer than Dim("seq", max=256): refused before any node
    // runs, with the symbol, its range and the input, where missing values
    // are listed (Diagnostics, the status bar).
    void anInputOutsideTheProgramsRangeIsRefused() {
        DebugController* c = ui_.controller;
        QVERIFY(open(QStringLiteral("dynamic_seq_llama.pt2")));
        c->loadInputs(programPath(QStringLiteral("dynamic_seq_llama.refused_long.pt")));
        QVERIFY(c->waitIdle());
        QString refusal;
        for (const auto& row : c->missing())
            if (!row.value.refusal.empty()) refusal = QString::fromStdString(row.value.refusal);
        QVERIFY2(refusal.contains(QStringLiteral("input 'ids' has shape [1, 300]: 300 at dim 1 is outside s27 "
                                                 "\u2208 [2, 256]")),
                 qPrintable(refusal));
        continueToEnd();
        QCOMPARE(c->cursor(), int64_t{0});  // nothing ran
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
        QVERIFY(c->path(irscope::exec::ValueFile::Weights).isEmpty());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestPt2ProgramsWindow)
#include "test_pt2_programs_window.moc"
