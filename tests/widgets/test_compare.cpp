// Comparing two IRs in the real window (offscreen): B opens beside
// A, both are coloured by the diff, selections follow each other through the
// match (FX's renumbering included), F8 / Shift+F8 step through the changes
// with the Changes dock following, the viewports stay in step, a collapsed
// module says it holds changes, B's values (a PyTorch dump of B's run) are the
// reference of A's run node for node, and closing restores the window.
// Pairs: tests/data/make_diff_fixtures.py.
#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

#include "core/diff/change_rows.h"
#include "test_support.h"
#include "wait_idle.h"
#include "widgets/compare/changes_panel.h"
#include "widgets/compare/compare_pane.h"
#include "widgets/compare/compare_session.h"
#include "widgets/compare/compare_ui.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/numeric_checks.h"

using namespace irscope;
using namespace irscope::widgets;

using irscope::test::irFixture;

namespace {
int64_t nodeIndex(const GraphSession* s, const QString& name) {
    const auto& nodes = s->document()->graph.nodes;
    for (size_t i = 0; i < nodes.size(); ++i)
        if (QString::fromStdString(nodes[i].name) == name) return static_cast<int64_t>(i);
    return -1;
}

QString selectedName(const GraphSession* s) {
    const ItemRef ref = s->selectionModel()->selection();
    if (!ref.isNode()) return {};
    return QString::fromStdString(s->document()->graph.nodes[static_cast<size_t>(ref.index)].name);
}
}  // namespace

