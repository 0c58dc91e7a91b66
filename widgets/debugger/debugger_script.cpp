#include "widgets/debugger/debugger_script.h"

#include "core/ir/execution_position.h"

#include "widgets/debugger/remedy_text.h"

#include <cstdio>
#include <map>

#include <QComboBox>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QFileInfo>
#include <QTabWidget>
#include <QTimer>

#include "core/exec/numerics/error_metric_table.h"
#include "widgets/debugger/backend_panel.h"
#include "widgets/debugger/debugger_ui.h"
#include "widgets/debugger/quantization_panel.h"
#include "widgets/debugger/tensor_viewer.h"
#include "widgets/debugger/tensor_viewer_area.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/numeric_checks.h"

namespace irscope::widgets {

void addDebuggerOptions(QCommandLineParser& p) {
    p.addOption({QStringLiteral("weights"), QStringLiteral("Load the model's state_dict (.pt/.safetensors)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("constants"),
                 QStringLiteral("Load lifted constants / non-persistent buffers by original name."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("inputs"), QStringLiteral("Load graph inputs by name (default: random, seed 0)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("random-inputs"), QStringLiteral("Random inputs with this seed (as irscope run)."),
                 QStringLiteral("SEED")});
    p.addOption(
        {QStringLiteral("expected"), QStringLiteral("Load reference outputs by name."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("reference-intermediates"),
                 QStringLiteral("Load reference node outputs by tensor name."), QStringLiteral("FILE")});
    p.addOption({QStringLiteral("run"), QStringLiteral("Run to the end (or the first failure) once loaded.")});
    p.addOption({QStringLiteral("run-to"), QStringLiteral("Run until NODE has run."), QStringLiteral("NODE")});
    p.addOption({QStringLiteral("reference-weights"),
                 QStringLiteral("Measure against a second run with these weights (Differences dock)."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("reference-program"),
                 QStringLiteral("Measure against another program: the float model of a quantized one "
                                "(with --reference-weights for a pytorch-ir IR's state_dict)."),
                 QStringLiteral("FLOAT")});
    p.addOption({QStringLiteral("reference-dtype"),
                 QStringLiteral("Measure against a second run in float64, float16 or bfloat16."),
                 QStringLiteral("DTYPE")});
    p.addOption({QStringLiteral("local"), QStringLiteral("Local error: each node runs on the reference's inputs.")});
    p.addOption({QStringLiteral("break-on"),
                 QStringLiteral("Watch every node: nan, inf, diff, absmax=V (comma-separated)."),
                 QStringLiteral("COND")});
    p.addOption({QStringLiteral("node-data"), QStringLiteral("Import Model Explorer node data as the overlay."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("backend"),
                 QStringLiteral("Check a compiler backend first (the pip-installed irscope, in your PyTorch "
                                "environment), then open its report."),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("backend-report"),
                 QStringLiteral("Open a report of irscope check-backend or check-dump: groups coloured by verdict, "
                                "the first fault selected."),
                 QStringLiteral("FILE")});
    p.addOption({QStringLiteral("overlay"),
                 QStringLiteral("Colour nodes by time, maxabs, naninf, diff, maxrel, meanabs, mse, cosine, sqnr."),
                 QStringLiteral("KIND")});
    p.addOption({QStringLiteral("show-dock"),
                 QStringLiteral("Raise a debugger dock: weights, constants, inputs, differences, breakpoints, "
                                "quantization, backend."),
                 QStringLiteral("NAME")});
    p.addOption({QStringLiteral("viewer-tab"),
                 QStringLiteral("Tensor viewer tab: summary, values, histogram, heatmap, compare."),
                 QStringLiteral("TAB")});
}

namespace {

// The names --show-dock, --overlay and --viewer-tab take.
const QStringList kDockNames{QStringLiteral("weights"),     QStringLiteral("constants"),
                             QStringLiteral("inputs"),      QStringLiteral("differences"),
                             QStringLiteral("breakpoints"), QStringLiteral("quantization"),
                             QStringLiteral("backend")};
const QStringList kViewerTabs{QStringLiteral("summary"), QStringLiteral("values"), QStringLiteral("histogram"),
                              QStringLiteral("heatmap"), QStringLiteral("compare")};

std::map<QString, exec::OverlayKind> overlayKinds() {
    using K = exec::OverlayKind;
    std::map<QString, K> kinds{{QStringLiteral("none"), K::None},
                               {QStringLiteral("time"), K::Time},
                               {QStringLiteral("maxabs"), K::MaxAbs},
                               {QStringLiteral("naninf"), K::NanInf}};
    for (const auto& metric : exec::kErrorMetrics) kinds.emplace(QLatin1String(metric.option), metric.overlay);
    return kinds;
}

}  // namespace

QString debuggerOptionError(const QCommandLineParser& p) {
    const auto check = [&p](const char* option, const QStringList& names) -> QString {
        if (!p.isSet(QLatin1String(option))) return {};
        const QString v = p.value(QLatin1String(option)).toLower();
        if (names.contains(v)) return {};
        return QStringLiteral("--%1: '%2' is not one of %3")
            .arg(QLatin1String(option), p.value(QLatin1String(option)), names.join(QStringLiteral(", ")));
    };
    QStringList overlays;
    for (const auto& [name, kind] : overlayKinds()) overlays << name;
    for (const QString& why :
         {check("show-dock", kDockNames), check("overlay", overlays), check("viewer-tab", kViewerTabs)})
        if (!why.isEmpty()) return why;
    return {};
}

void runDebuggerScript(const QCommandLineParser& p, DebuggerUi& ui, const QString& select, std::function<void()> done) {
    DebugController* c = ui.controller;
    // A script has no one watching the message bar: file errors go to stderr too.
    QObject::connect(c, &DebugController::errorOccurred, c, [](const QString& message) {
        std::fprintf(stderr, "irscope: %s\n", message.toLocal8Bit().constData());
    });
    auto opt = [&p](const char* n) { return p.value(QLatin1String(n)); };
    // The backend check compiles with the user's PyTorch: the pip-installed
    // irscope's launcher runs it before this window starts (and passes
    // --backend-report instead); this program alone cannot.
    if (p.isSet(QStringLiteral("backend")))
        c->reportError(QStringLiteral("--backend %1: the backend is checked in your PyTorch environment by the "
                                      "pip-installed irscope (pip install irscope; irscope MODEL.pt2 --backend %1), "
                                      "or open a report of `irscope check-backend --report R.json` with "
                                      "--backend-report R.json")
                           .arg(opt("backend")));
    if (p.isSet(QStringLiteral("random-inputs"))) c->values()->setSeed(opt("random-inputs").toLongLong());
    const std::pair<const char*, exec::ValueFile> files[] = {
        {"weights", exec::ValueFile::Weights},
        {"constants", exec::ValueFile::Constants},
        {"inputs", exec::ValueFile::Inputs},
        {"expected", exec::ValueFile::Expected},
        {"reference-intermediates", exec::ValueFile::ReferenceIntermediates}};
    for (const auto& [option, file] : files)
        if (p.isSet(QLatin1String(option))) c->values()->load(file, opt(option));
    if (p.isSet(QStringLiteral("local"))) c->checks()->setErrorMode(exec::ErrorMode::Local);
    if (p.isSet(QStringLiteral("reference-program"))) {
        exec::ReferenceChoice choice;
        choice.kind = exec::ReferenceChoice::Kind::Program;
        choice.programPath = QFileInfo(opt("reference-program")).absoluteFilePath().toStdString();
        if (p.isSet(QStringLiteral("reference-weights")))
            choice.weightsPath = QFileInfo(opt("reference-weights")).absoluteFilePath().toStdString();
        c->checks()->setReferenceChoice(choice);
        // A quantized program against its float one: the Quantization dock
        // is where that answer is (unless --show-dock chose another).
        if (opt("show-dock").isEmpty())
            if (auto* quantization =
                    ui.weightsDock->window()->findChild<QDockWidget*>(QLatin1String(kQuantizationPanel.key)))
                quantization->raise();
    } else if (p.isSet(QStringLiteral("reference-weights")) || p.isSet(QStringLiteral("reference-dtype"))) {
        exec::ReferenceChoice choice;
        if (p.isSet(QStringLiteral("reference-weights"))) {
            choice.kind = exec::ReferenceChoice::Kind::Weights;
            choice.weightsPath = opt("reference-weights").toStdString();
        } else {
            choice.kind = exec::ReferenceChoice::Kind::Dtype;
            choice.dtype = opt("reference-dtype").toStdString();
        }
        c->checks()->setReferenceChoice(choice);
    }
    if (p.isSet(QStringLiteral("break-on"))) {
        std::string why;
        if (auto cond = exec::parseWatchCondition(opt("break-on").toStdString(), &why))
            c->checks()->setGlobalWatch(*cond);
        else
            std::fprintf(stderr, "irscope: --break-on: %s\n", why.c_str());
    }
    const QString tab = opt("viewer-tab").toLower();
    const std::map<QString, TensorTab> tabs{{QStringLiteral("summary"), TensorTab::Summary},
                                            {QStringLiteral("values"), TensorTab::Values},
                                            {QStringLiteral("histogram"), TensorTab::Histogram},
                                            {QStringLiteral("heatmap"), TensorTab::Heatmap},
                                            {QStringLiteral("compare"), TensorTab::Compare}};
    if (tabs.count(tab) && ui.tensors) ui.tensors->follower()->showTab(tabs.at(tab));
    const QString dock = opt("show-dock").toLower();
    if (!dock.isEmpty()) ui.weightsDock->window()->setProperty(kDockChosenProperty, true);
    if (dock == QLatin1String("constants"))
        ui.constantsDock->raise();
    else if (dock == QLatin1String("inputs"))
        ui.inputsDock->raise();
    else if (dock == QLatin1String("weights"))
        ui.weightsDock->raise();
    else if (dock == QLatin1String("differences") && ui.differencesDock)
        ui.differencesDock->raise();
    else if (dock == QLatin1String("breakpoints") && ui.breakpointsDock)
        ui.breakpointsDock->raise();
    else if (dock == QLatin1String("quantization"))
        if (auto* quantization =
                ui.weightsDock->window()->findChild<QDockWidget*>(QLatin1String(kQuantizationPanel.key)))
            quantization->raise();
    // A backend check's report: its dock comes forward (unless --show-dock chose another).
    if (dock.isEmpty() || dock == QLatin1String("backend"))
        if (p.isSet(QStringLiteral("backend-report")) || dock == QLatin1String("backend"))
            if (auto* backend = ui.weightsDock->window()->findChild<QDockWidget*>(QLatin1String(kBackendPanel.key)))
                backend->raise();

    // Wait for the loads (queued on the worker), then run, then finish.
    auto finish = [c, ui, select, done, &p] {
        const QString ov = p.value(QStringLiteral("overlay")).toLower();
        const auto kinds = overlayKinds();
        if (p.isSet(QStringLiteral("backend-report"))) {
            if (auto* backend = ui.weightsDock->window()->findChild<BackendPanel*>())
                backend->open(p.value(QStringLiteral("backend-report")));
        } else if (p.isSet(QStringLiteral("node-data"))) {
            c->checks()->importNodeData(p.value(QStringLiteral("node-data")));
        } else if (kinds.count(ov))
            c->checks()->setOverlay(kinds.at(ov));
        if (!c->values()->path(exec::ValueFile::Expected).isEmpty() ||
            !c->values()->path(exec::ValueFile::ReferenceIntermediates).isEmpty())
            c->checks()->findFirstDivergence();
        c->whenIdle(c, [c, select, done] {
            if (!select.isEmpty()) c->session()->selectionModel()->selectNodeByName(select, true);
            c->whenIdle(c, [done] {
                if (done) done();
            });
        });
    };
    const bool run = p.isSet(QStringLiteral("run"));
    const QString runTo = p.value(QStringLiteral("run-to"));
    // Each step starts when the one before it is done (whenIdle): the window
    // keeps answering throughout.
    c->whenIdle(c, [c, run, runTo, finish] {
        // Report what a run would lack, as `irscope run` does; parameters and
        // buffers waiting for a state_dict that was never given are one line.
        int awaiting = 0;
        for (const auto& m : c->values()->missing()) {
            if (m.awaitsStateDict)
                ++awaiting;
            else
                std::fprintf(stderr, "irscope: missing: %s\n", qPrintable(missingText(m)));
        }
        if (awaiting > 0)
            std::fprintf(stderr, "irscope: no state_dict loaded: %d parameter(s)/buffer(s) have no value\n", awaiting);
        if (!run && runTo.isEmpty()) return finish();
        if (!runTo.isEmpty()) {
            // A node, or a position inside a subgraph's call
            // (while_loop/while_loop_body_graph_0#2/add): through the op,
            // then that call, standing just after the node.
            const auto* doc = c->session()->document();
            std::string why;
            const auto position = ir::parsePosition(runTo.toStdString(), why);
            const auto at = position && doc ? ir::resolvePosition(doc->graph, *position, why) : std::nullopt;
            if (!at) {
                std::fprintf(stderr, "irscope: --run-to: %s\n", why.c_str());
            } else if (at->frames.empty()) {
                c->runToNode(at->node);
            } else {
                c->runToNode(at->frames.front().node);
                c->whenIdle(c, [c, at = *at, runTo, finish] {
                    c->standAt(at, runTo);
                    c->whenIdle(c, [c, finish] {
                        std::fprintf(stderr, "irscope: %s\n", qPrintable(c->lastStatus()));
                        finish();
                    });
                });
                return;  // finished above, once the call is entered
            }
        } else {
            c->continueRun();
        }
        c->whenIdle(c, [c, finish] {
            std::fprintf(stderr, "irscope: %s\n", qPrintable(c->lastStatus()));
            finish();
        });
    });
}

}  // namespace irscope::widgets
