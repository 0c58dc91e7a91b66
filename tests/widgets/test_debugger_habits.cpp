// A debugger's habits (Visual Studio, Qt Creator, RenderDoc), driven through
// the real window: the view brings the next node on screen whenever a run
// pauses, even after the user scrolled away; Go > Show Next Node (Alt+Num *)
// goes to it; F9 on a module box is a breakpoint on its entry, listed as
// such; picking a weight drawn only inside a closed module opens the module;
// quitting with typed constants asks first; the Weights name filter keeps up
// with typing at scale; panels keep their columns and sort between launches;
// the keys over the graph never cover a node.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include "core/modules/module_tree.h"
#include "debugger_window.h"
#include "test_support.h"
#include "wait_idle.h"
#include "widgets/debugger/breakpoints_panel.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/weights_panel.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/graph_view/overlay_legend.h"
#include "widgets/main_window/main_window.h"
#include "widgets/panels/modules_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/numeric_checks.h"

using namespace irscope;
using namespace irscope::widgets;

using irscope::test::irFixture;

namespace {}  // namespace

class TestDebuggerHabits : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;
    DebuggerUi ui_;

    GraphSession* session() const { return window_->session(); }
    DebugController* ctl() const { return ui_.controller; }
    GraphView* view() const { return window_->graphView(); }

    void open(const QString& stem, const QString& ir = {}) {
        QVERIFY(irscope::test::openInFreshWindow(window_, ui_, irFixture(ir.isEmpty() ? stem + ".json" : ir)));
        ctl()->values()->loadWeights(irFixture(stem + ".weights.pt"));
        ctl()->values()->loadInputs(irFixture(stem + ".inputs.pt"));
        QVERIFY(irscope::test::waitIdle(*ctl()));
    }
    // llama_block drawn flat (no module boxes) at 2x: its last nodes are far
    // below the inputs, off screen.
    void openFlatAtTwice() {
        open(QStringLiteral("llama_block"));
        QSignalSpy relaid(session(), &GraphSession::layoutChanged);
        session()->setGroupByModule(false);
        QVERIFY(relaid.wait(20000));
        view()->setZoom(2);
    }
    void trigger(QAction* a) {
        QVERIFY(a && a->isEnabled());
        a->trigger();
        QVERIFY(irscope::test::waitIdle(*ctl()));
    }
    // Wholly inside the viewport.
    bool onScreen(int64_t node) const {
        const auto* lay = session()->layout();
        const auto items = lay->itemsOf(ItemRef::node(node));
        if (items.empty()) return false;
        const auto& r = lay->result.items[items.front()].rect;
        const QPointF a = view()->mapFromScene({r.x, r.y}), b = view()->mapFromScene({r.x + r.width, r.y + r.height});
        return QRectF(view()->viewport()->rect()).contains(QRectF(a, b));
    }
    bool onScreenModule(int64_t module) const {
        const auto* lay = session()->layout();
        const auto items = lay->itemsOf(ItemRef::module(module));
        if (items.empty()) return false;
        const auto& r = lay->result.items[items.front()].rect;
        const QPointF a = view()->mapFromScene({r.x, r.y});
        return QRectF(view()->viewport()->rect()).contains(a);
    }
    // The user scrolls back to the top left.
    void scrollAway() {
        view()->horizontalScrollBar()->setValue(0);
        view()->verticalScrollBar()->setValue(0);
    }
    // Answers the quit question with `button` once it shows; its text goes to `text`.
    void answerQuitQuestion(QMessageBox::StandardButton button, QString* text) {
        auto* timer = new QTimer(this);
        connect(timer, &QTimer::timeout, this, [timer, button, text] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box || box->objectName() != QStringLiteral("unsavedWorkBox")) return;
            *text = box->informativeText();
            timer->stop();
            timer->deleteLater();
            box->button(button)->click();
        });
        timer->start(20);
    }
    QAction* showNextNode() const { return window_->findChild<QAction*>(QStringLiteral("showNextNodeAction")); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanupTestCase() { delete window_; }

    // Flat llama_block at 2x: its last nodes are far below the inputs. A
    // breakpoint near the end, F5: the paused node is on screen. The user
    // scrolls back to the top; F10: the next node is on screen again (the
    // view used to stop following once the user had moved it).
    void viewFollowsEveryPause() {
        openFlatAtTwice();
        const int64_t n = static_cast<int64_t>(session()->document()->graph.nodes.size());
        scrollAway();
        QVERIFY(!onScreen(n - 2));
        ctl()->toggleBreakpoint(n - 2);
        trigger(ui_.continueAction);
        QCOMPARE(ctl()->runCursor(), n - 2);
        QVERIFY(onScreen(n - 2));

        scrollAway();
        QVERIFY(!onScreen(n - 1));
        trigger(ui_.stepAction);
        QCOMPARE(ctl()->runCursor(), n - 1);
        QVERIFY(onScreen(n - 1));

        // A pause on a node already in view does not move the view.
        const int h = view()->horizontalScrollBar()->value(), v = view()->verticalScrollBar()->value();
        ctl()->toggleBreakpoint(n - 2);
        trigger(ui_.resetAction);
        ctl()->runToNode(n - 2);  // stops before n - 1: in view already
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(ctl()->runCursor(), n - 1);
        QCOMPARE(view()->horizontalScrollBar()->value(), h);
        QCOMPARE(view()->verticalScrollBar()->value(), v);
    }

    // Go > Show Next Node, Alt+Num * as in Visual Studio: selects the next
    // node and brings it on screen; disabled while nothing is paused.
    void showNextNodeGoesThere() {
        openFlatAtTwice();
        QAction* next = showNextNode();
        QVERIFY(next);
        QVERIFY(next->shortcuts().contains(
            QKeySequence(QKeyCombination(Qt::AltModifier | Qt::KeypadModifier, Qt::Key_Asterisk))));
        QVERIFY(window_->goMenu()->actions().contains(next));
        const int64_t n = static_cast<int64_t>(session()->document()->graph.nodes.size());
        ctl()->runToNode(n - 3);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(ctl()->runCursor(), n - 2);
        scrollAway();
        QVERIFY(!onScreen(n - 2));
        trigger(next);
        QVERIFY(onScreen(n - 2));
        QCOMPARE(session()->selectionModel()->selection(), ItemRef::node(n - 2));
        trigger(ui_.continueAction);  // to the end: nothing is next
        QVERIFY(!next->isEnabled());
    }

    // F9 on a closed block of resnet_tiny: a breakpoint on the block's first
    // node, listed as the module's entry; F5 stops there; F9 again clears it.
    void f9OnAModuleBreaksAtItsEntry() {
        open(QStringLiteral("resnet_tiny"));
        const auto* tree = session()->moduleTree();
        QVERIFY(tree);
        const int64_t block = tree->find("layer2.0");
        QVERIFY(block > 0);
        session()->setModuleExpanded(block, false);
        QTRY_COMPARE(session()->closedModuleOf(tree->module(static_cast<modules::ModuleId>(block)).firstNode), block);
        const int64_t entry = tree->module(static_cast<modules::ModuleId>(block)).firstNode;
        QVERIFY(entry > 0);
        session()->selectionModel()->select(ItemRef::module(block, QStringLiteral("layer2.0")));
        trigger(ui_.breakpointAction);
        QVERIFY(ctl()->nodeInfos()[entry].breakpoint);
        auto* panel = window_->findChild<BreakpointsPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->entries().size(), 1);
        QVERIFY2(panel->entries().front().startsWith(QStringLiteral("● entry of layer2.0")),
                 qPrintable(panel->entries().front()));
        trigger(ui_.continueAction);
        QCOMPARE(ctl()->runCursor(), entry);
        session()->selectionModel()->select(ItemRef::module(block, QStringLiteral("layer2.0")));
        trigger(ui_.breakpointAction);
        QVERIFY(!ctl()->nodeInfos()[entry].breakpoint);
        QCOMPARE(panel->entries().size(), 0);
    }

    // A weight drawn only inside a closed block: picking it (as the Weights
    // dock does) opens the block, so the weight is drawn and can be shown.
    void pickingAWeightInAClosedModuleOpensIt() {
        open(QStringLiteral("resnet_tiny"));
        const auto* tree = session()->moduleTree();
        const int64_t block = tree->find("layer1.0");
        QVERIFY(block > 0);
        session()->setModuleExpanded(block, false);
        const auto& graph = session()->document()->graph;
        QString placeholder;
        int64_t weight = -1;
        for (const auto& [ph, original] : graph.weightNameMapping)
            if (original.rfind("layer1.0.conv1.weight", 0) == 0) {
                placeholder = QString::fromStdString(ph);
                weight = session()->document()->index->weightIndex(ph).value_or(-1);
            }
        QVERIFY2(!placeholder.isEmpty(), "resnet_tiny has layer1.0.conv1.weight");
        QTRY_VERIFY(!session()->layout()->weightItems.contains(placeholder));
        session()->selectionModel()->select(ItemRef::weight(placeholder, weight), true);
        QTRY_VERIFY(session()->layout()->weightItems.contains(placeholder));
        QCOMPARE(session()->selectionModel()->selection(), ItemRef::weight(placeholder, weight));
    }

    // A constant typed in the Constants dock is in no file: quitting asks
    // (Cancel keeps the window, Discard quits); once saved, quitting does
    // not ask; with nothing typed it never asks.
    void quittingWithTypedConstantsAsks() {
        open(QStringLiteral("masked_linear"), QStringLiteral("masked_linear.meta.json"));
        QVERIFY(ctl()->unsavedWork().isEmpty());
        QVERIFY(window_->close());  // nothing typed: no question
        window_->show();

        ctl()->values()->enterConstant(QStringLiteral("mask"), QStringLiteral("[1, 0, 1, 0]"),
                                       QStringLiteral("float32"));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QString text;
        answerQuitQuestion(QMessageBox::Cancel, &text);
        QVERIFY(!window_->close());
        QVERIFY(window_->isVisible());
        QVERIFY2(text.contains(QStringLiteral("1 typed constant not saved to a file: mask")), qPrintable(text));

        answerQuitQuestion(QMessageBox::Discard, &text);
        QVERIFY(window_->close());
        window_->show();

        QTemporaryDir dir;
        QString saved = QStringLiteral("not yet");
        ctl()->values()->saveConstants(dir.filePath(QStringLiteral("c.pt")), [&saved](const QString& e) { saved = e; });
        QTRY_COMPARE(saved, QString());
        QVERIFY(ctl()->unsavedWork().isEmpty());
        QVERIFY(window_->close());  // saved: no question
    }

    // Quit asked before losing a typed constant, but File ▸ Open of another
    // model dropped it silently. Opening another document asks the same
    // question: Cancel keeps the model and the constant, Discard opens.
    void openingAnotherModelWithTypedConstantsAsks() {
        open(QStringLiteral("masked_linear"), QStringLiteral("masked_linear.meta.json"));
        const QString before = session()->filePath();
        ctl()->values()->enterConstant(QStringLiteral("mask"), QStringLiteral("[1, 0, 1, 0]"),
                                       QStringLiteral("float32"));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QString text;
        answerQuitQuestion(QMessageBox::Cancel, &text);
        window_->openFile(irFixture(QStringLiteral("simple_mlp.json")));
        QVERIFY2(text.contains(QStringLiteral("1 typed constant not saved to a file: mask")) &&
                     text.contains(QStringLiteral("before opening simple_mlp.json")),
                 qPrintable(text));
        QCOMPARE(session()->filePath(), before);
        QVERIFY(!ctl()->unsavedWork().isEmpty());

        QSignalSpy loaded(session(), &GraphSession::graphLoaded);
        text.clear();
        answerQuitQuestion(QMessageBox::Discard, &text);
        window_->openFile(irFixture(QStringLiteral("simple_mlp.json")));
        QVERIFY(!text.isEmpty());
        QVERIFY(loaded.wait(20000) && irscope::test::waitIdle(*ctl()));
        QVERIFY(session()->filePath().endsWith(QLatin1String("simple_mlp.json")));
        QVERIFY2(ctl()->unsavedWork().isEmpty(), qPrintable(ctl()->unsavedWork().join(QLatin1Char('|'))));
        // Nothing unsaved now: the next open asks nothing (a question would hang here).
        window_->openFile(irFixture(QStringLiteral("llama_block.json")));
        QVERIFY(loaded.wait(20000) && irscope::test::waitIdle(*ctl()));
    }

    // The Modules dock in the default right column: the names are what the
    // dock is for, yet six columns fitted to their contents left them "e…s".
    // Names get most of the width: the sizes are hidden at first (the header's
    // menu shows them) and the other columns are capped.
    void moduleNamesGetTheWidth() {
        open(QStringLiteral("llama_block"));
        window_->panelDock(kModulesPanel)->raise();
        window_->panelAs<ModulesPanel>(kModulesPanel)->setFilterText(QString());
        QTest::qWait(50);  // the columns are fitted once the rows are in
        QTreeView* tree = window_->panelAs<ModulesPanel>(kModulesPanel)->treeView();
        const int name = tree->header()->sectionSize(0);
        QVERIFY2(name * 2 >= tree->viewport()->width(),
                 qPrintable(QStringLiteral("name column %1 of %2 px").arg(name).arg(tree->viewport()->width())));
    }

    // 3,000 weights: the name filter waits for a pause in the typing rather
    // than refiltering every row per keystroke; Enter applies it at once.
    void weightNameFilterWaitsForAPauseAtScale() {
        const int count = 3000;
        QJsonArray weights;
        QJsonObject mapping;
        for (int i = 0; i < count; ++i) {
            weights.append(QJsonObject{
                {"name", QStringLiteral("layers.%1.weight").arg(i)}, {"shape", QJsonArray{1}}, {"dtype", "float32"}});
            mapping.insert(QStringLiteral("p_layers_%1_weight").arg(i), QStringLiteral("layers.%1.weight").arg(i));
        }
        const QJsonObject x{{"name", "x"}, {"shape", QJsonArray{1}}, {"dtype", "float32"}};
        QJsonObject xIn = x;
        xIn.insert("producer_node", "x");
        xIn.insert("producer_output_idx", 0);
        const QJsonObject add{
            {"name", "add"},
            {"op_type", "aten.add.Tensor"},
            {"inputs", QJsonArray{xIn, xIn}},
            {"outputs", QJsonArray{QJsonObject{{"name", "add"}, {"shape", QJsonArray{1}}, {"dtype", "float32"}}}},
            {"attrs", QJsonObject{}}};
        const QJsonObject ir{{"model_name", "ManyWeights"},
                             {"pytorch_version", "2.13.0"},
                             {"graph_inputs", QJsonArray{x}},
                             {"graph_outputs", QJsonArray{add["outputs"].toArray().first()}},
                             {"weights", weights},
                             {"weight_name_mapping", mapping},
                             {"nodes", QJsonArray{add}}};
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("many_weights.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(ir).toJson(QJsonDocument::Compact));
        f.close();
        QVERIFY(irscope::test::openInFreshWindow(window_, ui_, path, QSize()));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(ui_.weights->visibleRows(), count);

        QLineEdit* name = ui_.weights->nameFilter();
        QTest::keyClicks(name, QStringLiteral("layers.12."));
        QCOMPARE(ui_.weights->visibleRows(), count);  // not per keystroke
        QTRY_COMPARE_WITH_TIMEOUT(ui_.weights->visibleRows(), 1, 2000);
        name->clear();
        QTest::keyClicks(name, QStringLiteral("layers.7"));
        QTest::keyClick(name, Qt::Key_Return);
        QCOMPARE(ui_.weights->visibleRows(), 111);  // layers.7, 70-79, 700-799
    }

    // Opening or closing a module from anywhere (here as the Modules dock
    // does) keeps its box where it was on screen; toggled while off screen,
    // it comes into view.
    void togglingAModuleKeepsItOnScreen() {
        open(QStringLiteral("resnet_tiny"));
        const auto* tree = session()->moduleTree();
        const int64_t block = tree->find("layer2.0");
        QVERIFY(block > 0);
        session()->setModuleExpanded(block, false);  // a closed box: small enough to be on screen whole
        view()->setZoom(2);
        const auto boxTopLeft = [&] {
            const auto items = session()->layout()->itemsOf(ItemRef::module(block));
            const auto& r = session()->layout()->result.items[items.front()].rect;
            return view()->mapFromScene(QPointF(r.x, r.y));
        };
        view()->centerOn(ItemRef::module(block));
        const QPointF before = boxTopLeft();
        QVERIFY(QRectF(view()->viewport()->rect()).contains(before));
        session()->setModuleExpanded(block, true);
        QVERIFY(session()->isModuleExpanded(block));
        // On screen, on the same line (sideways the scroll range may not reach: the frame is wider).
        QVERIFY(onScreenModule(block));
        QVERIFY2(std::abs(boxTopLeft().y() - before.y()) <= 2,
                 qPrintable(QStringLiteral("%1 -> %2").arg(before.y()).arg(boxTopLeft().y())));

        scrollAway();
        QVERIFY(!onScreenModule(block));
        session()->setModuleExpanded(block, false);
        QVERIFY(onScreenModule(block));
    }

    // The keys over the graph never cover a node: each sits in a corner with
    // no node under it, or, where none is free, is faded. Checked at several
    // zooms and scroll positions, with the run key and an overlay key shown.
    void legendsNeverCoverNodes() {
        open(QStringLiteral("llama_block"));
        QSignalSpy relaid(session(), &GraphSession::layoutChanged);
        session()->setGroupByModule(false);
        QVERIFY(relaid.wait(20000));
        trigger(ui_.continueAction);                                      // the run key appears
        ctl()->checks()->setOverlay(irscope::exec::OverlayKind::MaxAbs);  // and the overlay's
        QVERIFY(irscope::test::waitIdle(*ctl()));
        const auto legends = view()->findChildren<OverlayLegend*>();
        QCOMPARE(legends.size(), 2);
        int placedFree = 0;
        const auto check = [&](const char* where) {
            const auto* lay = session()->layout();
            for (OverlayLegend* legend : legends) {
                if (legend->isHidden()) continue;
                const QRect g = legend->geometry().translated(-view()->viewport()->geometry().topLeft());
                bool covers = false;
                for (const auto& it : lay->result.items) {
                    if (it.kind == irscope::layout::ItemKind::Frame) continue;
                    const QRectF r(view()->mapFromScene(QPointF(it.rect.x, it.rect.y)),
                                   view()->mapFromScene(QPointF(it.rect.right(), it.rect.bottom())));
                    covers = covers || r.intersects(g);
                }
                QVERIFY2(!covers || legend->faded(), where);
                placedFree += !covers;
            }
        };
        view()->fitToWindow();
        check("fit");
        for (double zoom : {0.5, 1.0, 2.0}) {
            view()->setZoom(zoom);
            scrollAway();
            check("top left");
            view()->centerOn(ItemRef::node(static_cast<int64_t>(session()->document()->graph.nodes.size() / 2)));
            check("centre");
        }
        QVERIFY(placedFree > 0);  // not simply always faded
    }

    // Column widths and sort order of a panel come back next launch (the
    // window's layout always did; the panels' own did not).
    void panelsKeepTheirColumnsAndSort() {
        open(QStringLiteral("llama_block"));
        QTableView* table = ui_.weights->table();
        table->horizontalHeader()->resizeSection(0, 333);
        table->sortByColumn(1, Qt::DescendingOrder);
        QVERIFY(window_->close());            // saves
        open(QStringLiteral("llama_block"));  // a new window, the values loaded again
        table = ui_.weights->table();
        QCOMPARE(table->horizontalHeader()->sectionSize(0), 333);
        QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), 1);
        QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestDebuggerHabits)
#include "test_debugger_habits.moc"
