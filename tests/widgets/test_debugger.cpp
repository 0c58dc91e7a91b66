// The debugger in the real window (offscreen): load weights and constants,
// missing constants flagged on the graph and in the diagnostics dock, typed
// constants, stepping, run to a node, breakpoints, a failed node, the tensor
// viewer's values against `irscope run --dump`, and compare mode finding the
// planted divergence of llama_block.intermediates_bad.pt; tensor queries off
// the UI thread (asynchronous summary, superseded requests, lazy blocks) and
// pinned viewers refreshing during a Continue.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "debugger_window.h"
#include "test_support.h"
#include "wait_idle.h"
#include "widgets/common/panel_registry.h"
#include "widgets/debugger/constants_panel.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/exec_info_panel.h"
#include "widgets/debugger/inputs_panel.h"
#include "widgets/debugger/missing_values_panel.h"
#include "widgets/debugger/tensor_file_drop.h"
#include "widgets/debugger/tensor_viewer.h"
#include "widgets/debugger/tensor_viewer_area.h"
#include "widgets/debugger/weights_panel.h"
#include "widgets/main_window/main_window.h"
#include "widgets/panels/call_stack_panel.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/numeric_checks.h"
#include "widgets/session/tensor_queries.h"

using namespace irscope;
using namespace irscope::widgets;

using irscope::test::irFixture;

namespace {
// A torch_ir graph slow enough to watch while it runs: x [n, n], then
// `pairs` times mm(prev, x) -> tanh. Random inputs (seed 0) need no files.
QByteArray chainGraph(int n, int pairs) {
    auto meta = [n](const QString& name) {
        return QJsonObject{{QStringLiteral("name"), name},
                           {QStringLiteral("shape"), QJsonArray{n, n}},
                           {QStringLiteral("dtype"), QStringLiteral("float32")}};
    };
    auto in = [&](const QString& name) {
        QJsonObject o = meta(name);
        o.insert(QStringLiteral("producer_node"), name);
        o.insert(QStringLiteral("producer_output_idx"), 0);
        return o;
    };
    QJsonArray nodes;
    QString prev = QStringLiteral("x");
    for (int i = 0; i < pairs; ++i) {
        const QString mm = QStringLiteral("mm_%1").arg(i), th = QStringLiteral("tanh_%1").arg(i);
        nodes.append(QJsonObject{{QStringLiteral("name"), mm},
                                 {QStringLiteral("op_type"), QStringLiteral("aten.mm.default")},
                                 {QStringLiteral("inputs"), QJsonArray{in(prev), in(QStringLiteral("x"))}},
                                 {QStringLiteral("outputs"), QJsonArray{meta(mm)}},
                                 {QStringLiteral("attrs"), QJsonObject{}}});
        nodes.append(QJsonObject{{QStringLiteral("name"), th},
                                 {QStringLiteral("op_type"), QStringLiteral("aten.tanh.default")},
                                 {QStringLiteral("inputs"), QJsonArray{in(mm)}},
                                 {QStringLiteral("outputs"), QJsonArray{meta(th)}},
                                 {QStringLiteral("attrs"), QJsonObject{}}});
        prev = th;
    }
    QJsonObject g{{QStringLiteral("model_name"), QStringLiteral("Chain")},
                  {QStringLiteral("pytorch_version"), QStringLiteral("1.13.0")},
                  {QStringLiteral("graph_inputs"), QJsonArray{meta(QStringLiteral("x"))}},
                  {QStringLiteral("graph_outputs"), QJsonArray{meta(prev)}},
                  {QStringLiteral("weights"), QJsonArray{}},
                  {QStringLiteral("weight_name_mapping"), QJsonObject{}},
                  {QStringLiteral("nodes"), nodes}};
    return QJsonDocument(g).toJson(QJsonDocument::Compact);
}
}  // namespace

class TestDebugger : public QObject {
    Q_OBJECT

    // Long enough that the run outlasts the viewer's refresh throttle (TensorViewer::kRunRefreshMs,
    // 250 ms) several times over on a fast machine: ~0.9 s here, not ~0.2 s.
    static constexpr int kChainSide = 768, kChainPairs = 128;

    MainWindow* window_ = nullptr;
    DebuggerUi ui_;

    GraphSession* session() const { return window_->session(); }
    DebugController* ctl() const { return ui_.controller; }

