#include "widgets/session/debug_controller.h"

#include <algorithm>
#include <unordered_map>

#include "core/exec/numerics/local_verdict.h"
#include "core/ir/archive_path.h"
#include "core/modules/module_tree.h"

#include <QFileInfo>
#include <QTimer>

#include "widgets/common/document_path.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/debug_values.h"
#include "widgets/session/engine_start.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/numeric_checks.h"
#include "widgets/session/off_thread_release.h"
#include "widgets/session/task_queue.h"
#include "widgets/session/tensor_queries.h"

namespace irscope::widgets {

namespace {
QString engineDidNotLoad(const QString& why) {
    return DebugController::tr("The program cannot run here: the execution engine did not load (%1)").arg(why);
}
}  // namespace

DebugController::DebugController(GraphSession* session, QObject* parent)
    : QObject(parent),
      session_(session),
      checks_(new NumericChecks(*this)),
      values_(new DebugValues(*this)),
      tensors_(new TensorQueries(*this)),
      runLane_(new TaskQueue(QThread::InheritPriority, this)),
      queryLane_(new TaskQueue(QThread::InheritPriority, this)),
      tick_(new QTimer(this)) {
    connect(runLane_, &TaskQueue::busyChanged, this, &DebugController::noteIfIdle);
    connect(queryLane_, &TaskQueue::busyChanged, this, &DebugController::noteIfIdle);
    connect(this, &DebugController::runStateChanged, this, &DebugController::noteIfIdle);
    connect(runLane_, &TaskQueue::failed, this, &DebugController::errorOccurred);
    connect(queryLane_, &TaskQueue::failed, this, &DebugController::errorOccurred);
    tick_->setInterval(100);
    connect(tick_, &QTimer::timeout, this, &DebugController::onTick);
    connect(session_, &GraphSession::graphLoaded, this, &DebugController::onGraphLoaded);
    connect(session_->selectionModel(), &GraphSelection::selectionChanged, this, [this](const ItemRef& ref) {
        const QString t = tensors_->tensorOf(ref);
        if (!t.isEmpty()) tensors_->showTensor(t);
    });
    // A 100,000-node graph's execution plan takes a while: it is made on the
    // load worker with the document, not on the UI thread when it is shown.
    session_->setPreparation([](const std::shared_ptr<const LoadedDocument>& doc) -> std::shared_ptr<void> {
        if (!EngineStart::instance().isReady()) return nullptr;  // made once it is (onEngineReady)
        return makeReleasedOffThread(new exec::Debugger(doc->graph), doc);
    });
    // A document whose load began before the engine was in has no prepared
    // debugger, whenever the engine came: its debugger is made on the run lane.
    loadBeganBeforeEngine_ = !EngineStart::instance().isReady();  // a load the app began before this existed
    connect(session_, &GraphSession::loadStarted, this,
            [this] { loadBeganBeforeEngine_ = !EngineStart::instance().isReady(); });
    connect(&EngineStart::instance(), &EngineStart::ready, this, &DebugController::onEngineReady);
    connect(&EngineStart::instance(), &EngineStart::failed, this, [this](const QString& why) {
        awaitingEngine_ = false;
        emit errorOccurred(engineDidNotLoad(why));
    });
    if (session_->hasDocument()) onGraphLoaded();
}

DebugController::~DebugController() {
    // The lanes' jobs read dbg_: they must be done before it goes.
    if (dbg_) dbg_->cancel();
    // Their jobs use this object too: the lanes go (dropping what waits and
    // finishing what runs) before its members do.
    delete runLane_;
    delete queryLane_;
}

int64_t DebugController::nodeCount() const { return dbg_ ? dbg_->nodeCount() : 0; }

QStringList DebugController::unsavedWork() const {
    // "mask", "a, b, c, d, e, …": names enough to recognise them.
    const auto names = [](const QStringList& all) {
        return all.mid(0, 5).join(QStringLiteral(", ")) + (all.size() > 5 ? QStringLiteral(", …") : QString());
    };
    QStringList lines;
    const QStringList typed = values_->enteredConstants();
    if (values_->constantsUnsaved())
        lines << (typed.size() == 1 ? tr("1 typed constant not saved to a file: %1")
                                    : tr("%1 typed constants not saved to a file: %2").arg(typed.size()))
                     .arg(names(typed));
    if (!overridden_.isEmpty())
        lines
            << (overridden_.size() == 1
                    ? tr("1 edited tensor value (edit and continue; no file keeps it): %1")
                    : tr("%1 edited tensor values (edit and continue; no file keeps them): %2").arg(overridden_.size()))
                   .arg(names(overridden_));
    return lines;
}

bool DebugController::isIdle() const { return !runLane_->isBusy() && !running_ && !queryLane_->isBusy(); }

void DebugController::noteIfIdle() {
    if (isIdle()) emit becameIdle();
}

void DebugController::whenIdle(QObject* context, std::function<void()> then) {
    if (isIdle()) {
        QTimer::singleShot(0, context, std::move(then));
        return;
    }
    // Once: the next time both lanes are empty and no run goes on.
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(this, &DebugController::becameIdle, context, [connection, then = std::move(then)] {
        QObject::disconnect(*connection);
        then();
    });
}

// ------------------------------------------------------------------ lanes

void DebugController::post(const QString& tag, RunJob job) {
    if (!dbg_) return;
    // The job holds the debugger: a document replaced while it runs does not
    // wait for it, and the old debugger goes with the last job that used it.
    runLane_->post(tag, this, [d = dbg_, job = std::move(job)](const TaskQueue::Context&) { return job(*d); });
}

void DebugController::postWithProgress(const QString& tag, ProgressJob job) {
    if (!dbg_) return;
    runLane_->post(tag, this, [d = dbg_, job = std::move(job)](const TaskQueue::Context& ctx) { return job(*d, ctx); });
}

void DebugController::callLive(const std::function<void(exec::Debugger&)>& call) {
    if (dbg_) call(*dbg_);
}

void DebugController::reportError(const QString& message) { emit errorOccurred(message); }

void DebugController::reportStopped(const QString& status, bool failed) {
    lastStatus_ = status;
    lastFailed_ = failed;
    emit stopped(status, failed);
}

void DebugController::announceSnapshot() { emit snapshotChanged(); }

void DebugController::postChange(std::function<void(exec::Debugger&)> change, const QString& tag) {
    post(tag, [this, change = std::move(change)](exec::Debugger& d) -> Continuation {
        change(d);
        auto s = std::make_shared<Snapshot>(snapshot(d, true));
        return [this, s] { apply(std::move(*s)); };
    });
}

DebugController::Snapshot DebugController::snapshot(exec::Debugger& d, bool rows) {
    Snapshot s;
    if (rowsSent_.debugger != &d) rowsSent_ = {.debugger = &d};  // a new document's debugger: nothing sent yet
    uint64_t epoch = rowsSent_.epoch;
    s.newErrorRows = d.checks().errorRows(rowsSent_.count, epoch);
    s.rowsRestart = epoch != rowsSent_.epoch;
    rowsSent_.count = (s.rowsRestart ? 0 : rowsSent_.count) + s.newErrorRows.size();
    rowsSent_.epoch = epoch;
    s.rows = rows;
    if (rows) {
        // 70,000 rows of names: freed off the UI thread when the last view lets go.
        s.weightRows = makeReleasedOffThread<const std::vector<exec::WeightRow>>(
            new const std::vector<exec::WeightRow>(d.values().weightRows()));
        s.inputRows = d.values().inputRows();
        s.missing = d.values().missing();
    }
    s.nodeInfos = d.nodeInfos();
    s.cursor = d.cursor();
    s.frames = d.frames().stack();
    if (!s.frames.empty()) s.frameCalls = d.frames().innermostCalls();
    s.callCounts = d.frames().callCounts();
    s.bytes = d.bytesHeld();
    return s;
}

void DebugController::apply(Snapshot s) {
    if (s.rows) values_->takeRows(std::move(s.weightRows), std::move(s.inputRows), std::move(s.missing));
    nodeInfos_ = std::move(s.nodeInfos);
    cursor_ = s.cursor;
    frames_ = std::move(s.frames);
    frameCalls_ = std::move(s.frameCalls);
    callCounts_ = std::move(s.callCounts);
    if (bytesHeld_ != s.bytes) {
        bytesHeld_ = s.bytes;
        emit bytesHeldChanged(static_cast<qint64>(bytesHeld_));
    }
    emit snapshotChanged();
    if (s.rows) emit values_->valuesChanged();
    emit nodeStatesChanged();
    checks_->takeRows(std::move(s.newErrorRows), s.rowsRestart);
}

// ------------------------------------------------------------------ documents

void DebugController::onGraphLoaded() {
    // Nothing about the old document reaches the panels: what either lane
    // still has for it is dropped (a job not started never runs; a running
    // one's answer is thrown away) and a run is cancelled. Nothing waits for
    // them: each job holds the old debugger (and its document) and the last
    // one to finish frees it, on its worker.
    if (dbg_) dbg_->cancel();
    queryLane_->dropAll();
    runLane_->dropAll();
    // The user's value sources carry over to the same model (a reload, a new
    // export of it, its meta twin: ir/same_model.h); another model starts clean.
    exec::ValueSettings settings = dbg_ ? dbg_->values().settings() : exec::ValueSettings{};
    const std::shared_ptr<const LoadedDocument> before = doc_;
    // Breakpoints go by node name: a reload or a new export of the same model
    // keeps those whose node is still there (Visual Studio keeps a
    // breakpoint while its line exists).
    std::vector<std::pair<std::string, QString>> breakpoints;  // node name, module it was set on ("" : the node)
    if (dbg_ && before)
        for (const int64_t node : dbg_->breakpoints())
            breakpoints.emplace_back(before->graph.nodes[static_cast<size_t>(node)].name, moduleEntries_.value(node));
    tick_->stop();
    dbg_.reset();
    doc_ = session_->documentPtr();
    clearSnapshot();
    moduleEntries_.clear();
    const bool sameModel = before && doc_ && session_->sameModelAsBefore();
    // Another model: nothing the user set up for the old one applies
    // (GraphSession::sameModelAsBefore is the rule): the value files here,
    // the checks' reference, error mode, watch and overlay there; the
    // tolerance is the user's, not the document's.
    if (!sameModel) settings = {};
    checks_->documentChanged(!sameModel);
    if (!doc_) {  // closed: every panel drops what it showed of the old run
        emit debuggerReset();
        emit nodeStatesChanged();
        return;
    }
    carried_ = {std::move(settings), std::move(breakpoints), before, sameModel};
    // Built on the load worker (the session's preparation, below) unless the
    // document was installed directly or came before the engine.
    auto prepared = std::static_pointer_cast<exec::Debugger>(session_->takePrepared());
    const bool madeOnTheLane = !prepared && std::exchange(loadBeganBeforeEngine_, false);
    if (EngineStart::instance().isReady() && !madeOnTheLane) {
        attachDebugger(std::move(prepared));
        return;
    }
    // An engine that could not load never will: this document is drawn, not run.
    if (const QString why = EngineStart::instance().failure(); !why.isEmpty()) {
        emit errorOccurred(engineDidNotLoad(why));
        return;
    }
    // The window's first document, drawn before the engine is in: its
    // debugger follows once it is (onEngineReady), or now if it just came.
    awaitingEngine_ = true;
    emit waitingForEngine();
    if (EngineStart::instance().isReady()) onEngineReady();
}

void DebugController::onEngineReady() {
    if (!std::exchange(awaitingEngine_, false) || !doc_) return;
    // Made off the UI thread, as the session's preparation would have (a
    // 100,000-node graph's execution plan takes a while). A document opened
    // meanwhile drops this job (onGraphLoaded).
    runLane_->post({}, this, [this, doc = doc_, retention = retention_](const TaskQueue::Context&) -> Continuation {
        auto made = makeReleasedOffThread(new exec::Debugger(doc->graph, retention), doc);
        return [this, made = std::move(made), doc] {
            if (doc == doc_) attachDebugger(made);
        };
    });
}

void DebugController::attachDebugger(std::shared_ptr<exec::Debugger> prepared) {
    auto [settings, breakpoints, before, sameModel] = std::move(carried_);
    carried_ = {};
    const bool samePath = before && canonicalDocumentPath(before->path) == canonicalDocumentPath(doc_->path);
    // A torch.export archive brings its own weights, constants and example
    // inputs: what another archive brought does not carry over to it (a
    // state_dict or inputs file the user loaded does).
    if (!doc_->graph.archiveProgram.empty())
        std::erase_if(settings.files, [](const auto& f) {
            return (f.first == exec::ValueFile::Weights || f.first == exec::ValueFile::Inputs) &&
                   ir::isArchivePath(f.second);
        });
    // It keeps the document alive, and goes off the UI thread.
    if (prepared && &prepared->graph() == &doc_->graph)
        dbg_ = std::move(prepared);
    else
        dbg_ = makeReleasedOffThread(new exec::Debugger(doc_->graph, retention_), doc_);
    if (dbg_->retention() != retention_) setRetention(retention_);
    frames_.clear();
    callCounts_.clear();
    frameCalls_.clear();
    subgraphBreakpoints_.clear();  // they name another graph's subgraphs
    if (sameModel && !breakpoints.empty()) {
        std::unordered_map<std::string_view, int64_t> byName;
        for (size_t i = 0; i < doc_->graph.nodes.size(); ++i) byName.emplace(doc_->graph.nodes[i].name, int64_t(i));
        for (const auto& [name, module] : breakpoints)
            if (auto it = byName.find(name); it != byName.end()) {
                dbg_->setBreakpoint(it->second, true);
                if (!module.isEmpty()) moduleEntries_.insert(it->second, module);
            }
    }
    emit debuggerReset();
    restoreSettings(settings);
    // A torch.export archive carries its weights and constants: they load
    // with it, unless the user's own state_dict carried over.
    const bool archive = !doc_->graph.archiveProgram.empty();
    const bool weightsGiven = std::any_of(settings.files.begin(), settings.files.end(),
                                          [](const auto& f) { return f.first == exec::ValueFile::Weights; });
    const bool inputsGiven = std::any_of(settings.files.begin(), settings.files.end(),
                                         [](const auto& f) { return f.first == exec::ValueFile::Inputs; });
    // ...unless the archive is damaged (a weight file or its config gone):
    // then that is what the window says, not that a state_dict is missing.
    const auto damage = std::find_if(doc_->graph.loadDiagnostics.begin(), doc_->graph.loadDiagnostics.end(),
                                     [](const ir::Diagnostic& d) { return d.code == "pt2-damaged"; });
    if (archive && !weightsGiven && damage != doc_->graph.loadDiagnostics.end()) {
        emit errorOccurred(tr("%1: %2. Load its weights from another file (Weights dock) to run it.")
                               .arg(QFileInfo(doc_->path).fileName(), QString::fromStdString(damage->message)));
    } else if (archive && !weightsGiven) {
        values_->loadWeights(doc_->path);
        // ...and the example inputs it was exported with, when it stored them.
        const bool inputs = !inputsGiven && doc_->graph.fileHoldsExampleInputs;
        if (inputs) values_->load(exec::ValueFile::Inputs, doc_->path);
        // Said once they are in, not before: until then the status bar says
        // what is missing, and a weights file that fails says why instead.
        const QString said = (inputs ? tr("Weights, constants and example inputs from the archive %1")
                                     : tr("Weights and constants from the archive %1"))
                                 .arg(QFileInfo(doc_->path).fileName());
        auto connection = std::make_shared<QMetaObject::Connection>();
        *connection =
            connect(values_, &DebugValues::valuesLoadChanged, this, [this, connection, said, dbg = dbg_.get()] {
                if (values_->isLoadingValues()) return;
                disconnect(*connection);
                const auto& missing = values_->missing();
                const bool stillAwaited = std::any_of(missing.begin(), missing.end(),
                                                      [](const exec::MissingRow& m) { return m.awaitsStateDict; });
                if (dbg_.get() == dbg && !stillAwaited) emit notice(said);
            });
    }
    // Says what did carry over ("weights, expected"), and nothing when
    // nothing did (an archive's own data replaced another archive's).
    QStringList kept;
    for (const exec::ValueFile kind : exec::kValueFiles)
        if (std::any_of(settings.files.begin(), settings.files.end(),
                        [kind](const auto& f) { return f.first == kind; }))
            kept << QString::fromLatin1(exec::valueFileName(kind));
    if (!settings.entered.empty()) kept << tr("typed constants");
    if (sameModel && !samePath && !kept.isEmpty())
        emit notice(tr("Kept the files loaded for %1 (%2): %3 is the same model")
                        .arg(QFileInfo(before->path).fileName(), kept.join(QStringLiteral(", ")),
                             QFileInfo(doc_->path).fileName()));
}

void DebugController::clearSnapshot() {
    running_ = false;
    values_->documentChanged();
    nodeInfos_.clear();
    cursor_ = 0;
    lastStatus_.clear();
    lastFailed_ = false;
    tensors_->clearFocus();
    overridden_.clear();
}

// Applies `settings` (the previous document's) to the new debugger, then
// takes the first snapshot; what no longer applies is reported.
void DebugController::restoreSettings(exec::ValueSettings settings) {
    const NumericChecks::Settings checks = checks_->settings();  // read here, on the UI thread
    post({}, [this, settings = std::move(settings), checks](exec::Debugger& d) -> Continuation {
        const bool any = !settings.files.empty() || !settings.entered.empty() || !settings.inputSources.empty() ||
                         settings.seed != 0;
        std::vector<std::string> errors;
        if (any) errors = d.values().restore(settings);
        checks_->restore(d, checks, errors);
        auto s = std::make_shared<Snapshot>(snapshot(d, true));
        return [this, s, errors] {
            apply(std::move(*s));
            for (const auto& e : errors) emit errorOccurred(q(e));
        };
    });
}

// ------------------------------------------------------------------ values

void DebugController::writeFile(std::function<void(const exec::Debugger&)> write, WriteDone done) {
    if (!dbg_) {
        if (done) done(tr("no graph loaded"));
        return;
    }
    // The query lane: a write reads what the debugger holds under its lock
    // and never waits for a run; the UI thread never waits for the disk.
    queryLane_->post({}, this,
                     [d = std::shared_ptr<const exec::Debugger>(dbg_), write = std::move(write),
                      done = std::move(done)](const TaskQueue::Context&) {
                         QString error;
                         try {
                             write(*d);
                         } catch (const std::exception& e) {
                             error = QString::fromStdString(e.what());
                         }
                         return Continuation([done, error] {
                             if (done) done(error);
                         });
                     });
}

void DebugController::setRetention(exec::RetentionPolicy policy) {
    retention_ = policy;
    post({}, [policy](exec::Debugger& d) -> Continuation {
        d.setRetention(policy);
        return {};
    });
}

// ------------------------------------------------------------------ running

void DebugController::postRun(std::function<exec::RunStatus(exec::Debugger&)> run) {
    if (!dbg_ || running_) return;
    running_ = true;
    elapsed_.start();
    tick_->start();
    emit runStateChanged(true);
    emit progress(dbg_->nodesDone(), dbg_->nodeCount(), 0);
    // The value rows are sent again when a run fails or follows a failed one:
    // a program's own check refusing its inputs marks them in the Inputs dock.
    post({}, [this, run, afterFailure = lastFailed_](exec::Debugger& d) -> Continuation {
        exec::RunStatus st = run(d);
        auto s = std::make_shared<Snapshot>(snapshot(d, st.failed || afterFailure));
        const std::string referenceFailure = d.checks().referenceFailure();
        const std::vector<std::string> overridden = d.overrides().overriddenTensors();
        // Every node ran (Continue, or the last F10): the run has a verdict.
        const bool atEnd = !st.failed && d.finished();
        const std::string expected = atEnd ? d.checks().expectedOutputsVerdict() : "";
        return [this, s, st, referenceFailure, overridden, expected, atEnd] {
            overridden_.clear();
            for (const auto& o : overridden) overridden_ << QString::fromStdString(o);
            running_ = false;
            tick_->stop();
            lastFailed_ = st.failed;
            lastStatus_ = QString::fromStdString(st.message);
            apply(std::move(*s));
            // A finished run measured against expected outputs or a reference says how it went.
            verdict_.clear();
            if (atEnd && dbg_)
                verdict_ = QString::fromStdString(
                    checks_->errorMode() == exec::ErrorMode::Local ? exec::describeLocalVerdict(checks_->errorRows())
                    : checks_->referenceChoice().kind == exec::ReferenceChoice::Kind::Program
                        ? exec::describeQuantizedVerdict(dbg_->graph(), checks_->errorRows())
                        : exec::describeVerdict(dbg_->graph(), checks_->errorRows()));
            // Against a second run (another dtype, other weights) with expected
            // outputs loaded: whether the run is right is the expected outputs'
            // word, as in `irscope run`; the second run says how far it moves.
            if (!expected.empty())
                verdict_ = QString::fromStdString(expected) +
                           (verdict_.isEmpty()
                                ? QString()
                                : QStringLiteral("; against %1: %2")
                                      .arg(QString::fromStdString(exec::describeReference(checks_->referenceChoice())),
                                           verdict_));
            if (!verdict_.isEmpty()) lastStatus_ += QStringLiteral(" — ") + verdict_;
            // The reference's own failure switched it off; the run is not failed by it.
            if (!referenceFailure.empty())
                lastStatus_ += QStringLiteral(" — reference switched off: ") + QString::fromStdString(referenceFailure);
            emit progress(cursor_, nodeCount(), elapsed_.elapsed() / 1000.0);
            // A first divergence shown from before this run ("nothing compared
            // yet") is measured again on what has run now: once a Continue or
            // a run-to stops, or the last step ends the run, not after every
            // F10 (each is a pass over the rows measured so far).
            if (!checks_->divergence().message.empty() && (st.reason != exec::StopReason::Stepped || atEnd))
                checks_->findFirstDivergence();
            emit runStateChanged(false);
            emit stopped(lastStatus_, st.failed);
            if (st.reason == exec::StopReason::MissingValue && st.missing)
                emit stoppedForMissingValue(QString::fromStdString(st.missing->name),
                                            QString::fromStdString(st.missing->kind));
            // A watchpoint fired on the node that just ran: show it, not the next one.
            if (st.reason == exec::StopReason::Watchpoint && st.lastNode >= 0) {
                session_->selectionModel()->select(ItemRef::node(st.lastNode), true);
                tensors_->showTensor(tensors_->tensorOf(ItemRef::node(st.lastNode)));
            }
        };
    });
}

void DebugController::onTick() {
    if (!dbg_ || !running_) return;
    const int64_t c = dbg_->cursor();
    emit progress(dbg_->nodesDone(), dbg_->nodeCount(), elapsed_.elapsed() / 1000.0);
    // Cheap live states: everything before the cursor ran.
    if (c != cursor_ && c <= (int64_t)nodeInfos_.size()) {
        for (int64_t i = cursor_; i < c; ++i) {
            nodeInfos_[i].state = exec::NodeState::Done;
            nodeInfos_[i].current = false;
        }
        if (c < (int64_t)nodeInfos_.size()) nodeInfos_[c].current = true;
        cursor_ = c;
        emit snapshotChanged();
        emit nodeStatesChanged();
    }
}

void DebugController::step() {
    postRun([](exec::Debugger& d) { return d.step(); });
}
void DebugController::stepOver() {
    if (!frames_.empty()) return step();  // inside a subgraph: its next node
    const int64_t box = cursor_ < nodeCount() ? session_->closedModuleOf(cursor_) : -1;
    if (box > 0)
        runToNode(session_->moduleTree()->module(static_cast<modules::ModuleId>(box)).lastNode);
    else
        step();
}
void DebugController::stepInto() {
    // A cond, a loop, a region: run it and stand before its first subgraph node.
    const auto* doc = session_->document();
    if (!frames_.empty() || (doc && cursor_ < static_cast<int64_t>(doc->graph.nodes.size()) &&
                             !doc->graph.nodes[static_cast<size_t>(cursor_)].subgraphs.empty())) {
        postRun([](exec::Debugger& d) { return d.frames().stepInto(); });
        return;
    }
    if (cursor_ < nodeCount() && session_->closedModuleOf(cursor_) > 0) {
        session_->selectionModel()->select(ItemRef::node(cursor_), true);  // opens the modules around it
        return;
    }
    step();
}
void DebugController::stepOut() {
    if (!frames_.empty()) {
        postRun([](exec::Debugger& d) { return d.frames().stepOut(); });
        return;
    }
    if (cursor_ >= nodeCount()) return;
    // The top frame of the Call Stack returns, as in any debugger: a
    // one-op module (a Linear) is one node, and its parent is the next Step Out.
    const int64_t m = session_->frameModuleOf(cursor_);
    if (m <= 0)
        continueRun();
    else
        runToNode(session_->moduleTree()->module(static_cast<modules::ModuleId>(m)).lastNode);
}
void DebugController::overrideOutput(const QString& tensor, OverrideSource source, const QString& arg) {
    if (!dbg_) return;
    postRun([this, t = tensor.toStdString(), source, a = arg.toStdString()](exec::Debugger& d) {
        try {
            switch (source) {
            case OverrideSource::Reference: return d.overrides().overrideFromReference(t);
            case OverrideSource::File: return d.overrides().overrideFromFile(t, a);
            case OverrideSource::Text: return d.overrides().overrideFromText(t, a);
            }
        } catch (const std::exception& e) {
            const QString why = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, why] { emit errorOccurred(tr("Override refused: %1").arg(why)); });
        }
        exec::RunStatus st;
        st.reason = exec::StopReason::Stepped;
        st.message = "override of '" + t + "' refused";
        return st;
    });
}

