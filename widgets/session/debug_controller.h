#pragma once
// DebugController: the debugger's half of the session (RenderDoc's replay
// controller). It owns the core exec::Debugger for the loaded document and
// its lifetime (what carries over to the same model), schedules everything
// long off the UI thread, keeps snapshots of what the panels show, and runs:
// steps, breakpoints, subgraph frames, overrides, extracts. Three parts with
// signals of their own hold the rest: where the values come from
// (values(): debug_values.h), what the run is measured against
// (checks(): numeric_checks.h), and the tensor the panels show and the
// queries about it (tensors(): tensor_queries.h). Panels observe the
// controller, its parts and the GraphSession only; what the snapshots look
// like on the graph is NodeDecorator's business.
//
// Two TaskQueue lanes:
//  - the run lane: loading tensor files, stepping, running, overlay
//    statistics. A newer request of the same tag replaces a queued one; Stop
//    cancels a run through the debugger's thread-safe cancel.
//  - the query lane: tensor queries (summary, histogram, heatmap, compare,
//    slice blocks) through tensors()->query(), never on the UI thread and not on the run
//    lane either: a Continue holds the run lane for its whole length, and
//    queries must not wait for it. That is safe because every const query of
//    exec::Debugger may run concurrently with a step (it copies the tensor
//    handle under the session's lock, waiting at most for the node being run,
//    and computes outside it; see core/exec/debugger/debugger.h).
// A new document drops everything either lane had for the old one; the
// sources of values the user chose (files, typed constants, input sources,
// seed) are the core's ValueSettings, restored on the new debugger.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

#include "core/exec/debugger/debugger.h"
#include "core/ir/execution_position.h"
#include "widgets/session/item_ref.h"
#include "widgets/session/task_queue.h"

class QTimer;

namespace irscope::widgets {

class GraphSession;
class DebugValues;
class NumericChecks;
class TensorQueries;
struct LoadedDocument;

class DebugController : public QObject {
    Q_OBJECT
public:
    // Where an override's value comes from (overrideOutput).
    enum class OverrideSource { Reference, File, Text };
    explicit DebugController(GraphSession* session, QObject* parent = nullptr);
    ~DebugController() override;

    GraphSession* session() const { return session_; }
    // What the run is measured against and how (numeric_checks.h).
    NumericChecks* checks() const { return checks_; }
    // Where the run's values come from, and their rows (debug_values.h).
    DebugValues* values() const { return values_; }
    // The tensor the panels show and the queries about it (tensor_queries.h).
    TensorQueries* tensors() const { return tensors_; }
    // The debugger of the current document (nullptr before one is loaded).
    // Mutate only through the controller; ask for tensor data through tensors()->query()
    // (cheap lookups such as hasBreakpoint may be called directly).
    const exec::Debugger* debugger() const { return dbg_.get(); }

    using Continuation = std::function<void()>;
    // What a file written off the UI thread reports: "" or the error.
    using WriteDone = std::function<void(const QString& error)>;
    // The document's debugger exists: what runs can start. (A document's
    // debugger may come after it: the window's first, drawn before the engine loads.)
    bool hasDocument() const { return dbg_ != nullptr; }

    // ---- snapshots (UI thread)
    const std::vector<exec::NodeInfo>& nodeInfos() const { return nodeInfos_; }
    // Typed constants not yet saved to a file (Save Constants), and edited
    // tensors (edit and continue): what quitting would lose, one line each.
    QStringList unsavedWork() const;
    bool isRunning() const { return running_; }
    int64_t runCursor() const { return cursor_; }
    // The last finished run's verdict against the expected outputs or the
    // reference ("outputs match (max abs diff …)"); empty when none was measured.
    const QString& verdict() const { return verdict_; }
    int64_t nodeCount() const;
    size_t bytesHeld() const { return bytesHeld_; }
    QString lastStatus() const { return lastStatus_; }
    bool lastRunFailed() const { return lastFailed_; }
    // Both lanes empty and no run going on; becameIdle says when it becomes so.
    bool isIdle() const;
    // Runs `then` (on the UI thread, while `context` lives) once idle: now
    // (from the event loop) or at the next becameIdle. The scripted window
    // (debugger_script.cpp) is driven this way; nothing waits.
    void whenIdle(QObject* context, std::function<void()> then);

public slots:
    void setRetention(exec::RetentionPolicy policy);

    // Edit and continue (exec::Debugger::overrideFrom*): replace node output
    // `tensor` with the reference's value, a file's (`arg`: its path) or typed
    // text (`arg`), and continue from there. A refusal goes out through
    // errorOccurred; the run is not failed by it.
    void overrideOutput(const QString& tensor, OverrideSource source, const QString& arg = {});
    void clearOverride(const QString& tensor);
    const QStringList& overridden() const { return overridden_; }