    void open(const QString& file) {
        QVERIFY(irscope::test::openInFreshWindow(window_, ui_, file));
        QVERIFY(irscope::test::waitIdle(*ctl()));
    }
    int64_t nodeIndex(const QString& name) const {
        const auto& nodes = session()->document()->graph.nodes;
        for (size_t i = 0; i < nodes.size(); ++i)
            if (QString::fromStdString(nodes[i].name) == name) return static_cast<int64_t>(i);
        return -1;
    }
    void trigger(QAction* a) {
        QVERIFY(a->isEnabled());
        a->trigger();
        QVERIFY(irscope::test::waitIdle(*ctl()));
    }
    // The values table fetches blocks asynchronously: ask for all of them and wait.
    void fetchAll(TensorViewer* v) {
        QVERIFY(irscope::test::waitIdle(*ctl()));
        SliceModel* m = v->sliceModel();
        m->prefetch(0, 0, m->rowCount() - 1, m->columnCount() - 1);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(m->rowCount() == 0 || m->has(m->rowCount() - 1, m->columnCount() - 1));
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void cleanupTestCase() { delete window_; }

    // Each panel registers itself from its own file (common/panel_registry.h):
    // the window has all of them, in their docks or sections, and Debug ▸ Panels
    // offers every dock.
    void panelsInstallThemselves() {
        open(irFixture("buffer_vs_constant.json"));
        QStringList ids;
        for (const PanelRegistration& r : registeredPanels()) ids << QString::fromLatin1(r.id.key);
        // Every panel: the window's own (installed with the window), the
        // debugger's and the comparison's, all through the one registry.
        for (const char* id :
             {"propertiesDock", "searchDock", "opStatsDock", "modulesDock", "callStackDock", "diagnosticsDock",
              "weightsDock", "tensorDock", "constantsDock", "inputsDock", "execInfoSection", "missingValuesSection",
              "differencesDock", "breakpointsDock", "changesDock"})
            QVERIFY2(ids.contains(QLatin1String(id)), id);
        for (const PanelRegistration& r : registeredPanels())
            QVERIFY2(window_->panel(r.id) || r.needs == PanelNeeds::Compare, r.id.key);  // compare: not installed here
        for (PanelId id : {kWeightsPanel, kTensorPanel, kConstantsPanel, kInputsPanel})
            QVERIFY2(window_->panelDock(id) && window_->panelDock(id)->widget(), id.key);
        QVERIFY(ui_.execInfo && ui_.execInfo->isVisibleTo(window_->panelDock(kPropertiesPanel)));
        QStringList titles;
        auto* panels = window_->findChild<QMenu*>(QStringLiteral("panelsMenu"));  // View › Panels, made on opening
        QVERIFY(panels);
        emit panels->aboutToShow();
        for (QAction* a : panels->actions()) titles << a->text();
        for (const char* t : {"Weights", "Tensor", "Constants", "Inputs and references"})
            QVERIFY2(titles.contains(QLatin1String(t)), t);
    }

    // A sharded checkpoint made by `irscope convert --shard-size` (one tensor a
    // shard) loads as weights from its folder, as a drop would: every weight
    // the .pt supplies, the folder supplies too.
    void shardedFolderLoadsAsWeights() {
        open(irFixture("resnet_tiny.json"));
        ctl()->values()->loadWeights(irFixture("resnet_tiny.weights.pt"));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        auto loaded = [this] {
            int n = 0;
            for (const auto& r : ctl()->values()->weightRows()) n += r.status == exec::WeightStatus::Loaded;
            return n;
        };
        const int fromPt = loaded();
        QVERIFY(fromPt > 10);

        QTemporaryDir dir;
        const QString repo = dir.path() + QStringLiteral("/repo");
        QProcess convert;
        convert.start(QString::fromUtf8(IRSCOPE_BINARY),
                      {QStringLiteral("convert"), irFixture("resnet_tiny.weights.pt"), repo,
                       QStringLiteral("--shard-size"), QStringLiteral("1"), QStringLiteral("-q")});
        QVERIFY(convert.waitForFinished(60000));
        QCOMPARE(convert.exitCode(), 0);
        QVERIFY(QDir(repo).entryList({QStringLiteral("model-*-of-*.safetensors")}).size() > 10);
        QVERIFY(TensorFileDrop::isTensorSource(repo));
        QVERIFY(TensorFileDrop::isTensorSource(repo + QStringLiteral("/model.safetensors.index.json")));
        QVERIFY(!TensorFileDrop::isTensorSource(irFixture("resnet_tiny.json")));
        QVERIFY(!TensorFileDrop::isTensorSource(dir.path()));  // holds only the folder

        open(irFixture("resnet_tiny.json"));
        ctl()->values()->load(exec::ValueFile::Weights, repo);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(loaded(), fromPt);
        QCOMPARE(ctl()->values()->path(exec::ValueFile::Weights), repo);
    }

    void stepsByModuleLikeACallStack() {
        // ResNet with its blocks closed: F10 runs a whole block, F11 opens the block
        // around the current node without running anything, Shift+F11 finishes the
        // block; the Call Stack dock shows the module path of the current node.
        open(irFixture("resnet_tiny.json"));
        ctl()->values()->loadWeights(irFixture("resnet_tiny.weights.pt"));
        ctl()->values()->loadInputs(irFixture("resnet_tiny.inputs.pt"));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        const auto* tree = session()->moduleTree();
        QVERIFY(tree);
        const int64_t block1 = tree->find("layer1.0"), block2 = tree->find("layer2.0");
        for (int64_t m : {block1, block2}) session()->setModuleExpanded(m, false);
        // Run up to the first op of layer1.0 (conv1 of the block).
        const int64_t first = tree->module(static_cast<modules::ModuleId>(block1)).firstNode;
        ctl()->runToNode(first - 1);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(ctl()->runCursor(), first);
        QCOMPARE(session()->closedModuleOf(first), block1);
        // F10: the whole closed block runs, the cursor lands just after it.
        const int64_t last = tree->module(static_cast<modules::ModuleId>(block1)).lastNode;
        trigger(ui_.stepAction);
        QCOMPARE(ctl()->runCursor(), last + 1);
        for (int64_t n = first; n <= last; ++n)
            QCOMPARE(session()->decorations()->nodeDecoration(n)->state, RunMark::Done);
        QCOMPARE(*session()->decorations()->moduleStatus(block1), QStringLiteral("done"));
        // Overlays aggregate onto the closed box: max |x| is the block's largest, time the sum.
        ctl()->checks()->setOverlay(exec::OverlayKind::MaxAbs);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        double maxAbs = 0, seconds = 0;
        for (int64_t n = first; n <= last; ++n)
            maxAbs = std::max(maxAbs, ctl()->checks()->overlayValues()[static_cast<size_t>(n)]);
        QVERIFY(session()->decorations()->moduleDecoration(block1));
        QCOMPARE(session()->decorations()->moduleDecoration(block1)->badge, QString::number(maxAbs, 'g', 3));
        QVERIFY(session()->decorations()->moduleDecoration(block1)->overlay.isValid());
        ctl()->checks()->setOverlay(exec::OverlayKind::Time);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        for (int64_t n = first; n <= last; ++n) seconds += ctl()->checks()->overlayValues()[static_cast<size_t>(n)];
        const QString expected = seconds < 1e-3 ? QString::number(seconds * 1e6, 'f', 0) + QStringLiteral(" µs")
                                                : QString::number(seconds * 1e3, 'f', 2) + QStringLiteral(" ms");
        QCOMPARE(session()->decorations()->moduleDecoration(block1)->badge, expected);
        QVERIFY(std::abs(session()->decorations()->moduleSeconds(block1) - seconds) <=
                1e-9 + 1e-6 * seconds);  // the Modules dock's Time
        ctl()->checks()->setOverlay(exec::OverlayKind::None);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        // Up to layer2.0's first op, then F11: the block opens, nothing runs.
        const int64_t first2 = tree->module(static_cast<modules::ModuleId>(block2)).firstNode;
        ctl()->runToNode(first2 - 1);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(ctl()->runCursor(), first2);
        trigger(ui_.stepIntoAction);
        QCOMPARE(ctl()->runCursor(), first2);
        QVERIFY(session()->isModuleExpanded(block2));
        QCOMPARE(session()->closedModuleOf(first2), int64_t(-1));
        // F11 again on a visible node: one node.
        trigger(ui_.stepIntoAction);
        QCOMPARE(ctl()->runCursor(), first2 + 1);
        // The current node is layer2.0's batch norm: the op, bn1, the block, the model.
        const QStringList frames = window_->panelAs<CallStackPanel>(kCallStackPanel)->frames();
        QCOMPARE(frames.size(), 4);
        QVERIFY(frames[0].contains(QStringLiteral("_native_batch_norm_legit_no_training")));
        QCOMPARE(frames[1].split(QLatin1Char(' ')).front(), QStringLiteral("layer2.0.bn1"));
        QCOMPARE(frames[2].split(QLatin1Char(' ')).front(), QStringLiteral("layer2.0"));
        QCOMPARE(frames[3].split(QLatin1Char(' ')).front(), QStringLiteral("model"));
        // Looking at another node (a click, a search hit) is not moving the
        // run: the cursor, its ring and the Call Stack stay; F10 runs the node
        // that was next.
        session()->selectionModel()->select(ItemRef::node(first), true);
        QCOMPARE(ctl()->runCursor(), first2 + 1);
        QCOMPARE(session()->selectionModel()->runCursor(), first2 + 1);
        QCOMPARE(window_->panelAs<CallStackPanel>(kCallStackPanel)->frames(), frames);
        // Shift+F11 finishes the top frame, bn1 (one node: it was the next to
        // run); the next Shift+F11 finishes layer2.0. It used to skip bn1 and
        // end layer2.0 at once: the frame below the one shown.
        const int64_t bn1 = session()->frameModuleOf(first2 + 1);
        QCOMPARE(QString::fromStdString(tree->module(static_cast<modules::ModuleId>(bn1)).path),
                 QStringLiteral("layer2.0.bn1"));
        trigger(ui_.stepOutAction);
        QCOMPARE(ctl()->runCursor(), tree->module(static_cast<modules::ModuleId>(bn1)).lastNode + 1);
        QVERIFY(ctl()->runCursor() < tree->module(static_cast<modules::ModuleId>(block2)).lastNode);
        QCOMPARE(window_->panelAs<CallStackPanel>(kCallStackPanel)->frames()[1].split(QLatin1Char(' ')).front(),
                 QStringLiteral("layer2.0"));
        trigger(ui_.stepOutAction);
        QCOMPARE(ctl()->runCursor(), tree->module(static_cast<modules::ModuleId>(block2)).lastNode + 1);
    }

    void missingConstantFlaggedThenTyped() {
        open(irFixture("masked_linear.meta.json"));
        ctl()->values()->loadWeights(irFixture("masked_linear.weights.pt"));
        ctl()->values()->loadInputs(irFixture("masked_linear.inputs.pt"));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        // Weights table: three IR weights; the filter shows the one missing.
        QCOMPARE(ui_.weights->table()->model()->rowCount(), 3);
        ui_.weights->filter()->setCurrentIndex(3);  // Missing
        QCOMPARE(ui_.weights->visibleRows(), 1);
        ui_.weights->filter()->setCurrentIndex(0);
        // By name: text (state_dict key or placeholder), or /regex/.
        QLineEdit* name = ui_.weights->nameFilter();
        name->setText(QStringLiteral("BIAS"));
        QCOMPARE(ui_.weights->visibleRows(), 1);
        name->setText(QStringLiteral("/^linear\\./"));
        QCOMPARE(ui_.weights->visibleRows(), 2);
        name->setText(QStringLiteral("c_ma"));  // the placeholder
        QCOMPARE(ui_.weights->visibleRows(), 1);
        name->setText(QStringLiteral("/[/"));
        QCOMPARE(ui_.weights->visibleRows(), 0);
        QVERIFY(name->styleSheet().contains(QLatin1String("d0302a")));
        name->clear();
        QCOMPARE(ui_.weights->visibleRows(), 3);
        // Arrow keys move through the table and the Tensor viewer follows.
        QTableView* table = ui_.weights->table();
        table->setFocus();
        table->setCurrentIndex(table->model()->index(0, 0));
        const QString first = ctl()->tensors()->focusTensor();
        QVERIFY(!first.isEmpty());
        QTest::keyClick(table, Qt::Key_Down);
        QVERIFY(ctl()->tensors()->focusTensor() != first);
        QVERIFY(!ctl()->tensors()->focusTensor().isEmpty());
        // Flagged on the graph (placeholder and the node that needs it) and in Diagnostics.
        const auto* wd = session()->decorations()->weightDecoration(QStringLiteral("c_mask"));
        QVERIFY(wd && wd->missingValue);
        const int64_t mul = nodeIndex(QStringLiteral("mul"));
        QVERIFY(session()->decorations()->nodeDecoration(mul) &&
                session()->decorations()->nodeDecoration(mul)->missingValue);
        QCOMPARE(ui_.missing->list()->count(), 1);
        QVERIFY(ui_.missing->list()->item(0)->text().contains(QStringLiteral("Constants dock")));
        // Type the value in the Constants dock.
        ui_.constants->nameBox()->setCurrentText(QStringLiteral("mask"));
        ui_.constants->valueEdit()->setText(QStringLiteral("[1, 0, 1, 0]"));
        ui_.constants->dtypeBox()->setCurrentText(QStringLiteral("float32"));
        QTest::mouseClick(ui_.constants->setButton(), Qt::LeftButton);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(ctl()->values()->missing().empty());
        QCOMPARE(ui_.missing->list()->count(), 0);
        QVERIFY(!session()->decorations()->weightDecoration(QStringLiteral("c_mask")));
        QVERIFY(!session()->decorations()->nodeDecoration(mul) ||
                !session()->decorations()->nodeDecoration(mul)->missingValue);
        // Validation's "missing-constant" warning is now settled, not a live warning.
        QVERIFY(!session()->decorations()->suppliedPlaceholders().contains(QStringLiteral("p_linear_weight")));
        QVERIFY(session()->decorations()->suppliedPlaceholders().contains(QStringLiteral("c_mask")));
        auto* diagnostics = window_->findChild<QTreeWidget*>(QStringLiteral("diagnosticsTree"));
        QVERIFY(diagnostics);
        QCOMPARE(diagnostics->topLevelItemCount(), 1);
        QVERIFY(diagnostics->topLevelItem(0)->text(3).startsWith(QStringLiteral("(value supplied) ")));
        // The dock's title counts what its list shows: the one row, settled.
        auto* diagDock = window_->findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"));
        QVERIFY(diagDock);
        QCOMPARE(diagDock->windowTitle(), QStringLiteral("Diagnostics (1 settled)"));
        // Step: node 0 done, node 1 current; then continue to the end.
        trigger(ui_.stepAction);
        QCOMPARE(ctl()->runCursor(), int64_t(1));
        QCOMPARE(session()->decorations()->nodeDecoration(0)->state, RunMark::Done);
        QCOMPARE(session()->decorations()->nodeDecoration(1)->state, RunMark::Current);
        QCOMPARE(session()->selectionModel()->runCursor(), int64_t(1));
        trigger(ui_.continueAction);
        QCOMPARE(ctl()->runCursor(), int64_t(2));
        QCOMPARE(session()->decorations()->nodeDecoration(1)->state, RunMark::Done);
        QVERIFY(ctl()->bytesHeld() > 0);
        QVERIFY(ui_.bytes->text().contains(QStringLiteral("held")));
        // Select the output node: the viewer follows; mask zeroes columns 1 and 3.
        session()->selectionModel()->select(ItemRef::node(mul), true);
        TensorViewer* v = ui_.tensors->follower();
        QCOMPARE(v->tensor(), QStringLiteral("mul"));
        QTRY_VERIFY(v->summaryText().contains(QStringLiteral("[1, 4]")));
        fetchAll(v);
        QCOMPARE(v->sliceModel()->value(0, 1), 0.0);
        QCOMPARE(v->sliceModel()->value(0, 3), 0.0);
        // Pin it: a second viewer keeps "mul" while the follower moves on.
        TensorViewer* pinned = ui_.tensors->pin(v);
        QVERIFY(pinned);
        session()->selectionModel()->select(ItemRef::node(0), true);
        QCOMPARE(v->tensor(), QStringLiteral("linear"));
        QCOMPARE(pinned->tensor(), QStringLiteral("mul"));
        QCOMPARE(ui_.tensors->viewers().size(), size_t(2));
        // Export and saving the typed constants.
        QTemporaryDir dir;
        // Both written off the UI thread: the answer comes back as a call.
        QString exported = QStringLiteral("not yet"), saved = QStringLiteral("not yet");
        ctl()->tensors()->exportTensor(QStringLiteral("mul"), dir.filePath(QStringLiteral("mul.npy")),
                                       exec::ValueSide::Actual, [&exported](const QString& e) { exported = e; });
        ctl()->values()->saveConstants(dir.filePath(QStringLiteral("c.safetensors")),
                                       [&saved](const QString& e) { saved = e; });
        QTRY_COMPARE(exported, QString());
        QTRY_COMPARE(saved, QString());
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("mul.npy"))));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("c.safetensors"))));
    }

    // A reload (same IR) gets a new debugger with the user's value sources
    // restored from the core's ValueSettings; a file gone meanwhile is reported.
    void reloadRestoresValueSources() {
        QTemporaryDir dir;
        const QString weights = dir.filePath(QStringLiteral("w.pt"));
        QVERIFY(QFile::copy(irFixture("masked_linear.weights.pt"), weights));
        open(irFixture("masked_linear.meta.json"));
        ctl()->values()->loadWeights(weights);
        ctl()->values()->loadInputs(irFixture("masked_linear.inputs.pt"));
        ctl()->values()->enterConstant(QStringLiteral("mask"), QStringLiteral("[1, 0, 1, 0]"),
                                       QStringLiteral("float32"));
        ctl()->values()->setSeed(7);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(ctl()->values()->missing().empty());
        const exec::Debugger* before = ctl()->debugger();

        QSignalSpy loaded(session(), &GraphSession::graphLoaded);
        QSignalSpy errors(ctl(), &DebugController::errorOccurred);
        window_->reload();
        QVERIFY(loaded.wait(30000));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(ctl()->debugger() != before);
        QCOMPARE(ctl()->values()->path(exec::ValueFile::Weights), weights);
        QCOMPARE(ctl()->values()->path(exec::ValueFile::Inputs), irFixture("masked_linear.inputs.pt"));
        QCOMPARE(ctl()->values()->enteredConstants(), QStringList{QStringLiteral("mask")});
        QCOMPARE(ctl()->values()->seed(), int64_t(7));
        QVERIFY(ctl()->values()->missing().empty());
        QCOMPARE(errors.count(), 0);
        QVERIFY(ui_.inputs->referencesLabel()->text().contains(QStringLiteral("masked_linear.inputs.pt")));

        // The state_dict is gone by the next reload: said once, the rest still applies.
        QVERIFY(QFile::remove(weights));
        window_->reload();
        QVERIFY(loaded.wait(30000));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.at(0).at(0).toString().contains(QStringLiteral("w.pt")));
        QCOMPARE(ctl()->values()->path(exec::ValueFile::Weights), QString());
        QCOMPARE(ctl()->values()->enteredConstants(), QStringList{QStringLiteral("mask")});
        QCOMPARE(ctl()->values()->seed(), int64_t(7));
    }

    void failedNodeShown() {
        open(irFixture("masked_linear.meta.json"));
        ctl()->values()->loadWeights(irFixture("masked_linear.weights.pt"));
        ctl()->values()->enterConstant(QStringLiteral("mask"), QStringLiteral("[1, 0, 1]"),
                                       QStringLiteral("float32"));  // wrong size
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(ctl()->values()->missing().empty());
        QSignalSpy stopped(ctl(), &DebugController::stopped);
        trigger(ui_.continueAction);
        QVERIFY(ctl()->lastRunFailed());
        QVERIFY(ctl()->lastStatus().contains(QStringLiteral("'mul'")));
        const int64_t mul = nodeIndex(QStringLiteral("mul"));
        QCOMPARE(session()->decorations()->nodeDecoration(mul)->state, RunMark::Failed);
        QCOMPARE(session()->decorations()->nodeDecoration(0)->state, RunMark::Done);
        QVERIFY(!ctl()->nodeInfos()[mul].error.empty());
        QVERIFY(ui_.status->text().contains(QStringLiteral("failed")));
        // Said once: the label holds the whole failure (its tooltip too),
        // and the message area beside it does not repeat it.
        if (ui_.status->toolTip() == ctl()->lastStatus() && !ui_.status->text().contains(QChar(0x2026)))
            QVERIFY2(window_->statusBar()->currentMessage() != ctl()->lastStatus(),
                     qPrintable(window_->statusBar()->currentMessage()));
        // What ran before stays inspectable.
        session()->selectionModel()->select(ItemRef::node(0), true);
        QTRY_VERIFY(ui_.tensors->follower()->summaryText().contains(QStringLiteral("[1, 4]")));
        session()->selectionModel()->select(ItemRef::node(mul), true);
        QVERIFY(ui_.execInfo->text().contains(QStringLiteral("Failed")));
        // Reset: pending again.
        trigger(ui_.resetAction);
        QCOMPARE(ctl()->runCursor(), int64_t(0));
        QVERIFY(!ctl()->lastRunFailed());
    }

    void breakpointsRunToAndCliDump() {
        open(irFixture("llama_block.meta.json"));
        ctl()->values()->loadWeights(irFixture("llama_block.weights.pt"));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(ctl()->values()->missing().size(), size_t(3));  // b_rope_cos, b_rope_sin, c_positions
        ctl()->values()->loadConstants(irFixture("llama_block.constants.pt"));
        ctl()->values()->loadInputs(irFixture("llama_block.inputs.pt"));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(ctl()->values()->missing().empty());
        // F9 on the selection, then F5 stops before it.
        session()->selectionModel()->select(ItemRef::node(10), false);
        trigger(ui_.breakpointAction);
        QVERIFY(session()->decorations()->nodeDecoration(10)->breakpoint);
        trigger(ui_.continueAction);
        QCOMPARE(ctl()->runCursor(), int64_t(10));
        QVERIFY(ctl()->lastStatus().contains(QStringLiteral("breakpoint")));
        QCOMPARE(ui_.progress->value(), 10);
        // Ctrl+F10 on a later node stops before it, as a breakpoint would.
        session()->selectionModel()->select(ItemRef::node(20), false);
        trigger(ui_.runToAction);
        QCOMPARE(ctl()->runCursor(), int64_t(20));
        QVERIFY2(ctl()->lastStatus().startsWith(QStringLiteral("stopped before '")), qPrintable(ctl()->lastStatus()));
        QVERIFY(ctl()->lastStatus().contains(QStringLiteral("run to cursor")));
        trigger(ui_.continueAction);
        QCOMPARE(ctl()->runCursor(), ctl()->nodeCount());
        // Ctrl+F10 on a module runs to its entry: its first node is next.
        {
            // A module entered before the breakpoint at node 10 (the run stops there first otherwise).
            const auto* tree = session()->moduleTree();
            irscope::modules::ModuleId m = irscope::modules::kNoModule;
            for (size_t k = 1; k < tree->size() && m == irscope::modules::kNoModule; ++k) {
                const auto& mod = tree->module(static_cast<irscope::modules::ModuleId>(k));
                if (!mod.isList && mod.firstNode > 0 && mod.firstNode < 10)
                    m = static_cast<irscope::modules::ModuleId>(k);
            }
            QVERIFY(m != irscope::modules::kNoModule);
            session()->selectionModel()->select(ItemRef::module(m), false);
            trigger(ui_.runToAction);
            QCOMPARE(ctl()->runCursor(), tree->module(m).firstNode);
            QVERIFY2(ctl()->lastStatus().contains(QStringLiteral("the entry of module")),
                     qPrintable(ctl()->lastStatus()));
            trigger(ui_.continueAction);
            QCOMPARE(ctl()->runCursor(), int64_t(10));  // the breakpoint still stops a new run
            trigger(ui_.continueAction);
            QCOMPARE(ctl()->runCursor(), ctl()->nodeCount());
        }
        // F5 on a finished run starts a new one, which stops at the breakpoint again.
        trigger(ui_.continueAction);
        QCOMPARE(ctl()->runCursor(), int64_t(10));
        QVERIFY(ctl()->lastStatus().contains(QStringLiteral("breakpoint")));
        trigger(ui_.continueAction);
        QCOMPARE(ctl()->runCursor(), ctl()->nodeCount());

        // The viewer's values equal `irscope run --dump`'s: load the dump as the reference.
        QTemporaryDir dir;
        const QString dump = dir.filePath(QStringLiteral("dump.pt"));
        QProcess p;
        p.start(
            QString::fromUtf8(IRSCOPE_BINARY),
            {QStringLiteral("run"), irFixture("llama_block.meta.json"), QStringLiteral("--weights"),
             irFixture("llama_block.weights.pt"), QStringLiteral("--constants"), irFixture("llama_block.constants.pt"),
             QStringLiteral("--inputs"), irFixture("llama_block.inputs.pt"), QStringLiteral("--dump"), dump});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        ctl()->values()->loadReferenceIntermediates(dump);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        const int64_t n = nodeIndex(QStringLiteral("mul_4"));
        session()->selectionModel()->select(ItemRef::node(n), true);
        TensorViewer* v = ui_.tensors->follower();
        QCOMPARE(v->tensor(), QStringLiteral("mul_4"));
        fetchAll(v);
        const int rows = v->sliceModel()->rowCount(), cols = v->sliceModel()->columnCount();
        QVERIFY(rows > 0 && cols > 0);
        std::vector<double> actual;
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) actual.push_back(v->sliceModel()->value(r, c));
        v->sideBox()->setCurrentIndex(1);  // Reference = the CLI's dump
        fetchAll(v);
        QCOMPARE(v->sliceModel()->rowCount(), rows);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) QCOMPARE(v->sliceModel()->value(r, c), actual[r * cols + c]);
        v->sideBox()->setCurrentIndex(0);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        // The leading dimensions' spin boxes move the slice; named by number
        // (a 4-D tensor was always "n" and "ch", a KV cache's heads too).
        QVERIFY(!v->leadSpins().empty());
        for (size_t k = 0; k < v->leadSpins().size(); ++k)
            QCOMPARE(v->leadSpins()[k]->prefix(), QStringLiteral("dim %1: ").arg(k));
        v->tabs()->setCurrentIndex(3);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(v->heatmap()->data().rows, int64_t(rows));
        v->tabs()->setCurrentIndex(2);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        int64_t total = 0;
        for (auto c : v->histogramData().counts) total += c;
        QCOMPARE(total, v->histogramData().finite);
        QVERIFY(total > 0);
    }

    // The gate of tests/data/divergence/: its comparison flips on a tie while
    // its input matches the reference; First Divergence says it is a decision.
    void firstDivergenceSaysItIsAFlippedDecision() {
        const auto fixture = [](const char* f) {
            return QString::fromStdString(irscope::test::dataPath(std::string("divergence/") + f));
        };
        open(fixture("gate.json"));
        ctl()->values()->loadWeights(fixture("gate.weights.pt"));
        ctl()->values()->loadInputs(fixture("gate.inputs.pt"));
        ctl()->values()->loadReferenceIntermediates(fixture("decision.pt"));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        trigger(ui_.continueAction);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        trigger(ui_.divergenceAction);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        const auto& d = ctl()->checks()->divergence();
        QVERIFY(d.found);
        QCOMPARE(QString::fromStdString(d.nodeName), QStringLiteral("gt"));
        QCOMPARE(QString::fromStdString(d.kind), QStringLiteral("decision"));
        QVERIFY2(QString::fromStdString(d.message).contains(QLatin1String("that is a flipped decision")),
                 d.message.c_str());
    }

    void compareFindsPlantedDivergence() {
        open(irFixture("llama_block.json"));
        ctl()->values()->loadWeights(irFixture("llama_block.weights.pt"));
        ctl()->values()->loadInputs(irFixture("llama_block.inputs.pt"));
        ctl()->values()->loadReferenceIntermediates(irFixture("llama_block.intermediates_bad.pt"));
        // Another CPU's BLAS differs from the fixtures' by an ulp; the planted error is 1.0.
        ctl()->checks()->setTolerance(1e-5, 1e-6);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        trigger(ui_.continueAction);
        ui_.overlay->setCurrentIndex(4);  // difference
        QVERIFY(irscope::test::waitIdle(*ctl()));
        trigger(ui_.divergenceAction);
        QVERIFY(ctl()->checks()->divergence().found);
        QCOMPARE(QString::fromStdString(ctl()->checks()->divergence().nodeName), QStringLiteral("mul_4"));
        // A planted error of 1.0 is no rounding: a wrong value, said so.
        QCOMPARE(QString::fromStdString(ctl()->checks()->divergence().kind), QStringLiteral("value"));
        QVERIFY(QString::fromStdString(ctl()->checks()->divergence().message).contains(QLatin1String("a wrong value")));
        const int64_t n = nodeIndex(QStringLiteral("mul_4"));
        QCOMPARE(session()->selectionModel()->selection(), ItemRef::node(n));
        QVERIFY(session()->decorations()->nodeDecoration(n)->overlay.isValid());
        TensorViewer* v = ui_.tensors->follower();
        QCOMPARE(v->tensor(), QStringLiteral("mul_4"));
        v->tabs()->setCurrentIndex(4);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(v->compareText().contains(QStringLiteral("differs")));
        QVERIFY(v->compareText().contains(QStringLiteral("mul_4")));
        // Overlays: time and NaN/Inf are computed for every node.
        ui_.overlay->setCurrentIndex(1);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(ctl()->checks()->overlayValues().size(), size_t(ctl()->nodeCount()));
        QVERIFY(!session()->decorations()->nodeDecoration(0)->badge.isEmpty());
        // Difference overlay: badges only on nodes that differ (none on the matching ones).
        ui_.overlay->setCurrentIndex(4);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        const auto& ov = ctl()->checks()->overlayValues();
        for (int64_t i = 0; i < ctl()->nodeCount(); ++i) {
            const auto* d = session()->decorations()->nodeDecoration(i);
            if (ov[i] == 0)
                QVERIFY(d && d->badge.isEmpty());
            else if (ov[i] > 0)
                QVERIFY(d && !d->badge.isEmpty());
        }
        QVERIFY(!session()->decorations()->nodeDecoration(n)->badge.isEmpty());
    }

    // Tensor queries run on the query thread: the viewer shows "computing…",
    // then the summary when the answer arrives; a newer request supersedes an
    // older one (its answer is dropped); the values table fetches its blocks
    // asynchronously and repaints when they arrive.
    void tensorQueriesAreAsynchronous() {
        open(irFixture("llama_block.json"));
        ctl()->values()->loadWeights(irFixture("llama_block.weights.pt"));
        ctl()->values()->loadInputs(irFixture("llama_block.inputs.pt"));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        trigger(ui_.continueAction);
        TensorViewer* v = ui_.tensors->follower();
        const int64_t n = nodeIndex(QStringLiteral("mul_4"));
        auto expected = ctl()->debugger()->tensors().summary("mul_4");  // direct facade call: the test's reference
        QVERIFY(expected);
        QStringList shape;
        for (auto d : expected->shape) shape << QString::number(d);
        const QString shapeText = QLatin1Char('[') + shape.join(QStringLiteral(", ")) + QLatin1Char(']');

        QSignalSpy updated(v, &TensorViewer::updated);
        QSignalSpy busy(v, &TensorViewer::busyChanged);
        session()->selectionModel()->select(ItemRef::node(n), true);
        // Nothing was computed on the UI thread: the viewer waits, and says so.
        QVERIFY(v->isBusy());
        QVERIFY(!v->busyLabel()->isHidden());
        QVERIFY(!v->summaryText().contains(shapeText));
        QTRY_VERIFY(v->summaryText().contains(shapeText));
        QVERIFY(v->summaryText().contains(QString::number(expected->max, 'g', 6)));
        QTRY_VERIFY(!v->isBusy());
        QVERIFY(v->busyLabel()->isHidden());
        QVERIFY(busy.count() >= 2);
        QVERIFY(updated.contains(QVariantList{QStringLiteral("summary")}));

        // Two selections in a row: the first request is superseded (replaced
        // while queued, or its answer dropped), only the second is shown.
        updated.clear();
        session()->selectionModel()->select(ItemRef::node(0), true);
        session()->selectionModel()->select(ItemRef::node(n - 1), true);
        const QString second = ctl()->tensors()->tensorOf(ItemRef::node(n - 1));
        QVERIFY(irscope::test::waitIdle(*ctl()));
        int heads = 0, summaries = 0;
        for (const auto& args : updated) {
            heads += args.at(0).toString() == QLatin1String("head");
            summaries += args.at(0).toString() == QLatin1String("summary");
        }
        QCOMPARE(heads, 1);
        QCOMPARE(summaries, 1);
        QCOMPARE(v->tensor(), second);
        auto secondSummary = ctl()->debugger()->tensors().summary(second.toStdString());
        QVERIFY(secondSummary);
        QVERIFY(v->summaryText().contains(QString::number(secondSummary->max, 'g', 6)));

        // The controller's rule, directly: same key -> only the newest answers;
        // no key -> every one answers; a dead owner gets nothing.
        QStringList got;
        auto job = [&got](const QString& tag) {
            return [tag, &got](const exec::Debugger&) -> std::function<void()> { return [tag, &got] { got << tag; }; };
        };
        QObject owner;
        QVERIFY(ctl()->tensors()->query(QStringLiteral("test/k"), &owner, job(QStringLiteral("first"))));
        QVERIFY(ctl()->tensors()->query(QStringLiteral("test/k"), &owner, job(QStringLiteral("second"))));
        QVERIFY(ctl()->tensors()->query({}, &owner, job(QStringLiteral("keyless"))));
        {
            QObject gone;
            ctl()->tensors()->query({}, &gone, job(QStringLiteral("dead")));
        }
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(got, (QStringList{QStringLiteral("second"), QStringLiteral("keyless")}));

        // Values: a new slice shows placeholders; the blocks arrive, repaint, and equal the core's.
        v->tabs()->setCurrentIndex(1);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        SliceModel* m = v->sliceModel();
        bool placeholder = false;
        auto conn = connect(m, &QAbstractItemModel::modelReset, this, [&] {
            placeholder =
                m->data(m->index(0, 0), Qt::DisplayRole).toString() == QString::fromUtf8(SliceModel::kPlaceholder) &&
                !m->has(0, 0);
        });
        QSignalSpy changed(m, &QAbstractItemModel::dataChanged);
        session()->selectionModel()->select(ItemRef::node(n), true);
        QVERIFY(v->isBusy());
        QTRY_VERIFY(!v->isBusy() && m->has(0, 0));
        disconnect(conn);
        QVERIFY(placeholder);
        QVERIFY(changed.count() >= 1);
        const std::vector<int64_t> lead(ctl()->debugger()->tensors().geometry("mul_4")->lead.size(), 0);
        QCOMPARE(m->value(0, 0), ctl()->debugger()->tensors().block("mul_4", lead, 0, 0, 1, 1)[0]);
        QVERIFY(m->data(m->index(0, 0), Qt::DisplayRole).toString() != QString::fromUtf8(SliceModel::kPlaceholder));
        // Only what was asked for is fetched: one 64x64 block covers mul_4's slice here.
        QVERIFY(m->cachedBlocks() <= size_t((m->rowCount() + 63) / 64 * ((m->columnCount() + 63) / 64)));
    }

    // While Continue runs (no breakpoint), a pinned viewer refreshes when the
    // node producing its tensor has run, without waiting for the run to stop.
    void pinnedViewerRefreshesDuringRun() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("chain.json"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(chainGraph(kChainSide, kChainPairs));
        }
        open(file);
        QVERIFY(ctl()->values()->missing().empty());
        ctl()->setRetention(exec::RetentionPolicy::FreeAfterLastUse);  // pinned values stay
        const int64_t pinNode = nodeIndex(QStringLiteral("tanh_1"));
        QVERIFY(pinNode > 0);
        session()->selectionModel()->select(ItemRef::node(pinNode), true);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        TensorViewer* pinned = ui_.tensors->pin(ui_.tensors->follower());
        QVERIFY(pinned);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QVERIFY(pinned->summaryText().contains(QStringLiteral("No value yet")));
        session()->selectionModel()->select(ItemRef::node(0), true);  // the follower moves on; the pinned one stays
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(pinned->tensor(), QStringLiteral("tanh_1"));

        struct Seen {
            bool running;
            QString summary;
        };
        std::vector<Seen> seen;
        auto conn = connect(pinned, &TensorViewer::updated, this, [&](const QString& what) {
            if (what == QLatin1String("summary")) seen.push_back({ctl()->isRunning(), pinned->summaryText()});
        });
        QSignalSpy stopped(ctl(), &DebugController::stopped);
        QElapsedTimer t;
        t.start();
        ui_.continueAction->trigger();
        QVERIFY(ctl()->isRunning());
        QVERIFY(stopped.wait(180000));
        const qint64 ms = t.elapsed();
        disconnect(conn);
        QVERIFY(irscope::test::waitIdle(*ctl()));
        QCOMPARE(ctl()->runCursor(), ctl()->nodeCount());
        const QString shape = QStringLiteral("[%1, %1]").arg(kChainSide);
        bool duringRun = false;
        int runningUpdates = 0;
        for (const auto& s : seen) {
            runningUpdates += s.running;
            duringRun = duringRun || (s.running && s.summary.contains(shape));
        }
        QVERIFY2(duringRun, qPrintable(QStringLiteral("run took %1 ms; %2 summary updates").arg(ms).arg(seen.size())));
        // Throttled: its value changes once (tanh_1 runs once), so it is asked for once or twice, not per tick.
        QVERIFY(runningUpdates <= 2);
        QVERIFY(pinned->summaryText().contains(shape));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestDebugger)
#include "test_debugger.moc"