void DebugController::clearOverride(const QString& tensor) {
    if (!dbg_) return;
    postRun([t = tensor.toStdString()](exec::Debugger& d) { return d.overrides().clearOverride(t); });
}

void DebugController::continueRun() {
    // F5 on a finished run starts a new one (Visual Studio's Start after the
    // program ended), which stops at the breakpoints again.
    postRun([](exec::Debugger& d) {
        if (d.cursor() >= d.nodeCount() && !d.frames().frame()) d.reset();
        return d.runToEnd();
    });
}
void DebugController::runToNode(qint64 node) {
    if (node < 0) return;
    postRun([node](exec::Debugger& d) {
        if (node < d.cursor()) d.reset();  // already ran: start over, as "run to cursor" does
        return d.runTo(node);
    });
}
void DebugController::runToSelected() {
    const ItemRef sel = session_->selectionModel()->selection();
    // A module (a closed box, a frame) runs to its entry: its first node is next.
    std::string module;
    qint64 node = sel.isNode() ? sel.index : -1;
    if (const auto* tree = session_->moduleTree();
        sel.isModule() && tree && sel.index > 0 && sel.index < static_cast<int64_t>(tree->size())) {
        const auto& m = tree->module(static_cast<modules::ModuleId>(sel.index));
        node = m.firstNode;
        module = m.path;
        if (node < 0) {
            emit errorOccurred(tr("Run to cursor: module %1 runs no node").arg(q(m.path)));
            return;
        }
    }
    if (node >= 0 && dbg_) {
        // Run to Cursor stops before the node, as a breakpoint there would:
        // the node is next, its inputs are there to look at.
        postRun([node, module](exec::Debugger& d) {
            if (node < d.cursor() || d.cursor() >= d.nodeCount()) d.reset();  // already ran: start over
            exec::RunStatus st = node > d.cursor() ? d.runTo(node - 1) : exec::RunStatus{};
            if (!st.failed && d.cursor() == node && node < d.nodeCount()) {
                st.reason = exec::StopReason::ReachedTarget;
                st.message = "stopped before '" + d.graph().nodes[static_cast<size_t>(node)].name + "'" +
                             (module.empty() ? std::string() : ", the entry of module '" + module + "'") +
                             " (run to cursor)";
            }
            return st;
        });
    } else if (sel.kind == RefKind::Output && dbg_) {
        continueRun();
    }
}
void DebugController::reset() {
    if (!dbg_) return;
    if (running_) dbg_->cancel();
    post({}, [this, afterFailure = lastFailed_](exec::Debugger& d) -> Continuation {
        d.reset();
        auto s = std::make_shared<Snapshot>(snapshot(d, afterFailure));
        return [this, s] {
            lastFailed_ = false;
            verdict_.clear();  // about a run that is gone
            lastStatus_ = tr("reset: %1 nodes pending").arg(nodeCount());
            apply(std::move(*s));
            emit stopped(lastStatus_, false);
        };
    });
}
void DebugController::stop() {
    if (dbg_ && running_) dbg_->cancel();
}
void DebugController::toggleBreakpoint(qint64 node) {
    if (!dbg_ || node < 0 || node >= dbg_->nodeCount()) return;
    const bool on = !dbg_->hasBreakpoint(node);
    dbg_->setBreakpoint(node, on);  // thread-safe; waits at most for the node being run
    if (node < (int64_t)nodeInfos_.size()) nodeInfos_[node].breakpoint = on;
    if (!on) moduleEntries_.remove(node);
    emit snapshotChanged();
    emit nodeStatesChanged();
}
void DebugController::selectCall(qint64 node, qint64 call, qint64 cursor) {
    if (!dbg_ || call < 0) return;
    postRun([node, call, cursor](exec::Debugger& d) {
        exec::RunStatus st;
        st.reason = exec::StopReason::Stepped;
        if (!d.frames().selectCall(node, static_cast<size_t>(call), cursor)) {
            st.message = "no such iteration";
            return st;
        }
        const auto f = d.frames().frame();
        const auto& op = d.graph().nodes[static_cast<size_t>(node)];
        st.message = "showing '" + op.name + "' " + op.subgraphs[static_cast<size_t>(f->subgraph)].name +
                     ", iteration " + std::to_string(f->iteration + 1) + " of " + std::to_string(f->iterationsOfIt);
        return st;
    });
}

