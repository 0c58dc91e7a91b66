// The window tells the truth, driven as a user would: what it says
// before a run is what the run then does. masked_linear extracted on the meta
// device lacks its lifted constant c_mask (PyTorch 1.13 fixtures,
// tests/data/make_ir_fixtures.py).
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include "test_support.h"
#include "wait_idle.h"
#include "widgets/debugger/breakpoints_panel.h"
#include "widgets/debugger/constants_panel.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/inputs_panel.h"
#include "widgets/debugger/missing_values_panel.h"
#include "widgets/debugger/tensor_viewer.h"
#include "widgets/debugger/tensor_viewer_area.h"
#include "widgets/debugger/weights_panel.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/graph_view/overlay_legend.h"
#include "widgets/main_window/main_window.h"
#include "widgets/main_window/shortcuts_dialog.h"
#include "widgets/panels/modules_panel.h"
#include "widgets/panels/search_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/tensor_queries.h"

using namespace irscope::widgets;

using irscope::test::irFixture;

namespace {
int64_t nodeIndex(GraphSession* s, const QString& name) {
    const auto& nodes = s->document()->graph.nodes;
    for (size_t i = 0; i < nodes.size(); ++i)
        if (QString::fromStdString(nodes[i].name) == name) return static_cast<int64_t>(i);
    return -1;
}

// A safetensors file of `count` float32 scalars named t0, t1, ... (the
// format is a JSON header and raw bytes: no torch needed to write it).
void writeManyTensors(const QString& path, int count) {
    QByteArray header = "{";
    for (int i = 0; i < count; ++i)
        header += QStringLiteral("%1\"t%2\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[%3,%4]}")
                      .arg(i ? QStringLiteral(",") : QString())
                      .arg(i)
                      .arg(i * 4)
                      .arg(i * 4 + 4)
                      .toLatin1();
    header += "}";
    while (header.size() % 8) header += ' ';
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const quint64 n = static_cast<quint64>(header.size());
    f.write(reinterpret_cast<const char*>(&n), 8);  // little-endian u64 on the machines irscope runs on
    f.write(header);
    f.write(QByteArray(count * 4, '\0'));
}

// Opens `ir` in `w` with the debugger installed (shown at 1400x900); false when it did not load.
bool openWithDebugger(MainWindow& w, DebuggerUi& ui, const QString& ir) {
    ui = installDebugger(w);
    w.resize(1400, 900);
    w.show();
    QSignalSpy loaded(w.session(), &GraphSession::graphLoaded);
    w.openFile(irFixture(ir));
    return loaded.wait(20000) && irscope::test::waitIdle(*ui.controller);
}

// The real window on llama_block (real-device IR: constants inside) with its
// state_dict, inputs and PyTorch's expected outputs loaded.
struct LlamaWindow {
    MainWindow w;
    DebuggerUi ui;
    explicit LlamaWindow(const QString& weights = QStringLiteral("llama_block.weights.pt")) {
        openWithDebugger(w, ui, QStringLiteral("llama_block.json"));  // the tests check the outcome
        ui.controller->values()->loadWeights(irFixture(weights));
        ui.controller->values()->loadInputs(irFixture(QStringLiteral("llama_block.inputs.pt")));
        ui.controller->values()->loadExpected(irFixture(QStringLiteral("llama_block.expected.pt")));
        irscope::test::waitIdle(*ui.controller);
    }
    void run() {
        ui.continueAction->trigger();
        irscope::test::waitIdle(*ui.controller);
    }
};
}  // namespace

class TestTruthfulWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Diagnostics said "the run cannot start", then F5 ran until the node and
    // failed with "not found in registry". Now both say the same: the run
    // stops before the node that needs the value, like a breakpoint, names
    // the value, and brings up the dock that supplies it.
    // File ▸ Open of another model after llama_block kept llama_block's
    // weights and inputs: "0 loaded, 132 missing", its buffers "unused in
    // file". Another model starts clean; the same model opened from another
    // file (its meta-device twin) keeps the files and says so.
    void anotherModelStartsCleanTheSameModelKeepsItsFiles() {
        LlamaWindow lw;
        DebugController* c = lw.ui.controller;
        QVERIFY(!c->values()->weightRows().empty());
        QSignalSpy loaded(lw.w.session(), &GraphSession::graphLoaded);
        lw.w.openFile(irFixture(QStringLiteral("tiny_moe.json")));
        QVERIFY(loaded.wait(20000) && irscope::test::waitIdle(*c));
        for (const auto& r : c->values()->weightRows()) {
            QVERIFY2(r.source.find("llama_block") == std::string::npos, r.originalName.c_str());
            QVERIFY2(!r.placeholder.empty(), ("unused entry " + r.originalName).c_str());
        }
        for (const auto& r : c->values()->inputRows())
            QVERIFY2(r.source != irscope::exec::InputSource::File, r.name.c_str());

        c->values()->loadWeights(irFixture(QStringLiteral("tiny_moe.weights.pt")));
        QVERIFY(irscope::test::waitIdle(*c));
        auto fromFile = [c] {
            int n = 0;
            for (const auto& r : c->values()->weightRows())
                n += r.source.find("tiny_moe.weights.pt") != std::string::npos;
            return n;
        };
        const int loadedWeights = fromFile();
        QVERIFY(loadedWeights > 0);
        lw.w.openFile(irFixture(QStringLiteral("tiny_moe.meta.json")));
        QVERIFY(loaded.wait(20000) && irscope::test::waitIdle(*c));
        QCOMPARE(fromFile(), loadedWeights);
        QVERIFY2(lw.w.statusBar()->currentMessage().contains(QLatin1String("Kept the files loaded for tiny_moe.json")),
                 qPrintable(lw.w.statusBar()->currentMessage()));
    }

    // A newcomer's walk over several models in one window: after filtering
    // the Weights by /^p_(up|gate)/, searching "scaled", filtering Modules
    // and half-typing a constant, File ▸ Open of another model showed an
    // empty Weights table under "12 loaded", "no match", no modules and the
    // old model's constant and its red hint. Another model starts with none
    // of them; reopening the same file keeps them, as it keeps the files.
    void anotherModelStartsWithoutTheOldFiltersTheSameFileKeepsThem() {
        LlamaWindow lw;
        DebugController* c = lw.ui.controller;
        QSignalSpy loaded(lw.w.session(), &GraphSession::graphLoaded);
        auto setFilters = [&] {
            lw.ui.weights->nameFilter()->setText(QStringLiteral("/^p_(up|gate)/"));
            QTest::keyClick(lw.ui.weights->nameFilter(), Qt::Key_Return);
            lw.w.panelAs<SearchPanel>(kSearchPanel)->lineEdit()->setText(QStringLiteral("scaled"));
            lw.w.panelAs<SearchPanel>(kSearchPanel)->runSearch();
            lw.w.panelAs<ModulesPanel>(kModulesPanel)->setFilterText(QStringLiteral("mlp"));
            lw.ui.constants->nameBox()->setCurrentText(QStringLiteral("positions"));
            lw.ui.constants->valueEdit()->setText(QStringLiteral("[5, 4, 3, 2, 1, 0]"));
        };
        setFilters();
        const int filtered = lw.ui.weights->visibleRows();
        QVERIFY(filtered > 0 && filtered < static_cast<int>(c->values()->weightRows().size()));
        // The same file again (Ctrl+R): all of it applies still.
        lw.w.reload();
        QVERIFY(loaded.wait(20000) && irscope::test::waitIdle(*c));
        QCOMPARE(lw.ui.weights->nameFilter()->text(), QStringLiteral("/^p_(up|gate)/"));
        QCOMPARE(lw.ui.weights->visibleRows(), filtered);
        QCOMPARE(lw.w.panelAs<SearchPanel>(kSearchPanel)->lineEdit()->text(), QStringLiteral("scaled"));
        QCOMPARE(lw.w.panelAs<ModulesPanel>(kModulesPanel)->filterEdit()->text(), QStringLiteral("mlp"));
        QCOMPARE(lw.ui.constants->valueEdit()->text(), QStringLiteral("[5, 4, 3, 2, 1, 0]"));
        // Another model: none of it.
        lw.w.openFile(irFixture(QStringLiteral("tiny_moe.json")));
        QVERIFY(loaded.wait(20000) && irscope::test::waitIdle(*c));
        c->values()->loadWeights(irFixture(QStringLiteral("tiny_moe.weights.pt")));
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY(lw.ui.weights->nameFilter()->text().isEmpty());
        QCOMPARE(lw.ui.weights->visibleRows(), static_cast<int>(c->values()->weightRows().size()));
        QVERIFY(lw.w.panelAs<SearchPanel>(kSearchPanel)->lineEdit()->text().isEmpty());
        QVERIFY(lw.w.panelAs<ModulesPanel>(kModulesPanel)->filterEdit()->text().isEmpty());
        QVERIFY(lw.ui.constants->nameBox()->currentText() != QStringLiteral("positions"));
        QVERIFY(lw.ui.constants->valueEdit()->text().isEmpty());
        QVERIFY(!lw.ui.constants->messageLabel()->text().contains(QLatin1String("positions")));
    }

    // Typing a constant's name left the dtype box at float32 for the int64
    // `positions`, and Set then warned of a dtype mismatch. The name brings
    // its IR dtype, as clicking its row does.
    void typingAConstantsNameTakesItsDtype() {
        LlamaWindow lw;
        lw.ui.constants->dtypeBox()->setCurrentText(QStringLiteral("float32"));
        lw.ui.constants->nameBox()->setCurrentText(QStringLiteral("positions"));
        QCOMPARE(lw.ui.constants->dtypeBox()->currentText(), QStringLiteral("int64"));
    }

    // The last run's verdict ("Last run: outputs match") stayed in the
    // Inputs dock over the next model, which had not run. A document opened
    // starts without one.
    void anotherModelDoesNotShowTheLastRunsVerdict() {
        LlamaWindow lw;
        lw.run();
        auto* label = lw.w.findChild<QLabel*>(QStringLiteral("divergenceLabel"));
        QVERIFY(label);
        QVERIFY2(label->text().startsWith(QLatin1String("Last run: ")), qPrintable(label->text()));
        QSignalSpy loaded(lw.w.session(), &GraphSession::graphLoaded);
        lw.w.openFile(irFixture(QStringLiteral("tiny_moe.json")));
        QVERIFY(loaded.wait(20000) && irscope::test::waitIdle(*lw.ui.controller));
        QVERIFY2(label->text().isEmpty(), qPrintable(label->text()));
        // The summary counts the model's nodes and weights, not the drawing's rows as "layers".
        const QString info = lw.w.findChild<QLabel*>(QStringLiteral("infoLabel"))->text();
        QVERIFY2(info.startsWith(QStringLiteral("TinyMoE — ")) && !info.contains(QLatin1String("layers")),
                 qPrintable(info));
    }

    // Ctrl+R dropped every breakpoint while keeping the files. A reload, or a
    // new export of the same model, keeps each breakpoint whose node is still
    // there (a module's entry with its module); another model has none.
    void reloadKeepsBreakpointsAnotherModelHasNone() {
        LlamaWindow lw;
        DebugController* c = lw.ui.controller;
        QSignalSpy loaded(lw.w.session(), &GraphSession::graphLoaded);
        const int64_t mean = nodeIndex(lw.w.session(), QStringLiteral("mean"));
        QVERIFY(mean >= 0);
        c->toggleBreakpoint(mean);
        QVERIFY(irscope::test::waitIdle(*c));
        QCOMPARE(lw.ui.breakpoints->entries().size(), 1);
        const QString entry = lw.ui.breakpoints->entries().front();
        lw.w.reload();
        QVERIFY(loaded.wait(20000) && irscope::test::waitIdle(*c));
        QCOMPARE(lw.ui.breakpoints->entries(), QStringList{entry});
        QVERIFY(c->debugger()->hasBreakpoint(mean));
        lw.run();  // and it still stops there
        QCOMPARE(c->runCursor(), mean);
        lw.w.openFile(irFixture(QStringLiteral("tiny_moe.json")));
        QVERIFY(loaded.wait(20000) && irscope::test::waitIdle(*c));
        QVERIFY(lw.ui.breakpoints->entries().isEmpty());
    }

    // An input naming a producer that does not exist ('nowhere', while its
    // tensor name 'linear' is a real node's output): the banner said "no node
    // ... produces 'linear'", which is false. It names the input and the
    // producer it names, as validate does.
    void aMisnamedProducerIsNamedInTheBanner() {
        MainWindow w;
        DebuggerUi ui;
        QVERIFY(openWithDebugger(w, ui, QStringLiteral("../malformed/unknown_producer.json")));
        QCOMPARE(ui.missing->list()->count(), 1);
        const QString item = ui.missing->list()->item(0)->text();
        QVERIFY2(item.contains(QLatin1String("relu's input 'linear' names producer 'nowhere', which is neither a node "
                                             "nor a graph input")),
                 qPrintable(item));
        QVERIFY2(!item.contains(QLatin1String("produces 'linear'")), qPrintable(item));
        QVERIFY2(ui.missing->title().contains(QLatin1String("the IR is broken")), qPrintable(ui.missing->title()));
    }

    // A node that reads a value no node, input or weight produces: the
    // pre-flight banner said "load a state_dict that has 'ghost'". It names
    // the broken IR instead, and the list says no file supplies it.
    void aDanglingProducerIsNamedAsABrokenIr() {
        QFile in(irFixture(QStringLiteral("simple_mlp.json")));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject ir = QJsonDocument::fromJson(in.readAll()).object();
        QJsonArray nodes = ir[QStringLiteral("nodes")].toArray();
        QJsonObject relu = nodes[1].toObject();  // relu reads linear: it now reads a 'ghost' nothing makes
        QJsonArray inputs = relu[QStringLiteral("inputs")].toArray();
        QJsonObject input = inputs[0].toObject();
        QCOMPARE(input[QStringLiteral("producer_node")].toString(), QStringLiteral("linear"));
        input[QStringLiteral("name")] = QStringLiteral("ghost");
        input[QStringLiteral("producer_node")] = QStringLiteral("ghost");
        inputs[0] = input;
        relu[QStringLiteral("inputs")] = inputs;
        nodes[1] = relu;
        ir[QStringLiteral("nodes")] = nodes;
        const QByteArray text = QJsonDocument(ir).toJson();
        QTemporaryDir dir;
        QFile out(dir.filePath(QStringLiteral("dangling.json")));
        QVERIFY(out.open(QIODevice::WriteOnly) && out.write(text) == text.size());
        out.close();

        MainWindow w;
        DebuggerUi ui = installDebugger(w);
        w.resize(1400, 900);
        w.show();
        QSignalSpy loaded(w.session(), &GraphSession::graphLoaded);
        w.openFile(out.fileName());
        QVERIFY(loaded.wait(20000) && irscope::test::waitIdle(*ui.controller));
        ui.controller->values()->loadWeights(irFixture(QStringLiteral("simple_mlp.weights.pt")));
        QVERIFY(irscope::test::waitIdle(*ui.controller));
        const QString title = ui.missing->title();
        QVERIFY2(title.contains(QLatin1String("the IR is broken")), qPrintable(title));
        QVERIFY2(
            !title.contains(QLatin1String("value(s) missing")) && !title.contains(QLatin1String("1 value missing")),
            qPrintable(title));
        QCOMPARE(ui.missing->list()->count(), 1);
        const QString item = ui.missing->list()->item(0)->text();
        QVERIFY2(item.contains(QLatin1String("no node, graph input or weight of this IR produces 'ghost'")),
                 qPrintable(item));
        QVERIFY2(!item.contains(QLatin1String("state_dict")), qPrintable(item));
    }

    // A weight with no state_dict loaded said "this node has not run". The
    // viewer says what the tensor waits for, in the words of what it is.
    void aValuelessTensorSaysWhatItWaitsFor() {
        MainWindow w;
        DebuggerUi ui;
        QVERIFY(openWithDebugger(w, ui, QStringLiteral("llama_block.json")));
        TensorViewer* viewer = ui.tensors->follower();
        auto said = [&](const QString& tensor) {
            ui.controller->tensors()->showTensor(tensor);
            irscope::test::waitIdle(*ui.controller);
            QTest::qWait(50);
            return viewer->summaryText();
        };
        QString s = said(QStringLiteral("p_qkv_weight"));
        QVERIFY2(s.contains(QLatin1String("no state_dict is loaded")), qPrintable(s));
        s = said(QStringLiteral("mul"));
        QVERIFY2(s.contains(QLatin1String("has not run")), qPrintable(s));
        ui.controller->values()->loadWeights(irFixture(QStringLiteral("llama_block.weights.pt")));
        QVERIFY(irscope::test::waitIdle(*ui.controller));
        s = said(QStringLiteral("p_qkv_weight"));
        QVERIFY2(!s.contains(QLatin1String("No value")), qPrintable(s));
    }

    void missingValueStopsBeforeItsNodeAsSaid() {
        MainWindow w;
        DebuggerUi ui;
        QVERIFY(openWithDebugger(w, ui, QStringLiteral("masked_linear.meta.json")));
        DebugController* c = ui.controller;
        c->values()->loadWeights(irFixture(QStringLiteral("masked_linear.weights.pt")));
        c->values()->loadInputs(irFixture(QStringLiteral("masked_linear.inputs.pt")));
        QVERIFY(irscope::test::waitIdle(*c));
        // Opened with a constant missing, the Constants dock is the one in front.
        QVERIFY(!ui.constantsDock->visibleRegion().isEmpty());
        QVERIFY(ui.weightsDock->visibleRegion().isEmpty());
        ui.weightsDock->raise();  // the constants are not in front
        QString said;
        for (auto* label : ui.missing->findChildren<QLabel*>()) said += label->text();
        QVERIFY2(!said.contains(QLatin1String("cannot start")), qPrintable(said));
        QVERIFY2(said.contains(QLatin1String("stops before")), qPrintable(said));

        ui.continueAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        const QString status = ui.status->toolTip();
        QVERIFY2(status.contains(QLatin1String("stopped before 'mul': it needs constant 'mask' (c_mask)")),
                 qPrintable(status));
        QVERIFY2(!status.contains(QLatin1String("registry")), qPrintable(status));
        QVERIFY(!ui.status->text().contains(QLatin1String("d0302a")));  // not shown as a failure
        const auto& nodes = w.session()->document()->graph.nodes;
        QCOMPARE(QString::fromStdString(nodes[static_cast<size_t>(c->runCursor())].name), QString("mul"));
        QVERIFY(ui.constantsDock->isVisible());
        QVERIFY(!ui.constantsDock->visibleRegion().isEmpty());  // raised over its tab group

        // Supplied: the same F5 runs to the end.
        c->values()->loadConstants(irFixture(QStringLiteral("masked_linear.constants.pt")));
        QVERIFY(irscope::test::waitIdle(*c));
        ui.continueAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY2(ui.status->toolTip().startsWith(QLatin1String("finished")), qPrintable(ui.status->toolTip()));
    }

    // After a run with expected outputs the status says whether they match;
    // First divergence answers when nothing diverges; the Compare tab does
    // not put "matches" over "0 computed tensors match".
    void aRunWithExpectedOutputsEndsWithAVerdict() {
        LlamaWindow good;
        QVERIFY(good.w.session()->hasDocument());
        good.run();
        const QString status = good.ui.status->toolTip();
        QVERIFY2(status.startsWith(QLatin1String("finished")) &&
                     status.contains(QLatin1String("outputs match (max abs diff")),
                 qPrintable(status));
        auto* inputsLabel = good.ui.inputs->findChild<QLabel*>(QStringLiteral("divergenceLabel"));
        QVERIFY(inputsLabel);
        QVERIFY2(inputsLabel->text().contains(QLatin1String("Last run: outputs match")),
                 qPrintable(inputsLabel->text()));
        QSignalSpy message(good.w.statusBar(), &QStatusBar::messageChanged);
        good.ui.divergenceAction->trigger();
        QVERIFY(irscope::test::waitIdle(*good.ui.controller));
        QStringList shown;
        for (const auto& m : message) shown << m.first().toString();
        QVERIFY2(shown.join('|').contains(QLatin1String("no node diverges")), qPrintable(shown.join('|')));

        // The graph output's Compare tab: it matches, and no "0 … match" line under it.
        const auto& g = good.w.session()->document()->graph;
        const QString out = QString::fromStdString(g.graphOutputs.front().name);
        good.w.session()->selectionModel()->select(ItemRef::node(nodeIndex(good.w.session(), out)));
        TensorViewer* viewer = good.ui.tensors->follower();
        auto* tabs = viewer->findChild<QTabWidget*>();
        QVERIFY(tabs);
        tabs->setCurrentIndex(tabs->count() - 1);  // Compare
        QVERIFY(irscope::test::waitIdle(*good.ui.controller));
        QTest::qWait(50);
        const QString compare = viewer->findChild<QLabel*>(QStringLiteral("tensorCompare"))->text();
        QVERIFY2(compare.contains(QLatin1String("matches")), qPrintable(compare));
        QVERIFY2(!compare.contains(QLatin1String("computed tensors match")), qPrintable(compare));

        // Reset (Shift+F5): the verdict was about a run that is gone.
        good.ui.resetAction->trigger();
        QVERIFY(irscope::test::waitIdle(*good.ui.controller));
        QVERIFY2(good.ui.controller->verdict().isEmpty(), qPrintable(good.ui.controller->verdict()));
        QVERIFY2(!inputsLabel->text().contains(QLatin1String("Last run")), qPrintable(inputsLabel->text()));
        QVERIFY2(good.ui.status->toolTip().startsWith(QLatin1String("reset")), qPrintable(good.ui.status->toolTip()));
        good.run();  // and a new run has its own
        QVERIFY2(inputsLabel->text().contains(QLatin1String("Last run: outputs match")),
                 qPrintable(inputsLabel->text()));

        // Perturbed weights: the output that differs, and where it started.
        LlamaWindow bad(QStringLiteral("llama_block.weights_perturbed.pt"));
        bad.run();
        const QString badStatus = bad.ui.status->toolTip();
        QVERIFY2(badStatus.contains(QStringLiteral("output '%1' differs").arg(out)), qPrintable(badStatus));
        QVERIFY2(badStatus.contains(QLatin1String("first divergence at node '")), qPrintable(badStatus));
    }

    // Selecting a node the first time fills the tensor viewer: the docks keep
    // their size and the node stays in view.
    void selectingANodeKeepsTheLayout() {
        LlamaWindow lw;
        lw.run();
        QTest::qWait(50);
        GraphView* view = lw.w.graphView();
        const int before = view->viewport()->height();
        const int64_t node = nodeIndex(lw.w.session(), QStringLiteral("linear_3"));
        QVERIFY(node >= 0);
        lw.w.session()->selectionModel()->select(ItemRef::node(node), true);
        QVERIFY(irscope::test::waitIdle(*lw.ui.controller));
        QTest::qWait(100);
        QCOMPARE(view->viewport()->height(), before);
        const QPointF at = view->viewportPosOf(ItemRef::node(node));
        QVERIFY2(QRectF(view->viewport()->rect()).contains(at),
                 qPrintable(QStringLiteral("%1,%2").arg(at.x()).arg(at.y())));
    }

    // At a breakpoint a pending node that reads the selection must not look
    // like one that ran: no green ring anywhere, neighbours on edges only, and
    // a legend says what each channel means.
    void runStateAndNeighbourhoodAreDifferentChannels() {
        LlamaWindow lw;
        const int64_t stop = nodeIndex(lw.w.session(), QStringLiteral("linear_3"));
        lw.ui.controller->toggleBreakpoint(stop);
        QVERIFY(irscope::test::waitIdle(*lw.ui.controller));
        lw.run();
        QCOMPARE(lw.ui.controller->runCursor(), stop);
        lw.w.session()->selectionModel()->select(ItemRef::node(stop - 1), true);  // ran; its consumer linear_3 has not
        QTest::qWait(50);
        GraphView* view = lw.w.graphView();
        view->setZoom(1);
        view->centerOn(ItemRef::node(stop - 1));
        QImage frame(view->viewport()->size(), QImage::Format_ARGB32_Premultiplied);
        view->renderFrame(frame);
        int green = 0, consumerEdge = 0;
        const QColor consumer = view->theme().consumer;
        for (int y = 0; y < frame.height(); ++y)
            for (int x = 0; x < frame.width(); ++x) {
                const QColor c = frame.pixelColor(x, y);
                if (c == QColor("#2a9d3a")) ++green;
                if (c == consumer) ++consumerEdge;
            }
        QCOMPARE(green, 0);
        QVERIFY(consumerEdge > 10);
        auto* legend = view->findChild<OverlayLegend*>(QStringLiteral("runLegend"));
        QVERIFY(legend && legend->isVisible());
        QStringList said;
        for (const auto& e : legend->entries()) said << e.second;
        QVERIFY2(said.join('|').contains(QLatin1String("not run yet")), qPrintable(said.join('|')));
    }

    // Point 1: float16 weights for a float32 IR. Before, the Weights dock
    // counted "8 dtype mismatch" while Diagnostics was empty, the status said
    // "ready" and F5 failed 12 nodes in ("rsqrt_cpu" not implemented for
    // 'Half'). Now it is a pre-flight finding with its fix, said everywhere.
    void halfWeightsAreFoundBeforeTheRunAndCastOnRequest() {
        LlamaWindow lw(QStringLiteral("llama_block.weights_fp16.pt"));
        DebugController* c = lw.ui.controller;
        c->values()->loadExpected(irFixture(QStringLiteral("llama_block.expected_fp16cast.pt")));
        QVERIFY(irscope::test::waitIdle(*c));
        QString said;
        for (auto* label : lw.ui.missing->findChildren<QLabel*>()) said += label->text();
        QVERIFY2(said.contains(QLatin1String("8 weight(s) not in the IR's dtype")), qPrintable(said));
        QVERIFY(lw.ui.missing->castButton()->isVisible());
        QVERIFY2(lw.ui.status->text().contains(QLatin1String("not in the IR's dtype")),
                 qPrintable(lw.ui.status->text()));
        const int64_t norm = nodeIndex(lw.w.session(), QStringLiteral("mul_1"));  // RMSNorm's weight multiply
        QVERIFY(norm >= 0);
        QVERIFY(lw.w.session()->decorations()->nodeDecoration(norm) &&
                lw.w.session()->decorations()->nodeDecoration(norm)->missingValue);

        // F5 stops before the first node that reads one, saying why; nothing failed.
        lw.run();
        const QString stop = lw.ui.status->toolTip();
        QVERIFY2(stop.contains(QLatin1String("stopped before")) && stop.contains(QLatin1String("float16")),
                 qPrintable(stop));
        QVERIFY2(!stop.contains(QLatin1String("Half")) && !stop.contains(QLatin1String("registry")), qPrintable(stop));
        QVERIFY(!c->lastRunFailed());
        QVERIFY(!lw.ui.weightsDock->visibleRegion().isEmpty());  // where the fix is

        // The fix, clicked in Diagnostics: cast, said in the sources, and the run
        // gives PyTorch's output with those weights.
        QTest::mouseClick(lw.ui.missing->castButton(), Qt::LeftButton);
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY(c->values()->missing().empty());
        QVERIFY(lw.ui.weights->castButton()->isChecked());
        QVERIFY2(lw.ui.weights->summary().contains(QLatin1String("8 cast to the IR's dtypes")),
                 qPrintable(lw.ui.weights->summary()));
        bool provenance = false;
        for (const auto& r : c->values()->weightRows())
            provenance |= r.originalName == "up.weight" && r.source.find("(cast from float16)") != std::string::npos;
        QVERIFY(provenance);
        lw.ui.resetAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        lw.run();
        const QString verdict = lw.ui.status->toolTip();
        QVERIFY2(verdict.startsWith(QLatin1String("finished")) && verdict.contains(QLatin1String("outputs match")),
                 qPrintable(verdict));
    }

    // Point 3: while a state_dict is read, the window says "Loading…" with a
    // Cancel, never a verdict on values not read yet ("69792 missing" in red
    // for 20 s); Cancel leaves the values as they were.
    void loadingWeightsShowsProgressThenTheVerdict() {
        MainWindow w;
        DebuggerUi ui;
        QVERIFY(openWithDebugger(w, ui, QStringLiteral("llama_block.json")));
        DebugController* c = ui.controller;
        QStringList summaries, statuses, diagnostics;
        bool cancelShown = false;
        const auto watching = QObject::connect(c->values(), &DebugValues::valuesLoadChanged, &w, [&] {
            if (!c->values()->isLoadingValues()) return;
            summaries << ui.weights->summary();
            statuses << ui.status->text() + QLatin1Char('|') + ui.progress->text();
            QString d;
            for (auto* label : ui.missing->findChildren<QLabel*>()) d += label->text();
            diagnostics << d;
            cancelShown |= ui.cancelLoad->isVisible();
        });
        c->values()->loadWeights(irFixture(QStringLiteral("llama_block.weights.pt")));
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY(!summaries.isEmpty());
        for (const auto& s : summaries)
            QVERIFY2(s.startsWith(QLatin1String("Loading llama_block.weights.pt")), qPrintable(s));
        for (const auto& s : statuses)
            QVERIFY2(s.contains(QLatin1String("Loading")) && !s.contains(QLatin1String("missing")), qPrintable(s));
        for (const auto& d : diagnostics) QVERIFY2(!d.contains(QLatin1String("missing")), qPrintable(d));
        QVERIFY(cancelShown);
        QObject::disconnect(watching);  // it reads locals that go before the window does
        // Done: the verdict, the bar back to nodes, no Cancel.
        QVERIFY2(ui.weights->summary().contains(QLatin1String("8 loaded")), qPrintable(ui.weights->summary()));
        QVERIFY(!ui.cancelLoad->isVisible());
        QVERIFY2(ui.progress->text().contains(QLatin1String("nodes")), qPrintable(ui.progress->text()));

        // Cancel: a reference read first holds the lane, the state_dict queued behind it is dropped.
        MainWindow w2;
        DebuggerUi ui2;
        QVERIFY(openWithDebugger(w2, ui2, QStringLiteral("llama_block.json")));
        // 40,000 one-element tensors: reading them holds the lane for tens of
        // ms, while the click below comes microseconds after the weights queue.
        QTemporaryDir dir;
        const QString slow = dir.filePath(QStringLiteral("slow.safetensors"));
        writeManyTensors(slow, 40000);
        ui2.controller->values()->loadReferenceIntermediates(slow);
        ui2.controller->values()->loadWeights(irFixture(QStringLiteral("llama_block.weights.pt")));
        QVERIFY(ui2.cancelLoad->isVisible());
        QTest::mouseClick(ui2.cancelLoad, Qt::LeftButton);
        QVERIFY(irscope::test::waitIdle(*ui2.controller));
        QCOMPARE(ui2.controller->values()->path(irscope::exec::ValueFile::Weights), QString());
        QVERIFY(!ui2.cancelLoad->isVisible());
        QVERIFY2(!ui2.weights->summary().startsWith(QLatin1String("Loading")), qPrintable(ui2.weights->summary()));
        QVERIFY2(!ui2.status->text().startsWith(QLatin1String("Loading")), qPrintable(ui2.status->text()));
    }

    // Minor points: a state_dict of another model says so; a later good load
    // takes the error down; the window names the model; an empty window
    // offers nothing that needs a graph; the Debug menu comes before Help,
    // which lists the shortcuts; every dock is under View › Panels.
    void smallTruths() {
        MainWindow w;
        DebuggerUi ui = installDebugger(w);
        w.show();
        QVERIFY(!ui.progress->isVisible());  // no "0/1 nodes" without a graph
        QAction* reload = nullptr;
        for (QAction* a : w.menuBar()->actions().first()->menu()->actions())
            if (a->text() == QLatin1String("&Reload")) reload = a;
        QVERIFY(reload && !reload->isEnabled());
        QStringList menus;
        for (QAction* a : w.menuBar()->actions()) menus << a->text();
        QVERIFY2(menus.indexOf(QLatin1String("&Debug")) < menus.indexOf(QLatin1String("&Help")),
                 qPrintable(menus.join(',')));
        const auto rows = shortcutRows(w.menuBar());
        bool f5 = false, f9 = false;
        for (const auto& r : rows) {
            f5 |= r.keys == QLatin1String("F5") && r.where == QLatin1String("Debug");
            f9 |= r.keys == QLatin1String("F9");
        }
        QVERIFY(f5 && f9);

        QSignalSpy loaded(w.session(), &GraphSession::graphLoaded);
        w.openFile(irFixture(QStringLiteral("simple_mlp.json")));
        QVERIFY(loaded.wait(20000));
        QVERIFY(reload->isEnabled());
        QCOMPARE(w.windowTitle(), QStringLiteral("SimpleMLP — simple_mlp.json — irscope"));
        QVERIFY(ui.progress->isVisible());
        ui.controller->values()->loadWeights(irFixture(QStringLiteral("cnn_bn.weights.pt")));
        QVERIFY(irscope::test::waitIdle(*ui.controller));
        QVERIFY(w.messageVisible());
        QVERIFY2(w.messageText().contains(QLatin1String("0 of 4 parameters and buffers found")) &&
                     w.messageText().contains(QLatin1String("different model")),
                 qPrintable(w.messageText()));
        ui.controller->values()->loadWeights(irFixture(QStringLiteral("simple_mlp.weights.pt")));
        QVERIFY(irscope::test::waitIdle(*ui.controller));
        QVERIFY(!w.messageVisible());

        // It could not shrink below 879x636 (the status text set its minimum).
        const QSize least = w.minimumSizeHint();
        QVERIFY2(least.width() <= 800 && least.height() <= 600,
                 qPrintable(QStringLiteral("%1x%2").arg(least.width()).arg(least.height())));

        auto* panels = w.findChild<QMenu*>(QStringLiteral("panelsMenu"));
        QVERIFY(panels);
        emit panels->aboutToShow();
        QStringList titles;
        for (QAction* a : panels->actions()) titles << a->text();
        for (const char* t : {"Weights", "Constants", "Inputs and references", "Diagnostics", "Properties"})
            QVERIFY2(titles.contains(QLatin1String(t)), qPrintable(titles.join(',')));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestTruthfulWindow)
#include "test_truthful_window.moc"