class TestCompare : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;
    DebuggerUi debug_;
    CompareUi ui_;

    GraphSession* a() const { return window_->session(); }
    GraphSession* b() const { return ui_.session->sideB(); }

    // A new window with A open, no comparison yet.
    void openA(const QString& fileA) {
        delete window_;
        window_ = new MainWindow;
        debug_ = installDebugger(*window_);
        ui_ = installCompare(*window_, debug_.controller);
        window_->resize(1500, 950);
        window_->show();
        QSignalSpy loaded(a(), &GraphSession::graphLoaded);
        window_->openFile(irFixture(fileA));
        QVERIFY(loaded.wait(30000));
    }
    void openB(const QString& fileB) {
        QSignalSpy ready(ui_.session, &CompareSession::diffReady);
        ui_.session->open(irFixture(fileB));
        QVERIFY(ready.wait(30000));
        QTest::qWait(50);  // the splitter and dock take their sizes
    }
    void open(const QString& fileA, const QString& fileB) {
        openA(fileA);
        openB(fileB);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanupTestCase() { delete window_; }

    void bothSidesAreColouredByTheDiff() {
        open(QStringLiteral("diff/diffnet.json"), QStringLiteral("diff/diffnet_insert.json"));
        QVERIFY(ui_.pane->isVisible());
        QVERIFY(ui_.changesDock->isVisible());
        const auto sizes = window_->viewSplitter()->sizes();
        QCOMPARE(sizes.size(), 2);
        QVERIFY2(sizes[0] > 200 && sizes[1] > 200, "A and B both get room");
        const DiffMarks& mb = b()->decorations()->diffMarks();
        const DiffMarks& ma = a()->decorations()->diffMarks();
        QCOMPARE(mb.node(nodeIndex(b(), "mul")), DiffMark::Added);
        QCOMPARE(mb.node(nodeIndex(b(), "leaky_relu")), DiffMark::Changed);
        QCOMPARE(ma.node(nodeIndex(a(), "leaky_relu")), DiffMark::Changed);
        QCOMPARE(mb.node(nodeIndex(b(), "mul_1")), DiffMark::Renamed);
        QCOMPARE(ma.node(nodeIndex(a(), "mul")), DiffMark::Renamed);
        QCOMPARE(ma.node(nodeIndex(a(), "linear")), DiffMark::Unchanged);
        QCOMPARE(mb.graphInput(0), DiffMark::Unchanged);
        QVERIFY(ui_.pane->header()->text().contains(QLatin1String("diffnet_insert.json")));
        QVERIFY(ui_.changes->summaryLabel()->text().contains(QLatin1String("1 changed, 1 added, 3 renamed")));
        // The dock hides renamed-only rows until asked.
        QCOMPARE(ui_.changes->visibleRows(), 2);
        auto* renamed = ui_.changes->findChild<QCheckBox*>();
        QVERIFY(renamed);
        renamed->setChecked(true);
        QCOMPARE(ui_.changes->visibleRows(), 5);
        renamed->setChecked(false);
    }

    // A's `mul` is B's `mul_1` (FX renumbered it); B's new `mul` has no partner.
    void selectionFollowsTheMatch() {
        a()->selectionModel()->select(ItemRef::node(nodeIndex(a(), "mul")));
        QCOMPARE(selectedName(b()), QString("mul_1"));
        b()->selectionModel()->select(ItemRef::node(nodeIndex(b(), "mul_3")));
        QCOMPARE(selectedName(a()), QString("mul_2"));
        b()->selectionModel()->select(ItemRef::node(nodeIndex(b(), "mul")));
        QVERIFY(a()->selectionModel()->selection().isNone());
        QCOMPARE(ui_.session->currentRow(), 0);  // the "added" row
    }

    void f8StepsThroughTheChanges() {
        a()->selectionModel()->clearSelection();
        b()->selectionModel()->clearSelection();
        QTest::keyClick(window_, Qt::Key_F8);
        QCOMPARE(selectedName(b()), QString("mul"));  // added: B only
        QVERIFY(a()->selectionModel()->selection().isNone());
        QTest::keyClick(window_, Qt::Key_F8);
        QCOMPARE(selectedName(b()), QString("leaky_relu"));
        QCOMPARE(selectedName(a()), QString("leaky_relu"));
        const QModelIndex current = ui_.changes->table()->currentIndex();
        QVERIFY(current.isValid());
        QVERIFY(current.siblingAtColumn(1).data().toString().contains(QLatin1String("leaky_relu")));
        QVERIFY(!ui_.session->goToChange(1));  // renamed-only rows are not changes
        QTest::keyClick(window_, Qt::Key_F8, Qt::ShiftModifier);
        QCOMPARE(selectedName(b()), QString("mul"));
        // A click on a row goes there on both sides.
        const QModelIndex row1 = ui_.changes->table()->model()->index(1, 0);
        ui_.changes->table()->setCurrentIndex(row1);
        QCOMPARE(selectedName(a()), QString("leaky_relu"));
    }

    // Reloading A while comparing: the dock lets go of the old rows at once
    // and shows the new diff's; weights follow by original name.
    void reloadRedoesTheDiffAndWeightsFollow() {
        QSignalSpy stale(ui_.session, &CompareSession::diffStale);
        QSignalSpy ready(ui_.session, &CompareSession::diffReady);
        window_->reload();
        QVERIFY(ready.wait(30000));
        QVERIFY(!stale.isEmpty());
        QCOMPARE(ui_.changes->visibleRows(), 2);
        const auto w = a()->document()->index->weightIndex("scale");
        QVERIFY(w);
        a()->selectionModel()->select(ItemRef::weight(QStringLiteral("p_scale"), *w));
        QCOMPARE(b()->selectionModel()->selection().kind, RefKind::Weight);
        QCOMPARE(b()->selectionModel()->selection().name, QString("p_scale"));
    }

    void viewportsStayInStep() {
        GraphView* va = window_->graphView();
        GraphView* vb = ui_.pane->viewB();
        va->setZoom(1.5);
        va->centerOn(ItemRef::node(nodeIndex(a(), "mul_2")));
        QCOMPARE(vb->zoom(), 1.5);
        // B's view is centred on A's mul_2's partner, B's mul_3.
        const QPointF there = vb->viewportPosOf(ItemRef::node(nodeIndex(b(), "mul_3")));
        const QPointF middle(vb->viewport()->width() / 2.0, vb->viewport()->height() / 2.0);
        QVERIFY2(QLineF(there, middle).length() < 3, qPrintable(QStringLiteral("%1,%2").arg(there.x()).arg(there.y())));
        ui_.syncAction->setChecked(false);
        va->setZoom(0.7);
        QCOMPARE(vb->zoom(), 1.5);
        ui_.syncAction->setChecked(true);
    }

    // With every module of TinyLlama closed, a layer's box carries the count of changes inside.
    void collapsedModuleSaysItHoldsChanges() {
        open(QStringLiteral("tiny_llama.json"), QStringLiteral("diff/tiny_llama_seq4.json"));
        const auto* tree = b()->moduleTree();
        QVERIFY(tree);
        const auto layer = tree->find("layers.0.input_layernorm");
        QVERIFY(layer >= 0);
        QCOMPARE(b()->decorations()->diffMarks().changesIn(layer), 6);
        QSignalSpy relaid(b(), &GraphSession::layoutChanged);
        const bool open = b()->isModuleExpanded(tree->find("layers.0"));  // the first view shows it closed
        b()->setModuleExpanded(tree->find("layers.0"), false);
        if (open && relaid.isEmpty()) QVERIFY(relaid.wait(10000));
        QVERIFY(b()->closedModuleOf(nodeIndex(b(), "rsqrt")) >= 0);
        QVERIFY(b()->decorations()->diffMarks().changesIn(tree->find("layers.0")) > 6);
        // Drawn: the closed box has the amber "changed" colour on it.
        GraphView* vb = ui_.pane->viewB();
        vb->setZoom(1);
        vb->centerOn(ItemRef::module(tree->find("layers.0")));
        QImage frame(vb->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
        vb->renderFrame(frame);
        // Only around the box itself: the ops of the open layers have amber rings of their own.
        const auto items = b()->layout()->itemsOf(ItemRef::module(tree->find("layers.0")));
        QCOMPARE(items.size(), size_t{1});
        const auto r = b()->layout()->result.items[static_cast<size_t>(items[0])].rect;
        const QRect box = QRectF(vb->mapFromScene(QPointF(r.x - 6, r.y - 6)),
                                 vb->mapFromScene(QPointF(r.right() + 6, r.bottom() + 6)))
                              .toAlignedRect()
                              .intersected(frame.rect());
        QVERIFY(box.width() > 20 && box.height() > 10);
        const auto count = [&](DiffMark mark) {
            int n = 0;
            const QColor want = DiffMarks::color(mark);
            for (int y = box.top(); y <= box.bottom(); ++y)
                for (int x = box.left(); x <= box.right(); ++x) {
                    const QColor c = frame.pixelColor(x, y);
                    if (std::abs(c.red() - want.red()) < 12 && std::abs(c.green() - want.green()) < 12 &&
                        std::abs(c.blue() - want.blue()) < 12)
                        ++n;
                }
            return n;
        };
        const int amber = count(DiffMark::Changed);
        QVERIFY2(amber > 100, qPrintable(QString::number(amber)));

        // A closed module whose changes are all additions is green, like its
        // nodes (it read amber); all removals, red.
        for (const auto& [kind, mark] : {std::pair{diff::kModuleHasAdded, DiffMark::Added},
                                         std::pair{diff::kModuleHasRemoved, DiffMark::Removed}}) {
            DiffMarks marks = b()->decorations()->diffMarks();
            std::fill(marks.moduleKinds.begin(), marks.moduleKinds.end(), uint8_t(kind));
            b()->decorations()->setDiffMarks(marks);
            vb->renderFrame(frame);
            QVERIFY2(count(mark) > 100, qPrintable(QString::number(count(mark))));
            QVERIFY2(count(DiffMark::Changed) < amber / 4, qPrintable(QString::number(count(DiffMark::Changed))));
        }
    }

    // A run made before Compare opens is still there after: every node done,
    // the cursor at the end, the values readable (Compare never resets A).
    void openingCompareKeepsTheRun() {
        openA(QStringLiteral("diff/diffnet.json"));
        DebugController* c = debug_.controller;
        c->values()->loadWeights(irFixture(QStringLiteral("diff/diffnet.weights.pt")));
        c->values()->loadInputs(irFixture(QStringLiteral("diff/diffnet.inputs.pt")));
        QVERIFY(irscope::test::waitIdle(*c));
        debug_.continueAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        const int64_t n = c->nodeCount();
        QCOMPARE(c->runCursor(), n);
        openB(QStringLiteral("diff/diffnet_attr.json"));
        QVERIFY(irscope::test::waitIdle(*c));
        QCOMPARE(c->runCursor(), n);
        for (int64_t i = 0; i < n; ++i) {
            const NodeDecoration* d = a()->decorations()->nodeDecoration(i);
            QVERIFY2(d && d->state == RunMark::Done, qPrintable(QString::number(i)));
        }
    }

    // A = diffnet_attr (slope 0.2) run against B = diffnet's values as PyTorch
    // computed them: leaky_relu differs by PyTorch's figure; linear not at all.
    void bsValuesAreTheReferenceOfAsRun() {
        open(QStringLiteral("diff/diffnet_attr.json"), QStringLiteral("diff/diffnet.json"));
        DebugController* c = debug_.controller;
        c->values()->loadWeights(irFixture(QStringLiteral("diff/diffnet_attr.weights.pt")));
        c->values()->loadInputs(irFixture(QStringLiteral("diff/diffnet.inputs.pt")));
        c->values()->loadRenamedReference(irFixture(QStringLiteral("diff/diffnet.intermediates.pt")),
                                          ui_.session->tensorNamesBToA());
        QVERIFY(irscope::test::waitIdle(*c));
        debug_.continueAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        QFile f(irFixture(QStringLiteral("diff/diffnet_attr.vs_diffnet.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto want = QJsonDocument::fromJson(f.readAll()).object();
        double leaky = -1, linear = -1;
        for (const auto& r : c->checks()->errorRows()) {
            if (r.nodeName == "leaky_relu") leaky = r.metrics.maxAbs;
            if (r.nodeName == "linear") linear = r.metrics.maxAbs;
        }
        QVERIFY(std::fabs(leaky - want["leaky_relu_max_abs"].toDouble()) < 1e-6);
        // 0 where the fixture was made; an ulp of another CPU's BLAS rounding here.
        QVERIFY2(linear >= 0 && linear < 1e-6, qPrintable(QString::number(linear)));
    }

    // A reshaped weight is marked on its placeholder; the reader of it too.
    void changedWeightIsMarked() {
        open(QStringLiteral("diff/diffnet.json"), QStringLiteral("diff/diffnet_weight.json"));
        const auto w = b()->document()->index->weightIndex("scale");
        QVERIFY(w);
        QCOMPARE(b()->decorations()->diffMarks().weight(*w), DiffMark::Changed);
        QCOMPARE(a()->decorations()->diffMarks().weight(*a()->document()->index->weightIndex("fc1.weight")),
                 DiffMark::Unchanged);
        QCOMPARE(b()->decorations()->diffMarks().node(nodeIndex(b(), "mul")), DiffMark::Changed);
    }

    void closingRestoresTheWindow() {
        ui_.closeAction->trigger();
        QVERIFY(!ui_.pane->isVisible());
        QVERIFY(!ui_.changesDock->isVisible());
        QVERIFY(a()->decorations()->diffMarks().empty());
        QVERIFY(!ui_.nextAction->isEnabled());
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestCompare)
#include "test_compare.moc"
