#include "widgets/session/numeric_checks.h"

#include <limits>
#include <span>

#include "core/exec/numerics/node_metric.h"
#include "core/ir/file_replace.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/tensor_queries.h"

namespace irscope::widgets {

using Continuation = DebugController::Continuation;

NumericChecks::NumericChecks(DebugController& controller) : QObject(&controller), c_(controller) {}

bool NumericChecks::checking() const { return c_.debugger() && c_.debugger()->checks().checking(); }

std::map<int64_t, exec::WatchCondition> NumericChecks::watches() const {
    return c_.debugger() ? c_.debugger()->checks().watches() : std::map<int64_t, exec::WatchCondition>{};
}

exec::WatchCondition NumericChecks::globalWatch() const {
    return c_.debugger() ? c_.debugger()->checks().globalWatch() : globalWatch_;
}

void NumericChecks::restore(exec::Debugger& d, const Settings& checks, std::vector<std::string>& errors) {
    if (checks.globalWatch.any()) d.checks().setGlobalWatch(checks.globalWatch);
    if (checks.tolerance.userSet()) d.checks().setTolerance(checks.tolerance);
    try {
        if (checks.mode != exec::ErrorMode::Cumulative) d.checks().setErrorMode(checks.mode);
        if (checks.reference.isRun()) d.checks().setReference(checks.reference);
    } catch (const std::exception& e) {
        errors.push_back(std::string("reference: ") + e.what());
        QMetaObject::invokeMethod(this, [this] {
            referenceChoice_ = {};
            emit checksChanged();
        });
    }
}

void NumericChecks::documentChanged(bool anotherModel) {
    overlayValues_.clear();
    divergence_ = {};
    errorRows_.clear();
    ++errorRowsGeneration_;
    importedPath_.clear();
    quantization_.reset();
    if (!anotherModel) return;
    // Another model: the Differences source (a second run with the old
    // weights, the old model's float program), the error mode, the watch and
    // the overlay were set up for the old one.
    const bool checksWereSet =
        referenceChoice_ != exec::ReferenceChoice{} || errorMode_ != exec::ErrorMode::Cumulative || globalWatch_.any();
    referenceChoice_ = {};
    errorMode_ = exec::ErrorMode::Cumulative;
    globalWatch_ = {};
    if (checksWereSet) emit checksChanged();
    if (overlayKind_ != exec::OverlayKind::None) {
        overlayKind_ = exec::OverlayKind::None;
        emit overlayChanged();
    }
}

void NumericChecks::takeRows(std::vector<exec::OutputError> rows, bool restart) {
    if (restart) {
        errorRows_.clear();
        ++errorRowsGeneration_;
    }
    errorRows_.insert(errorRows_.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
    if (restart || !rows.empty()) emit errorRowsChanged();
    if (overlayKind_ != exec::OverlayKind::None) setOverlay(overlayKind_);
}

void NumericChecks::measureQuantization() {
    if (!c_.debugger()) return;
    c_.post({}, [this](exec::Debugger& d) -> Continuation {
        QString error;
        std::shared_ptr<const exec::QuantizationComparison> result;
        try {
            if (auto c = d.checks().compareWithProgram()) {
                if (!c->problem.empty())
                    error = q(c->problem);
                else
                    result = std::make_shared<const exec::QuantizationComparison>(std::move(*c));
            } else {
                error = tr("Choose the float program as the reference first (Differences dock: Another program)");
            }
        } catch (const std::exception& e) {
            error = q(e.what());
        }
        return [this, result, error] {
            quantization_ = result;
            emit quantizationChanged();
            if (!error.isEmpty()) c_.reportError(error);
        };
    });
}

void NumericChecks::setReferenceChoice(const exec::ReferenceChoice& choice) {
    // The same again resets nothing (a weights file is read again: it may have changed on disk).
    if (!c_.debugger() || (choice == referenceChoice_ && choice.kind != exec::ReferenceChoice::Kind::Weights)) return;
    if (c_.isRunning()) c_.callLive([](exec::Debugger& d) { d.cancel(); });
    c_.post({}, [this, choice](exec::Debugger& d) -> Continuation {
        QString error;
        try {
            d.checks().setReference(choice);
        } catch (const std::exception& e) {
            error = q(e.what());
        }
        auto s = std::make_shared<DebugController::Snapshot>(c_.snapshot(d, false));
        return [this, s, error, choice] {
            if (error.isEmpty()) {
                referenceChoice_ = choice;
                c_.clearFailure();
                quantization_.reset();  // measured against another reference
                emit quantizationChanged();
            }
            c_.apply(std::move(*s));
            emit checksChanged();
            if (!error.isEmpty()) c_.reportError(error);
        };
    });
}

void NumericChecks::setErrorMode(exec::ErrorMode mode) {
    if (!c_.debugger() || mode == errorMode_) return;
    if (c_.isRunning()) c_.callLive([](exec::Debugger& d) { d.cancel(); });
    errorMode_ = mode;
    c_.post({}, [this, mode](exec::Debugger& d) -> Continuation {
        d.checks().setErrorMode(mode);
        auto s = std::make_shared<DebugController::Snapshot>(c_.snapshot(d, false));
        return [this, s] {
            c_.clearFailure();
            c_.apply(std::move(*s));
            emit checksChanged();
            c_.reportStopped(errorMode_ == exec::ErrorMode::Local
                                 ? tr("local error: each node will run on the reference's inputs")
                                 : tr("cumulative error: each node runs on the run's own inputs"),
                             false);
        };
    });
}

void NumericChecks::setTolerance(std::optional<double> rtol, std::optional<double> atol) {
    const exec::Tolerance t{rtol, atol};
    if (t.rtol == tolerance_.rtol && t.atol == tolerance_.atol) return;
    tolerance_ = t;
    emit checksChanged();
    // The verdicts are measured again (and a local run starts over): the rows come with the snapshot.
    if (c_.debugger()) c_.postChange([t](exec::Debugger& d) { d.checks().setTolerance(t); });
}

void NumericChecks::setWatch(qint64 node, const exec::WatchCondition& condition) {
    if (!c_.debugger() || node < 0 || node >= c_.debugger()->nodeCount()) return;
    c_.callLive([node, condition](exec::Debugger& d) {
        d.checks().setWatch(node, condition);
    });  // thread-safe, also during a run
    emit watchesChanged();
}

void NumericChecks::setGlobalWatch(const exec::WatchCondition& condition) {
    globalWatch_ = condition;
    c_.callLive([condition](exec::Debugger& d) { d.checks().setGlobalWatch(condition); });
    emit watchesChanged();
}

void NumericChecks::setOverlay(exec::OverlayKind kind) {
    overlayKind_ = kind;
    if (kind == exec::OverlayKind::None) {
        overlayValues_.clear();
        c_.announceSnapshot();
        emit overlayChanged();
        return;
    }
    c_.post(QStringLiteral("overlay"), [this, kind](exec::Debugger& d) -> Continuation {
        auto v = std::make_shared<std::vector<double>>(d.checks().overlay(kind));
        return [this, kind, v] {
            if (kind != overlayKind_) return;
            overlayValues_ = std::move(*v);
            c_.announceSnapshot();
            emit overlayChanged();
        };
    });
}

// Computes the first divergence on the run lane; `thenGoThere`: select its node and show its tensor.
void NumericChecks::postDivergence(bool thenGoThere) {
    c_.post(QStringLiteral("divergence"), [this, thenGoThere](exec::Debugger& d) -> Continuation {
        auto info = std::make_shared<exec::DivergenceInfo>(d.checks().firstDivergence(thenGoThere));
        return [this, info, thenGoThere] {
            divergence_ = std::move(*info);
            emit divergenceChanged();
            // Asked for (Ctrl+D): answered even when nothing diverges.
            if (thenGoThere) emit divergenceAnswered(q(divergence_.message), divergence_.found);
            if (thenGoThere && divergence_.found) {
                c_.session()->selectionModel()->select(ItemRef::node(divergence_.node, q(divergence_.nodeName)), true);
                c_.tensors()->showTensor(q(divergence_.tensor));
            }
        };
    });
}

void NumericChecks::findFirstDivergence() { postDivergence(false); }
void NumericChecks::goToFirstDivergence() { postDivergence(true); }

void NumericChecks::importNodeData(const QString& path) {
    c_.post({}, [this, p = path.toStdString(), path](exec::Debugger& d) -> Continuation {
        QString error;
        try {
            d.checks().importNodeData(p);
        } catch (const std::exception& e) {
            error = q(e.what());
        }
        return [this, error, path] {
            if (!error.isEmpty()) {
                c_.reportError(error);
                return;
            }
            importedPath_ = path;
            setOverlay(exec::OverlayKind::Imported);
        };
    });
}

// From the snapshot on the UI thread: asking the core would wait for the
// check's queue (or the node being run) while the window freezes.
void NumericChecks::exportNodeData(const QString& path, exec::NodeMetric metric,
                                   std::function<void(const QString&)> done) {
    if (!c_.debugger() || !c_.document()) return done(tr("no model loaded"));
    const auto& graph = c_.document()->graph;
    const auto& infos = c_.nodeInfos();
    std::vector<double> values;
    if (metric == exec::NodeMetric::TimeMs) {
        values.assign(graph.nodes.size(), std::numeric_limits<double>::quiet_NaN());
        for (size_t i = 0; i < infos.size() && i < values.size(); ++i)
            if (infos[i].state == exec::NodeState::Done) values[i] = infos[i].seconds * 1e3;
    } else {
        values = exec::nodeMetricValues(std::span<const exec::OutputError>(errorRows_), graph.nodes.size(), metric);
    }
    const auto data =
        exec::nodeMetricData(graph, values, metric, c_.debugger()->checks().tolerance(), exec::nodeDataGraphId(graph));
    if (data.values.empty())
        return done(metric == exec::NodeMetric::TimeMs
                        ? tr("No node has run yet: nothing to export.")
                        : tr("No node has been measured against a reference yet: nothing to export."));
    // Made here (the rows are the UI thread's), written on the query lane.
    c_.writeFile([p = path.toStdString(),
                  json = exporter::nodeDataJson(data)](const exec::Debugger&) { ir::replaceFileContents(p, json); },
                 std::move(done));
}

}  // namespace irscope::widgets