void DebugController::standAt(const ir::ResolvedPosition& position, const QString& text) {
    if (!dbg_) return;
    postRun([position, t = text.toStdString()](exec::Debugger& d) {
        exec::RunStatus st = d.frames().standAt(position);
        if (!d.frames().frame()) st.message += ": '" + t + "'";
        return st;
    });
}

void DebugController::viewInnermostCall(qint64 call) {
    if (!dbg_ || call < 0) return;
    postRun([call](exec::Debugger& d) {
        exec::RunStatus st;
        st.reason = exec::StopReason::Stepped;
        const auto stack = d.frames().stack();
        if (stack.empty() || !d.frames().selectCallAt(stack.size() - 1, static_cast<size_t>(call))) {
            st.message = "no such iteration";
            return st;
        }
        const auto f = d.frames().frame();
        const int32_t sub = f->viewedCall ? f->viewedSubgraph : f->subgraph;
        const std::string path = sub >= 0 && static_cast<size_t>(sub) < f->subgraphPaths.size()
                                     ? f->subgraphPaths[static_cast<size_t>(sub)]
                                     : f->path;
        st.message = "showing '" + path + "', iteration " +
                     std::to_string((f->viewedCall ? f->viewedIteration : f->iteration) + 1) +
                     (f->viewedCall ? " (the run stands in iteration " + std::to_string(f->iteration + 1) + ")" : "");
        return st;
    });
}

