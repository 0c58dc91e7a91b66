// DebugController's numerical checks: the reference the run is
// measured against, local or cumulative error, watchpoints, node data in and
// out. The rows measured arrive with every snapshot (debug_controller.cpp).
#include "widgets/session/debug_controller.h"

#include <limits>
#include <span>

#include <QRegularExpression>

#include "core/exec/repro/repro_extract.h"
#include "core/ir/file_replace.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/loaded_document.h"

namespace irscope::widgets {

std::map<int64_t, exec::WatchCondition> DebugController::watches() const {
    return dbg_ ? dbg_->watches() : std::map<int64_t, exec::WatchCondition>{};
}

exec::WatchCondition DebugController::globalWatch() const { return dbg_ ? dbg_->globalWatch() : globalWatch_; }

void DebugController::restoreChecks(exec::Debugger& d, const ChecksSettings& checks, std::vector<std::string>& errors) {
    if (checks.globalWatch.any()) d.setGlobalWatch(checks.globalWatch);
    if (checks.tolerance.userSet()) d.setTolerance(checks.tolerance);
    try {
        if (checks.mode != exec::ErrorMode::Cumulative) d.setErrorMode(checks.mode);
        if (checks.reference.isRun()) d.setReference(checks.reference);
    } catch (const std::exception& e) {
        errors.push_back(std::string("reference: ") + e.what());
        QMetaObject::invokeMethod(this, [this] {
            referenceChoice_ = {};
            emit checksChanged();
        });
    }
}

void DebugController::measureQuantization() {
    if (!dbg_) return;
    post({}, [this](exec::Debugger& d) -> Continuation {
        QString error;
        std::shared_ptr<const exec::QuantizationComparison> result;
        try {
            if (auto c = d.compareWithProgram()) {
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
            if (!error.isEmpty()) emit errorOccurred(error);
        };
    });
}

void DebugController::setReferenceChoice(const exec::ReferenceChoice& choice) {
    // The same again resets nothing (a weights file is read again: it may have changed on disk).
    if (!dbg_ || (choice == referenceChoice_ && choice.kind != exec::ReferenceChoice::Kind::Weights)) return;
    if (running_) dbg_->cancel();
    post({}, [this, choice](exec::Debugger& d) -> Continuation {
        QString error;
        try {
            d.setReference(choice);
        } catch (const std::exception& e) {
            error = q(e.what());
        }
        auto s = std::make_shared<Snapshot>(snapshot(d, false));
        return [this, s, error, choice] {
            if (error.isEmpty()) {
                referenceChoice_ = choice;
                lastFailed_ = false;
                quantization_.reset();  // measured against another reference
                emit quantizationChanged();
            }
            apply(std::move(*s));
            emit checksChanged();
            if (!error.isEmpty()) emit errorOccurred(error);
        };
    });
}

void DebugController::setErrorMode(exec::ErrorMode mode) {
    if (!dbg_ || mode == errorMode_) return;
    if (running_) dbg_->cancel();
    errorMode_ = mode;
    post({}, [this, mode](exec::Debugger& d) -> Continuation {
        d.setErrorMode(mode);
        auto s = std::make_shared<Snapshot>(snapshot(d, false));
        return [this, s] {
            lastFailed_ = false;
            apply(std::move(*s));
            emit checksChanged();
            lastStatus_ = errorMode_ == exec::ErrorMode::Local
                              ? tr("local error: each node will run on the reference's inputs")
                              : tr("cumulative error: each node runs on the run's own inputs");
            emit stopped(lastStatus_, false);
        };
    });
}

void DebugController::setWatch(qint64 node, const exec::WatchCondition& condition) {
    if (!dbg_ || node < 0 || node >= dbg_->nodeCount()) return;
    dbg_->setWatch(node, condition);  // thread-safe, also during a run
    emit watchesChanged();
}

void DebugController::setGlobalWatch(const exec::WatchCondition& condition) {
    globalWatch_ = condition;
    if (dbg_) dbg_->setGlobalWatch(condition);
    emit watchesChanged();
}

void DebugController::importNodeData(const QString& path) {
    post({}, [this, p = path.toStdString(), path](exec::Debugger& d) -> Continuation {
        QString error;
        try {
            d.importNodeData(p);
        } catch (const std::exception& e) {
            error = q(e.what());
        }
        return [this, error, path] {
            if (!error.isEmpty()) {
                emit errorOccurred(error);
                return;
            }
            importedPath_ = path;
            setOverlay(exec::OverlayKind::Imported);
        };
    });
}

// From the snapshot on the UI thread: asking the core would wait for the
// check's queue (or the node being run) while the window freezes.
void DebugController::exportNodeData(const QString& path, exec::NodeMetric metric, WriteDone done) {
    if (!dbg_ || !doc_) return done(tr("no model loaded"));
    const auto& graph = doc_->graph;
    std::vector<double> values;
    if (metric == exec::NodeMetric::TimeMs) {
        values.assign(graph.nodes.size(), std::numeric_limits<double>::quiet_NaN());
        for (size_t i = 0; i < nodeInfos_.size() && i < values.size(); ++i)
            if (nodeInfos_[i].state == exec::NodeState::Done) values[i] = nodeInfos_[i].seconds * 1e3;
    } else {
        values = exec::nodeMetricValues(std::span<const exec::OutputError>(errorRows_), graph.nodes.size(), metric);
    }
    const auto data = exec::nodeMetricData(graph, values, metric, dbg_->tolerance(), exec::nodeDataGraphId(graph));
    if (data.values.empty())
        return done(metric == exec::NodeMetric::TimeMs
                        ? tr("No node has run yet: nothing to export.")
                        : tr("No node has been measured against a reference yet: nothing to export."));
    // Made here (the rows are the UI thread's), written on the query lane.
    writeFile([p = path.toStdString(),
               json = exporter::nodeDataJson(data)](const exec::Debugger&) { ir::replaceFileContents(p, json); },
              std::move(done));
}

namespace {

// A path as a POSIX shell reads it back: bare when it is plain, else in single quotes.
QString shellWord(const QString& word) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./+=:,@%-]+$"));
    if (plain.match(word).hasMatch()) return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

}  // namespace

void DebugController::extract(std::vector<int64_t> nodes, const QString& path) {
    if (!dbg_ || running_) return;
    // The command that reruns the extract on this session's files, as
    // `irscope extract` prints it.
    QStringList rerun;
    const QString weights = this->path(exec::ValueFile::Weights), constants = this->path(exec::ValueFile::Constants);
    if (!weights.isEmpty()) rerun << QStringLiteral("--weights") << shellWord(weights);
    if (castWeights()) rerun << QStringLiteral("--cast-weights");
    if (!constants.isEmpty()) rerun << QStringLiteral("--constants") << shellWord(constants);
    post({},
         [this, nodes = std::move(nodes), p = path.toStdString(), rerun](exec::Debugger& d) mutable -> Continuation {
             QString error, message, command;
             try {
                 const exec::Extracted e = exec::extractRepro(d, std::move(nodes), p);
                 message = tr("extracted %1 nodes (%2 inputs, %3 outputs) to %4")
                               .arg(e.nodes)
                               .arg(e.inputs.size())
                               .arg(e.outputs.size())
                               .arg(q(e.irPath));
                 message += e.note.empty()
                                ? tr(" with the values at the cut: %1, %2").arg(q(e.inputsPath), q(e.expectedPath))
                                : QStringLiteral("; ") + q(e.note);
                 if (!e.inputsPath.empty() && !e.expectedPath.empty())
                     command = (QStringList{QStringLiteral("irscope run"), shellWord(q(e.irPath))} + rerun +
                                QStringList{QStringLiteral("--inputs"), shellWord(q(e.inputsPath)),
                                            QStringLiteral("--expected"), shellWord(q(e.expectedPath))})
                                   .join(QLatin1Char(' '));
             } catch (const std::exception& e) {
                 error = tr("Extract: %1").arg(q(e.what()));
             }
             auto s = std::make_shared<Snapshot>(snapshot(d, false));
             return [this, s, error, message, command] {
                 apply(std::move(*s));
                 emit progress(cursor_, nodeCount(), 0);  // it may have run up to the selection
                 if (!error.isEmpty()) {
                     emit errorOccurred(error);
                     return;
                 }
                 lastStatus_ = message;
                 emit stopped(message, false);
                 emit extracted(message, command);
             };
         });
}

}  // namespace irscope::widgets
