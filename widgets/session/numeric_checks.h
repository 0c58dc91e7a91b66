#pragma once
// NumericChecks: what the run is measured against and how, one facet of the
// debugger session (DebugController holds it: checks()). The reference (the
// expected outputs, a second run in another dtype or with other weights, the
// float program of a quantized one), local or cumulative error, the
// tolerance, watchpoints, the overlay that colours the graph, the first
// divergence, Model Explorer node data in and out, and the quantization
// comparison. The rows measured arrive with the controller's snapshots
// (errorRows()); everything long runs on the controller's run lane.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <QObject>
#include <QString>

#include "core/exec/debugger/debugger.h"

namespace irscope::widgets {

class DebugController;

class NumericChecks : public QObject {
    Q_OBJECT
public:
    explicit NumericChecks(DebugController& controller);

    // ---- the reference and the error mode (both reset the run)
    exec::ReferenceChoice referenceChoice() const { return referenceChoice_; }
    // A failure (an unreadable weights file) goes out through the controller's errorOccurred.
    void setReferenceChoice(const exec::ReferenceChoice& choice);
    exec::ErrorMode errorMode() const { return errorMode_; }
    void setErrorMode(exec::ErrorMode mode);
    bool checking() const;
    // The user's rtol/atol; an unset one takes each dtype's default
    // (core/exec/numerics/tolerance.h). Kept across documents; the verdicts
    // are measured again.
    void setTolerance(std::optional<double> rtol, std::optional<double> atol);
    exec::Tolerance tolerance() const { return tolerance_; }

    // ---- what was measured
    // Every node output measured against the reference so far, in execution
    // order (the Differences dock).
    const std::vector<exec::OutputError>& errorRows() const { return errorRows_; }
    // Changes each time errorRows() started over rather than grew.
    uint64_t errorRowsGeneration() const { return errorRowsGeneration_; }
    const exec::DivergenceInfo& divergence() const { return divergence_; }
    void findFirstDivergence();  // divergenceChanged
    void goToFirstDivergence();  // then selects its node (divergenceAnswered)

    // ---- watchpoints (thread-safe in the core: read straight from the debugger)
    std::map<int64_t, exec::WatchCondition> watches() const;
    exec::WatchCondition globalWatch() const;
    void setWatch(qint64 node, const exec::WatchCondition& condition);  // an empty condition removes it
    void setGlobalWatch(const exec::WatchCondition& condition);

    // ---- the graph's overlay
    exec::OverlayKind overlay() const { return overlayKind_; }
    const std::vector<double>& overlayValues() const { return overlayValues_; }
    void setOverlay(exec::OverlayKind kind);

    // ---- node data (Model Explorer) in and out
    // Node data as the Imported overlay (then shown); errors through errorOccurred.
    void importNodeData(const QString& path);
    QString importedNodeDataPath() const { return importedPath_; }
    // The per-node values written off the UI thread; `done` gets "" or the
    // reason nothing was written.
    void exportNodeData(const QString& path, exec::NodeMetric metric, std::function<void(const QString&)> done);

    // ---- the quantization debugger: this program against the reference
    // program (ReferenceChoice::Program), what to keep in float, the weights
    // per channel (2 + N runs, on the run lane). null before, and after the
    // reference or the values change.
    void measureQuantization();
    std::shared_ptr<const exec::QuantizationComparison> quantization() const { return quantization_; }

signals:
    void checksChanged();  // the reference choice, the error mode or the tolerance
    void watchesChanged();
    void overlayChanged();
    void divergenceChanged();
    // First divergence asked for by the user: its answer, also "no node diverges".
    void divergenceAnswered(const QString& message, bool found);
    void errorRowsChanged();     // errorRows() grew or started over
    void quantizationChanged();  // quantization() measured, or dropped

public:
    // ---- what the controller tells its part (settings carried over, a new
    // document, a snapshot's rows)
    // What carries to the next document's debugger (the same model's).
    struct Settings {
        exec::ReferenceChoice reference;
        exec::ErrorMode mode;
        exec::WatchCondition globalWatch;
        exec::Tolerance tolerance;
    };
    Settings settings() const { return {referenceChoice_, errorMode_, globalWatch_, tolerance_}; }
    // Run lane: `settings` on a new debugger; what no longer applies goes to `errors`.
    void restore(exec::Debugger& d, const Settings& settings, std::vector<std::string>& errors);
    // A new document: nothing measured yet. `anotherModel`: what the user set
    // up for the old model goes too (the tolerance is the user's, and stays).
    void documentChanged(bool anotherModel);
    // The rows a snapshot brought (UI thread): appended, or replacing all.
    void takeRows(std::vector<exec::OutputError> rows, bool restart);

private:
    void postDivergence(bool thenGoThere);

    DebugController& c_;
    std::vector<exec::OutputError> errorRows_;
    uint64_t errorRowsGeneration_ = 0;
    exec::DivergenceInfo divergence_;
    exec::ReferenceChoice referenceChoice_;
    exec::ErrorMode errorMode_ = exec::ErrorMode::Cumulative;
    exec::Tolerance tolerance_;
    exec::WatchCondition globalWatch_;  // carried to the next document
    exec::OverlayKind overlayKind_ = exec::OverlayKind::None;
    std::vector<double> overlayValues_;
    QString importedPath_;
    std::shared_ptr<const exec::QuantizationComparison> quantization_;
};

}  // namespace irscope::widgets
