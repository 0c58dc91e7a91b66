// The quantization debugger in the window: a PT2E-quantized CNN opened with
// its float program as the Differences dock's reference (tests/data/
// quantization/). The run measures each paired tensor against the float
// program's; the SQNR overlay colours nodes on absolute dB bands (its legend
// says so), so a node's colour depends on its own SQNR only; a dequantized
// activation is measured against the float tensor it stands for. The
// Quantization dock lists what to keep in float in PyTorch's order
// (tests/data/quantization/*.torch.json), and a click selects the quantize node.
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include "wait_idle.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/quantization_panel.h"
#include "widgets/graph_view/graph_view.h"
#include "widgets/graph_view/overlay_legend.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/numeric_checks.h"

using namespace irscope;
using namespace irscope::widgets;

namespace {

QString quantizationPath(const QString& file) {
    return QString::fromUtf8(IRSCOPE_TEST_DATA) + QStringLiteral("/quantization/") + file;
}

}  // namespace

class TestQuantizationWindow : public QObject {
    Q_OBJECT

    MainWindow* window_ = nullptr;
    DebuggerUi ui_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        window_ = new MainWindow;
        ui_ = installDebugger(*window_);
        window_->resize(1400, 900);
        window_->show();
    }
    void cleanupTestCase() { delete window_; }

    void theFloatProgramIsTheReference() {
        DebugController* c = ui_.controller;
        GraphSession* s = window_->session();
        QSignalSpy loaded(s, &GraphSession::graphLoaded);
        window_->openFile(quantizationPath(QStringLiteral("pt2e_static_cnn.pt2")));
        QVERIFY(loaded.wait(30000));
        QVERIFY(irscope::test::waitIdle(*c));
        exec::ReferenceChoice choice;
        choice.kind = exec::ReferenceChoice::Kind::Program;
        choice.programPath = quantizationPath(QStringLiteral("pt2e_static_cnn.float.pt2")).toStdString();
        c->checks()->setReferenceChoice(choice);
        QVERIFY(irscope::test::waitIdle(*c));
        ui_.continueAction->trigger();
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY(!c->lastRunFailed());
        // The verdict is the quantization's cost, not an output that "differs".
        QVERIFY2(c->verdict().contains(QLatin1String("SQNR")) && !c->verdict().contains(QLatin1String("differs")),
                 qPrintable(c->verdict()));

        // Each paired tensor measured against the float program's: 10 of them, none exact.
        const auto& rows = c->checks()->errorRows();
        QCOMPARE(static_cast<int>(rows.size()), 10);
        bool input = false;
        for (const auto& r : rows) {
            QVERIFY2(r.metrics.sqnrDb > 30 && r.metrics.sqnrDb < 60, r.output.c_str());
            input |= r.output == "dequantize_per_tensor";  // x after quantize and dequantize, against x
        }
        QVERIFY(input);

        // The SQNR overlay: absolute bands, the legend says so; a node at 40-60 dB is pale yellow.
        c->checks()->setOverlay(exec::OverlayKind::ErrorSqnr);
        QVERIFY(irscope::test::waitIdle(*c));
        auto* legend = window_->graphView()->findChild<OverlayLegend*>();
        QVERIFY(legend);
        QVERIFY2(legend->title().contains(QLatin1String("absolute bands")), qPrintable(legend->title()));
        const auto& nodes = s->document()->graph.nodes;
        int coloured = 0;
        for (const auto& r : rows) {
            const auto* deco = s->decorations()->nodeDecoration(r.node);
            QVERIFY(deco && deco->overlay.isValid());
            const QColor expected = r.metrics.sqnrDb >= 40 ? QColor("#fff5c0") : QColor("#ffd080");
            QVERIFY2(deco->overlay == expected, qPrintable(QString("%1: %2 dB, %3")
                                                               .arg(nodes[r.node].name.c_str())
                                                               .arg(r.metrics.sqnrDb)
                                                               .arg(deco->overlay.name())));
            ++coloured;
        }
        QCOMPARE(coloured, 10);

        // What to keep in float, best first, as PyTorch's reruns rank it.
        auto* panel = window_->panelAs<QuantizationPanel>(kQuantizationPanel);
        QVERIFY(panel);
        QSignalSpy measured(c->checks(), &NumericChecks::quantizationChanged);
        panel->measure();
        QVERIFY(irscope::test::waitIdle(*c));
        QVERIFY(c->checks()->quantization());
        const QStringList keep = panel->keepInFloat();
        QCOMPARE(keep.size(), 3);
        QVERIFY2(keep[0].endsWith(QStringLiteral("(quantize_per_tensor_2)")), qPrintable(keep.join(" | ")));
        QVERIFY2(keep[1].endsWith(QStringLiteral("(quantize_per_tensor)")), qPrintable(keep.join(" | ")));
        QVERIFY2(keep[2].endsWith(QStringLiteral("(quantize_per_tensor_1)")), qPrintable(keep.join(" | ")));
        panel->chooseRow(0);
        QVERIFY(s->selectionModel()->selection().isNode());
        QCOMPARE(s->document()->graph.nodes[static_cast<size_t>(s->selectionModel()->selection().index)].name,
                 std::string("quantize_per_tensor_2"));
        QVERIFY(!c->checks()->quantization()->weights.empty());
        c->checks()->setOverlay(exec::OverlayKind::None);
        c->checks()->setReferenceChoice({});
        QVERIFY(irscope::test::waitIdle(*c));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_MAIN(TestQuantizationWindow)
#include "test_quantization_window.moc"