void DebugController::toggleSubgraphBreakpoint(const std::string& subgraph, qint64 inner) {
    if (!dbg_) return;
    const exec::SubgraphBreakpoint b{subgraph, inner};
    dbg_->frames().setSubgraphBreakpoint(
        b, !dbg_->frames().hasSubgraphBreakpoint(b));  // thread-safe: the frames' own lock
    subgraphBreakpoints_ = dbg_->frames().subgraphBreakpoints();
    emit snapshotChanged();
}

void DebugController::toggleBreakpointAtSelection() {
    const ItemRef sel = session_->selectionModel()->selection();
    if (sel.isSubgraphNode()) toggleSubgraphBreakpoint(sel.subgraph, sel.inner);
    if (sel.isNode()) toggleBreakpoint(sel.index);
    const modules::ModuleTree* tree = session_->moduleTree();
    if (!sel.isModule() || !tree || sel.index <= 0 || sel.index >= static_cast<int64_t>(tree->size())) return;
    const modules::Module& m = tree->module(static_cast<modules::ModuleId>(sel.index));
    if (!dbg_ || m.firstNode < 0) return;
    const bool on = !dbg_->hasBreakpoint(m.firstNode);
    if (on) moduleEntries_.insert(m.firstNode, QString::fromStdString(m.path));
    toggleBreakpoint(m.firstNode);
}

}  // namespace irscope::widgets
