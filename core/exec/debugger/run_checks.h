#pragma once
// RunChecks: the checks that watch the debugger's run node by node: the
// reference check behind the Differences dock and the overlays by
// error metric, and the watchpoints set from the Debug menu and the node
// menu. It owns where the reference comes from (the files loaded as the
// reference, or a second run with other weights or in another dtype) and
// builds the check again whenever the reference, the mode, the tolerance or
// the run's values change, handing both to the session as its inspectors.
//
// A reference that arrives after nodes ran (a dump loaded once the run
// stopped) is measured at once against the values the run kept, so the
// Differences dock fills without running again; in local mode the run has to
// go again (its values depend on the reference) and the session is reset.
//
// Threading: setChoice/setMode/rebuild from the run lane only; rowsFrom,
// runValue, the choice, the mode and the watchpoints from any thread (a rebuild swaps the check
// under a lock; readers keep the one they hold). Internal to core.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/exec/debugger/watchpoints.h"
#include "core/exec/numerics/error_report.h"
#include "core/exec/reference/reference_choice.h"
#include "core/io/tensor_map.h"

namespace irscope::exec {

class ReferenceCheck;
class ReferenceRun;
class Session;

class RunChecks {
public:
    // `graph` must outlive the checks.
    explicit RunChecks(const ir::Graph& graph);
    ~RunChecks();

    // What a reference run starts from, and the files loaded as the reference.
    struct Values {
        const io::TensorMap& weights;
        const io::TensorMap& constants;
        const io::TensorMap& inputs;
        io::TensorMap references;
    };

    // Reads a reference run's weights file now (so that a bad file is told
    // at once). Throws std::runtime_error naming the file or the dtype.
    void setChoice(const ReferenceChoice& choice);
    ReferenceChoice choice() const;
    bool runsReference() const;  // a second run is the reference
    void setMode(ErrorMode mode);
    ErrorMode mode() const;

    // Builds the reference source and the check again and hands them, with
    // the watchpoints, to `session`; measures what the run kept, or resets it
    // (local mode: returns true then). No check when there is no reference.
    // A reference run that lacks a value fails at the node that needs it,
    // naming it. The old check and run are let go first: at most one
    // reference run's values are held at a time.
    bool rebuild(Session& session, const Values& values, const Tolerance& tolerance);

    bool active() const;
    // Rows from `from` on. `epoch` is the caller's (of the rows it holds) on
    // the way in and the current one on the way out; when they differ the
    // measurement started over (a reset, a new check) and the rows returned
    // start from 0.
    std::vector<OutputError> rowsFrom(size_t from, uint64_t& epoch) const;
    // ReferenceCheck::referenceFailure of the current check ("" when none).
    std::string referenceFailure() const;
    // The reference run's value of a tensor (undefined without one).
    at::Tensor runValue(const std::string& tensorName) const;
    // Kind::Program: the other program's value of the tensor this graph's
    // `tensorName` stands for (undefined when it has none, or before a rebuild).
    at::Tensor programValue(const std::string& tensorName) const;
    // Kind::Program: the other program and its weights (null when the reference is not a program). Run lane only.
    const ir::Graph* program() const { return program_.get(); }
    const io::TensorMap& programWeights() const { return choiceWeights_; }
    // Local mode: what the node itself computed for a tensor the run then
    // replaced with the reference's (undefined otherwise).
    at::Tensor ownValue(const std::string& tensorName) const;

    Watchpoints& watchpoints() { return *watch_; }
    const Watchpoints& watchpoints() const { return *watch_; }

private:
    const ir::Graph& graph_;
    io::TensorMap choiceWeights_;               // Kind::Weights and Program: the file's values (run lane only)
    std::shared_ptr<const ir::Graph> program_;  // Kind::Program (run lane only)
    std::shared_ptr<Watchpoints> watch_;
    mutable std::mutex mutex_;  // everything below
    ReferenceChoice choice_;
    ErrorMode mode_ = ErrorMode::Cumulative;
    uint64_t builds_ = 0;  // folded into the epoch: a new check restarts readers
    std::shared_ptr<ReferenceCheck> check_;
    std::shared_ptr<ReferenceRun> run_;
    io::TensorMap programValues_;  // Kind::Program: its values under this graph's tensor names
};

}  // namespace irscope::exec
