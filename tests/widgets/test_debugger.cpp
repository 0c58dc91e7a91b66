// The debugger in the real window (offscreen): load weights and constants,
// missing constants flagged on the graph and in the diagnostics dock, typed
// constants, stepping, run to a node, breakpoints, a failed node, the tensor
// viewer's values against `irscope run --dump`, and compare mode finding the
// planted divergence of llama_block.intermediates_bad.pt.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QStandardPaths>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "widgets/debugger/debugger_panels.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/tensor_viewer.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"

using namespace irscope;
using namespace irscope::widgets;

namespace {
QString fx(const QString& name) { return QStringLiteral(IRSCOPE_TEST_DATA "/ir/") + name; }
}  // namespace

class TestDebugger : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;
    DebuggerUi ui_;

    GraphSession* session() const { return window_->session(); }
    DebugController* ctl() const { return ui_.controller; }

    void open(const QString& file) {
        delete window_;
        window_ = new MainWindow;
        ui_ = installDebugger(*window_);
        window_->resize(1400, 900);
        window_->show();
        QSignalSpy loaded(session(), &GraphSession::graphLoaded);
        window_->openFile(file);
        QVERIFY(loaded.wait(30000));
        QVERIFY(ctl()->waitIdle());
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
        QVERIFY(ctl()->waitIdle());
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
    }
    void cleanupTestCase() { delete window_; }

    void missingConstantFlaggedThenTyped() {
        open(fx("masked_linear.meta.json"));
        ctl()->loadWeights(fx("masked_linear.weights.pt"));
        ctl()->loadInputs(fx("masked_linear.inputs.pt"));
        QVERIFY(ctl()->waitIdle());
        // Weights table: three IR weights; the filter shows the one missing.
        QCOMPARE(ui_.weights->table()->model()->rowCount(), 3);
        ui_.weights->filter()->setCurrentIndex(3);   // Missing
        QCOMPARE(ui_.weights->visibleRows(), 1);
        ui_.weights->filter()->setCurrentIndex(0);
        // Flagged on the graph (placeholder and the node that needs it) and in Diagnostics.
        const auto* wd = session()->weightDecoration(QStringLiteral("c_mask"));
        QVERIFY(wd && wd->missingValue);
        const int64_t mul = nodeIndex(QStringLiteral("mul"));
        QVERIFY(session()->nodeDecoration(mul) && session()->nodeDecoration(mul)->missingValue);
        QCOMPARE(ui_.missing->list()->count(), 1);
        QVERIFY(ui_.missing->list()->item(0)->text().contains(QStringLiteral("Constants dock")));
        // Type the value in the Constants dock.
        ui_.constants->nameBox()->setCurrentText(QStringLiteral("mask"));
        ui_.constants->valueEdit()->setText(QStringLiteral("[1, 0, 1, 0]"));
        ui_.constants->dtypeBox()->setCurrentText(QStringLiteral("float32"));
        QTest::mouseClick(ui_.constants->setButton(), Qt::LeftButton);
        QVERIFY(ctl()->waitIdle());
        QVERIFY(ctl()->missing().empty());
        QCOMPARE(ui_.missing->list()->count(), 0);
        QVERIFY(!session()->weightDecoration(QStringLiteral("c_mask")));
        QVERIFY(!session()->nodeDecoration(mul) || !session()->nodeDecoration(mul)->missingValue);
        // Step: node 0 done, node 1 current; then continue to the end.
        trigger(ui_.stepAction);
        QCOMPARE(ctl()->cursor(), int64_t(1));
        QCOMPARE(session()->nodeDecoration(0)->state, NodeState::Done);
        QCOMPARE(session()->nodeDecoration(1)->state, NodeState::Current);
        QCOMPARE(session()->currentNode(), int64_t(1));
        trigger(ui_.continueAction);
        QCOMPARE(ctl()->cursor(), int64_t(2));
        QCOMPARE(session()->nodeDecoration(1)->state, NodeState::Done);
        QVERIFY(ctl()->bytesHeld() > 0);
        QVERIFY(ui_.bytes->text().contains(QStringLiteral("held")));
        // Select the output node: the viewer follows; mask zeroes columns 1 and 3.
        session()->select(ItemRef::node(mul), true);
        TensorViewer* v = ui_.tensors->follower();
        QCOMPARE(v->tensor(), QStringLiteral("mul"));
        QVERIFY(v->summaryText().contains(QStringLiteral("[1, 4]")));
        QCOMPARE(v->sliceModel()->value(0, 1), 0.0);
        QCOMPARE(v->sliceModel()->value(0, 3), 0.0);
        // Pin it: a second viewer keeps "mul" while the follower moves on.
        TensorViewer* pinned = ui_.tensors->pin(v);
        QVERIFY(pinned);
        session()->select(ItemRef::node(0), true);
        QCOMPARE(v->tensor(), QStringLiteral("linear"));
        QCOMPARE(pinned->tensor(), QStringLiteral("mul"));
        QCOMPARE(ui_.tensors->viewers().size(), size_t(2));
        // Export and saving the typed constants.
        QTemporaryDir dir;
        QCOMPARE(ctl()->exportTensor(QStringLiteral("mul"), dir.filePath(QStringLiteral("mul.npy"))), QString());
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("mul.npy"))));
        QCOMPARE(ctl()->saveConstants(dir.filePath(QStringLiteral("c.safetensors"))), QString());
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("c.safetensors"))));
    }

    void failedNodeShown() {
        open(fx("masked_linear.meta.json"));
        ctl()->loadWeights(fx("masked_linear.weights.pt"));
        ctl()->enterConstant(QStringLiteral("mask"), QStringLiteral("[1, 0, 1]"), QStringLiteral("float32"));   // wrong size
        QVERIFY(ctl()->waitIdle());
        QVERIFY(ctl()->missing().empty());
        QSignalSpy stopped(ctl(), &DebugController::stopped);
        trigger(ui_.continueAction);
        QVERIFY(ctl()->lastRunFailed());
        QVERIFY(ctl()->lastStatus().contains(QStringLiteral("'mul'")));
        const int64_t mul = nodeIndex(QStringLiteral("mul"));
        QCOMPARE(session()->nodeDecoration(mul)->state, NodeState::Failed);
        QCOMPARE(session()->nodeDecoration(0)->state, NodeState::Done);
        QVERIFY(!ctl()->nodeInfos()[mul].error.empty());
        QVERIFY(ui_.status->text().contains(QStringLiteral("failed")));
        // What ran before stays inspectable.
        session()->select(ItemRef::node(0), true);
        QVERIFY(ui_.tensors->follower()->summaryText().contains(QStringLiteral("[1, 4]")));
        session()->select(ItemRef::node(mul), true);
        QVERIFY(ui_.execInfo->text().contains(QStringLiteral("Failed")));
        // Reset: pending again.
        trigger(ui_.resetAction);
        QCOMPARE(ctl()->cursor(), int64_t(0));
        QVERIFY(!ctl()->lastRunFailed());
    }

    void breakpointsRunToAndCliDump() {
        open(fx("llama_block.meta.json"));
        ctl()->loadWeights(fx("llama_block.weights.pt"));
        QVERIFY(ctl()->waitIdle());
        QCOMPARE(ctl()->missing().size(), size_t(3));   // b_rope_cos, b_rope_sin, c_positions
        ctl()->loadConstants(fx("llama_block.constants.pt"));
        ctl()->loadInputs(fx("llama_block.inputs.pt"));
        QVERIFY(ctl()->waitIdle());
        QVERIFY(ctl()->missing().empty());
        // F9 on the selection, then F5 stops before it.
        session()->select(ItemRef::node(10), false);
        trigger(ui_.breakpointAction);
        QVERIFY(session()->nodeDecoration(10)->breakpoint);
        trigger(ui_.continueAction);
        QCOMPARE(ctl()->cursor(), int64_t(10));
        QVERIFY(ctl()->lastStatus().contains(QStringLiteral("breakpoint")));
        QCOMPARE(ui_.progress->value(), 10);
        // Ctrl+F10 on a later node.
        session()->select(ItemRef::node(20), false);
        trigger(ui_.runToAction);
        QCOMPARE(ctl()->cursor(), int64_t(21));
        trigger(ui_.continueAction);
        QCOMPARE(ctl()->cursor(), ctl()->nodeCount());

        // The viewer's values equal `irscope run --dump`'s: load the dump as the reference.
        QTemporaryDir dir;
        const QString dump = dir.filePath(QStringLiteral("dump.pt"));
        QProcess p;
        p.start(QStringLiteral(IRSCOPE_BINARY),
                {QStringLiteral("run"), fx("llama_block.meta.json"), QStringLiteral("--weights"), fx("llama_block.weights.pt"),
                 QStringLiteral("--constants"), fx("llama_block.constants.pt"), QStringLiteral("--inputs"),
                 fx("llama_block.inputs.pt"), QStringLiteral("--dump"), dump});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        ctl()->loadReferenceIntermediates(dump);
        QVERIFY(ctl()->waitIdle());
        const int64_t n = nodeIndex(QStringLiteral("mul_4"));
        session()->select(ItemRef::node(n), true);
        TensorViewer* v = ui_.tensors->follower();
        QCOMPARE(v->tensor(), QStringLiteral("mul_4"));
        const int rows = v->sliceModel()->rowCount(), cols = v->sliceModel()->columnCount();
        QVERIFY(rows > 0 && cols > 0);
        std::vector<double> actual;
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) actual.push_back(v->sliceModel()->value(r, c));
        v->sideBox()->setCurrentIndex(1);   // Reference = the CLI's dump
        QCOMPARE(v->sliceModel()->rowCount(), rows);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) QCOMPARE(v->sliceModel()->value(r, c), actual[r * cols + c]);
        v->sideBox()->setCurrentIndex(0);
        // The channel spin box moves the slice.
        QVERIFY(!v->leadSpins().empty());
        v->tabs()->setCurrentIndex(3);
        QCOMPARE(v->heatmap()->data().rows, int64_t(rows));
        v->tabs()->setCurrentIndex(2);
        int64_t total = 0;
        for (auto c : v->histogramData().counts) total += c;
        QCOMPARE(total, v->histogramData().finite);
        QVERIFY(total > 0);
    }

    void compareFindsPlantedDivergence() {
        open(fx("llama_block.json"));
        ctl()->loadWeights(fx("llama_block.weights.pt"));
        ctl()->loadInputs(fx("llama_block.inputs.pt"));
        ctl()->loadReferenceIntermediates(fx("llama_block.intermediates_bad.pt"));
        QVERIFY(ctl()->waitIdle());
        trigger(ui_.continueAction);
        ui_.overlay->setCurrentIndex(4);   // difference
        QVERIFY(ctl()->waitIdle());
        trigger(ui_.divergenceAction);
        QVERIFY(ctl()->divergence().found);
        QCOMPARE(QString::fromStdString(ctl()->divergence().nodeName), QStringLiteral("mul_4"));
        const int64_t n = nodeIndex(QStringLiteral("mul_4"));
        QCOMPARE(session()->selection(), ItemRef::node(n));
        QVERIFY(session()->nodeDecoration(n)->overlay.isValid());
        TensorViewer* v = ui_.tensors->follower();
        QCOMPARE(v->tensor(), QStringLiteral("mul_4"));
        v->tabs()->setCurrentIndex(4);
        QVERIFY(v->compareText().contains(QStringLiteral("differs")));
        QVERIFY(v->compareText().contains(QStringLiteral("mul_4")));
        // Overlays: time and NaN/Inf are computed for every node.
        ui_.overlay->setCurrentIndex(1);
        QVERIFY(ctl()->waitIdle());
        QCOMPARE(ctl()->overlayValues().size(), size_t(ctl()->nodeCount()));
        QVERIFY(!session()->nodeDecoration(0)->badge.isEmpty());
    }
};

QTEST_MAIN(TestDebugger)
#include "test_debugger.moc"