    void step();  // one node
    // Stepping by module, like a debugger's call stack (the module path is the stack):
    void stepOver();     // F10: a node, or the whole closed module it sits in
    void stepInto();     // F11: open the closed module around the run cursor (nothing runs), else a node
    void stepOut();      // Shift+F11: run to the end of the Call Stack's top module (GraphSession::frameModuleOf)
    void continueRun();  // F5: to the end or the next breakpoint
    void runToNode(qint64 node);
    void runToSelected();  // Ctrl+F10
    void reset();          // Shift+F5
    void stop();           // cancel a run
    void toggleBreakpoint(qint64 node);

    // ---- inside higher-order ops (exec/debugger/subgraph_frames.h)
    // Where the run stands inside a cond's branch or a loop's body, at any
    // depth (F11 on such an op enters it; F10 steps inside; Shift+F11 leaves
    // one level): the frames, outermost first, and the innermost one; the
    // innermost op's recorded calls (the iteration selector chooses among
    // them); how often each subgraph ran so far, by path.
    const std::vector<exec::SubgraphFrame>& frames() const { return frames_; }
    const exec::SubgraphFrame* frame() const { return frames_.empty() ? nullptr : &frames_.back(); }
    const std::vector<exec::SubgraphCallInfo>& frameCalls() const { return frameCalls_; }
    const std::map<std::string, int64_t>& subgraphCallCounts() const { return callCounts_; }
    // Enters call `call` of the program's op `node`, standing at `cursor`
    // (default: the call done).
    void selectCall(qint64 node, qint64 call, qint64 cursor = INT64_MAX);
    // Stands just after the node a position names inside subgraph calls, at
    // any depth, once its top-level op has run (exec::DebuggerFrames::standAt).
    void standAt(const ir::ResolvedPosition& position, const QString& text);
    // Looks at call `call` of the innermost frame's op; the run stays where it stands.
    void viewInnermostCall(qint64 call);
    // Breakpoints on nodes inside subgraphs, at any depth (F9 on one).
    void toggleSubgraphBreakpoint(const std::string& subgraph, qint64 inner);
    const std::vector<exec::SubgraphBreakpoint>& subgraphBreakpoints() const { return subgraphBreakpoints_; }

    // F9: on a node, before it; on a module (closed or open), before the
    // first node inside it (its entry: a debugger's function breakpoint).
    void toggleBreakpointAtSelection();
    // The module path a breakpoint was set on with F9 on the module ("" when
    // it was set on the node itself).
    QString moduleEntryOf(qint64 node) const { return moduleEntries_.value(node); }

    // Cuts `nodes` out as a runnable IR with the values at the cut (running up
    // to them first); the outcome goes out through stopped / errorOccurred.
    void extract(std::vector<int64_t> nodes, const QString& path);

signals:
    void debuggerReset();  // a new document: everything changed
    // The document is drawn but its debugger waits for the engine to load
    // (the window's first); debuggerReset() follows once it is made.
    void waitingForEngine();
    // The snapshot changed (node infos, rows, cursor, the overlay): emitted
    // before the finer signals below, for what is drawn from all of it.
    void snapshotChanged();
    void nodeStatesChanged();  // nodeInfos changed (a step, a run, a reset)
    void runStateChanged(bool running);
    void progress(qint64 done, qint64 total, double elapsedSeconds);
    void stopped(const QString& message, bool failed);
    // An extract was written: what it wrote, and the `irscope run` command
    // that reruns it ("" when no values were written beside it).
    void extracted(const QString& summary, const QString& reproduceCommand);
    // The run stopped before a node because an input of it has no value:
    // `placeholder` as the node reads it, `kind` "constant", "parameter", "input", ...
    void stoppedForMissingValue(const QString& placeholder, const QString& kind);
    void bytesHeldChanged(qint64 bytes);
    void errorOccurred(const QString& message);
    // Something worth a line in the status bar that is not an error (the
    // files of the previous document kept for this one).
    void notice(const QString& message);
    void becameIdle();

public:
    // ---- the run lane, as the controller's parts use it (values(), checks(),
    // tensors()): jobs on the debugger off the UI thread, the snapshot they
    // hand back, and what the controller says about them.
    using RunJob = std::function<Continuation(exec::Debugger&)>;
    // Queues `job` on the run lane; with a non-empty tag a newer job of the
    // same tag replaces a queued one. `job` returns a UI-thread continuation (may be empty).
    void post(const QString& tag, RunJob job);
    // Runs `change` on the run lane, then refreshes the snapshot with its rows.
    void postChange(std::function<void(exec::Debugger&)> change, const QString& tag = {});
    void postRun(std::function<exec::RunStatus(exec::Debugger&)> run);
    // A job that reports its progress (a tensor file loading): `ctx` says
    // whether it was dropped and delivers intermediate UI-thread updates.
    using ProgressJob = std::function<Continuation(exec::Debugger&, const TaskQueue::Context&)>;
    void postWithProgress(const QString& tag, ProgressJob job);
    // Writes a file on the query lane (it never waits for a run); `done` on the UI thread.
    void writeFile(std::function<void(const exec::Debugger&)> write, WriteDone done);
    // A query on the query lane (tensor_queries.h): keyed, dropped with its owner.
    TaskQueue* queryLane() const { return queryLane_; }
    // The debugger a query lane job holds (it outlives a document change).
    std::shared_ptr<const exec::Debugger> sharedDebugger() const { return dbg_; }
    // Thread-safe calls on the live debugger, also during a run (cancel, a
    // watch): nothing when no document is loaded.
    void callLive(const std::function<void(exec::Debugger&)>& call);
    // On the run lane: snapshots of everything the panels show.
    struct Snapshot {
        bool rows = false;
        std::shared_ptr<const std::vector<exec::WeightRow>> weightRows;  // built on the worker
        std::vector<exec::InputRow> inputRows;
        std::vector<exec::MissingRow> missing;
        std::vector<exec::NodeInfo> nodeInfos;
        int64_t cursor = 0;
        size_t bytes = 0;
        bool rowsRestart = false;  // newErrorRows replace errorRows_ instead of extending it
        std::vector<exec::OutputError> newErrorRows;
        std::vector<exec::SubgraphFrame> frames;
        std::vector<exec::SubgraphCallInfo> frameCalls;
        std::map<std::string, int64_t> callCounts;
    };
    Snapshot snapshot(exec::Debugger& d, bool rows);
    // On the UI thread: the snapshot becomes what the panels show.
    void apply(Snapshot s);
    // A part's outcome, said by the controller: an error (errorOccurred), a
    // stop with its status line (stopped), the last failure no longer the
    // state, the overlay or checks redrawn (snapshotChanged).
    void reportError(const QString& message);
    void reportStopped(const QString& status, bool failed);
    void clearFailure() { lastFailed_ = false; }
    void announceSnapshot();
    const LoadedDocument* document() const { return doc_.get(); }
    std::shared_ptr<const LoadedDocument> documentPtr() const { return doc_; }

private:
    void noteIfIdle();
    void onGraphLoaded();
    void onEngineReady();
    // The second half of onGraphLoaded: the document's debugger in place (made
    // now unless `prepared`), and what carried over applied to it.
    void attachDebugger(std::shared_ptr<exec::Debugger> prepared);
    void clearSnapshot();
    void restoreSettings(exec::ValueSettings settings);
    // Run lane only: the rows the snapshots have handed to the UI thread.
    struct RowsSent {
        const exec::Debugger* debugger = nullptr;  // whose rows (compared, never dereferenced)
        uint64_t epoch = ~uint64_t(0);
        size_t count = 0;
    };
    void onTick();

    GraphSession* session_;
    NumericChecks* checks_;
    DebugValues* values_;
    TensorQueries* tensors_;
    std::shared_ptr<const LoadedDocument> doc_;
    std::shared_ptr<exec::Debugger> dbg_;  // shared with the lanes' jobs (post())
    // What onGraphLoaded carries over to attachDebugger (across the engine's load).
    struct Carried {
        exec::ValueSettings settings;
        std::vector<std::pair<std::string, QString>> breakpoints;  // node name, module it was set on
        std::shared_ptr<const LoadedDocument> before;
        bool sameModel = false;
    };
    Carried carried_;
    bool awaitingEngine_ = false;
    bool loadBeganBeforeEngine_ = false;  // so the session could prepare no debugger for it
    TaskQueue* runLane_;
    TaskQueue* queryLane_;

    std::vector<exec::NodeInfo> nodeInfos_;
    std::vector<exec::SubgraphFrame> frames_;
    std::vector<exec::SubgraphCallInfo> frameCalls_;
    std::map<std::string, int64_t> callCounts_;
    std::vector<exec::SubgraphBreakpoint> subgraphBreakpoints_;
    RowsSent rowsSent_;
    QStringList overridden_;
    exec::RetentionPolicy retention_ = exec::RetentionPolicy::KeepAll;
    bool running_ = false;
    QHash<qint64, QString> moduleEntries_;  // breakpoint node -> the module path it was set on
    bool lastFailed_ = false;
    int64_t cursor_ = 0;
    QString verdict_;
    size_t bytesHeld_ = 0;
    QString lastStatus_;
    QTimer* tick_;
    QElapsedTimer elapsed_;
};

}  // namespace irscope::widgets
