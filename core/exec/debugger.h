#pragma once
// Debugger: everything the GUI's debugger panels show, computed in core and
// handed out as plain types (no torch headers here: widget files include
// this). It owns the exec::Session over one Graph and the values around it:
// the loaded state_dict, constants from a file and typed by the user (with
// torch_ir's override order: IR constants < --constants file < typed),
// graph input sources (random seeded as `irscope run --random-inputs`,
// zeros, ones, a file), and references (expected outputs, reference
// intermediates). Panels get rows for the weights / constants / inputs
// tables, the missing values with the action that fixes each, run control,
// per-node state/time/bytes, and per tensor: an extended summary, lazy 2-D
// blocks of a slice (never a copy of the whole tensor), histogram bins,
// heatmap data, the difference against the reference, and export.
//
// Threading: load/set/run calls are meant for one worker thread; cancel()
// and every const query may come from any thread, also while a step or run is
// going on that worker: a query copies the tensor handle under the session's
// lock (waiting at most for the node being run) or the facade's own lock, and
// computes outside both, so a long query never holds up the run. Values are
// not copied: a tensor stays alive while a query reads it even if the
// retention policy frees it meanwhile. (A node that writes a held tensor in
// place while a query reads it would give that query a torn read, never a
// crash.) Difference slices (block, heatmap, geometry) cut both tensors before
// subtracting; summary / histogram / compare of a Difference read it whole.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/exec_types.h"
#include "core/exec/tensor_summary.h"
#include "core/ir/graph.h"

namespace irscope::exec {

class Session;

enum class WeightStatus {
    Loaded,          // from the state_dict, shape and dtype as the IR says
    FromIr,          // from the IR's own `constants`
    FromConstants,   // from the --constants file
    Entered,         // typed by the user
    Missing,         // no value anywhere
    ShapeMismatch,
    DTypeMismatch,
    UnusedInFile,    // in the file, but no IR weight maps to it
};
const char* weightStatusName(WeightStatus status);   // "loaded", "IR constant", "missing", ...

struct WeightRow {
    std::string placeholder;                 // first placeholder ("" for an unused file entry)
    std::vector<std::string> placeholders;   // every placeholder mapping to it
    std::string originalName;                // state_dict key / constant name
    char kind = '?';                         // 'p', 'b', 'c', or '?' (other / unused)
    bool constantLike = false;               // c_, or a b_ the state_dict lacks (non-persistent buffer)
    bool used = false;                       // some node reads it
    std::vector<int64_t> irShape;
    std::string irDtype;
    std::vector<int64_t> loadedShape;        // empty with loadedDtype "" when no value
    std::string loadedDtype;
    std::string source;                      // file path, "IR constants", "entered"
    WeightStatus status = WeightStatus::Missing;
    std::string message;                     // a line a user can act on
    bool hasValue() const { return !loadedDtype.empty(); }
};

enum class InputSource { Random, Zeros, Ones, File };
const char* inputSourceName(InputSource source);   // "random", "zeros", "ones", "file"

struct InputRow {
    std::string name;
    std::vector<int64_t> irShape;
    std::string irDtype;
    InputSource source = InputSource::Random;
    std::vector<int64_t> loadedShape;
    std::string loadedDtype;
    std::string problem;   // "not in the inputs file", shape mismatch, ...
};

// A value the pre-flight check found missing, with what fixes it.
struct MissingRow {
    MissingValue value;
    std::string fix;       // "enter its value in the Constants dock or load --constants FILE"
    std::string text;      // formatMissingValue + fix
    // A parameter or buffer while no state_dict is loaded yet: not an alarm, just
    // waiting for --weights (the graph does not mark these red). Only values a
    // state_dict can never supply (lifted constants) are flagged before one is loaded.
    bool awaitsStateDict = false;
};

// The summary panel: exec::TensorSummary plus +/-Inf apart.
struct ValueSummary {
    TensorSummary base;
    int64_t posInfs = 0, negInfs = 0;
};

// Which tensor a query reads.
enum class ValueSide { Actual, Reference, Difference };   // Difference: actual - reference

// A tensor seen as a stack of 2-D slices: [lead..., rows, cols]. 0-D is 1x1,
// 1-D is n x 1.
struct SliceGeometry {
    std::vector<int64_t> shape;
    std::vector<int64_t> lead;   // sizes of the leading dims (ndim - 2 of them, or none)
    int64_t rows = 0, cols = 0;
    std::string dtype;
    bool integral = false;       // integer or bool dtype (format without decimals)
};

struct Histogram {
    double lo = 0, hi = 0;                 // range of the finite values
    std::vector<int64_t> counts;           // equal-width bins over [lo, hi]
    int64_t finite = 0, nans = 0, posInfs = 0, negInfs = 0;
};

struct Heatmap {
    int64_t rows = 0, cols = 0;            // of the returned (maybe subsampled) grid
    int64_t sliceRows = 0, sliceCols = 0;  // of the slice itself
    int64_t stride = 1;                    // subsampling step (1: every element)
    std::vector<float> values;             // row-major; NaN/Inf kept
    double min = 0, max = 0;               // over finite values
};

struct DiffReport {
    bool comparable = false;
    std::string problem;                   // why not: "no reference", shape mismatch
    bool matched = false;
    int64_t mismatches = 0, numel = 0;
    double maxAbs = 0, maxRel = 0;
    std::vector<int64_t> worstIndex;
    double worstActual = 0, worstExpected = 0;
};

struct DivergenceInfo {
    bool found = false;
    int64_t node = -1;
    std::string nodeName, opType, tensor;
    DiffReport diff;
    int64_t compared = 0;
    std::string message;                   // "first divergence at node 'mul_4' ..." or "N tensors match"
};

enum class OverlayKind { None, Time, MaxAbs, NanInf, Difference };

struct NodeInfo {
    NodeState state = NodeState::Pending;
    bool current = false;       // the cursor: the next node to run
    bool breakpoint = false;
    bool needsMissing = false;  // reads a value the pre-flight check found missing
    double seconds = 0;
    size_t outputBytes = 0;     // of its outputs still held
    std::vector<std::string> diagnostics;
    std::string error;          // when failed
};

struct RunStatus {
    StopReason reason = StopReason::Finished;
    int64_t lastNode = -1;
    std::string message;        // "stopped at breakpoint before 'mul'", "node 'x' failed: ..."
    bool failed = false;
};

struct ReferenceTolerance {
    double rtol = 1e-5, atol = 1e-8;
};

class Debugger {
public:
    // `graph` must outlive the debugger.
    explicit Debugger(const ir::Graph& graph, RetentionPolicy policy = RetentionPolicy::KeepAll);
    ~Debugger();
    Debugger(const Debugger&) = delete;
    Debugger& operator=(const Debugger&) = delete;

    const ir::Graph& graph() const;
    Session& session();

    // ---- values in (each throws std::runtime_error with "FILE: reason" on failure; resets the run)
    void loadWeights(const std::string& path);
    void loadConstants(const std::string& path);
    void loadInputs(const std::string& path);
    void loadExpected(const std::string& path);
    void loadReferenceIntermediates(const std::string& path);
    std::string weightsPath() const;
    std::string constantsPath() const;
    std::string inputsPath() const;
    std::string expectedPath() const;
    std::string intermediatesPath() const;

    // Typed constant by original name (a placeholder name is accepted too):
    // "[1, 0, 1, 0]" with "float32". Throws std::invalid_argument with the
    // reason (syntax, ragged, unknown dtype). Returns a warning ("" when none),
    // e.g. when the shape differs from the IR's.
    std::string enterConstant(const std::string& name, const std::string& text, const std::string& dtype);
    void clearEnteredConstant(const std::string& name);
    std::vector<std::string> enteredConstants() const;
    // Writes the user-provided constants (file + entered, by original name)
    // as .pt/.safetensors. The IR is never touched.
    void saveConstants(const std::string& path) const;

    // Inputs: a source for every graph input (File only when a file is loaded).
    void setInputSource(const std::string& input, InputSource source);
    void setAllInputSources(InputSource source);
    void setRandomSeed(int64_t seed);
    int64_t randomSeed() const;

    // ---- tables
    std::vector<WeightRow> weightRows() const;
    std::vector<InputRow> inputRows() const;
    std::vector<MissingRow> missing() const;   // pre-flight

    // ---- run control (worker thread)
    void reset();
    RunStatus step();
    RunStatus runTo(int64_t node);
    RunStatus runToEnd();
    void cancel();                             // any thread
    void setBreakpoint(int64_t node, bool on);
    bool hasBreakpoint(int64_t node) const;
    std::vector<int64_t> breakpoints() const;
    void setRetention(RetentionPolicy policy);
    RetentionPolicy retention() const;
    void setPinned(const std::string& tensor, bool pinned);

    // Lock-free progress for a UI timer while a run is going.
    int64_t nodesDone() const { return done_.load(); }
    int64_t cursor() const { return cursor_.load(); }
    int64_t nodeCount() const;
    bool finished() const;
    size_t bytesHeld() const;
    double totalSeconds() const;

    NodeInfo nodeInfo(int64_t node) const;
    std::vector<NodeInfo> nodeInfos() const;
    std::optional<NodeError> error() const;

    // ---- tensors by name: node outputs, graph inputs, placeholders / original names
    bool hasValue(const std::string& tensor) const;
    bool hasReference(const std::string& tensor) const;
    // Where a tensor comes from: "node 'mul' output 0", "weight", "input", "" when unknown.
    std::string describe(const std::string& tensor) const;
    std::optional<ValueSummary> summary(const std::string& tensor, ValueSide side = ValueSide::Actual) const;
    std::optional<SliceGeometry> geometry(const std::string& tensor, ValueSide side = ValueSide::Actual) const;
    // Rows [row0, row0+nrows) x cols [col0, col0+ncols) of the slice at `lead`
    // (clamped to the slice), row-major, as doubles (bool as 0/1, complex by magnitude).
    std::vector<double> block(const std::string& tensor, const std::vector<int64_t>& lead, int64_t row0, int64_t col0,
                              int64_t nrows, int64_t ncols, ValueSide side = ValueSide::Actual) const;
    std::optional<Histogram> histogram(const std::string& tensor, int bins, ValueSide side = ValueSide::Actual) const;
    // The slice at `lead`, subsampled so that neither side exceeds maxSide.
    std::optional<Heatmap> heatmap(const std::string& tensor, const std::vector<int64_t>& lead, int64_t maxSide = 512,
                                   ValueSide side = ValueSide::Actual) const;
    DiffReport compare(const std::string& tensor) const;
    // Over the computed nodes, against the reference intermediates (or, for
    // graph outputs, the expected outputs).
    DivergenceInfo firstDivergence() const;
    void setTolerance(ReferenceTolerance tolerance);
    ReferenceTolerance tolerance() const;
    // One value per node (NaN: nothing to show): seconds, max |x| over its
    // outputs, 1/0 for NaN/Inf present, max abs difference vs the reference.
    std::vector<double> overlay(OverlayKind kind) const;
    // .npy (one tensor), .pt/.pth/.bin or .safetensors by extension. Throws std::runtime_error.
    void exportTensor(const std::string& tensor, const std::string& path, ValueSide side = ValueSide::Actual) const;

private:
    RunStatus finishRun(const RunResult& r);
    RunStatus runLoop(int64_t target, StopReason onTarget);
    void applyConstants();
    void applyInputs();
    void invalidateCaches();

    struct Impl;
    std::unique_ptr<Impl> d_;
    std::atomic<int64_t> done_{0}, cursor_{0};
    std::atomic<bool> cancel_{false};
};

// Parses a nested list of numbers ("[[1, 2], [3, 4]]", "2.5", "[true, false]",
// "nan", "inf", "-inf") into a shape and row-major values. Throws
// std::invalid_argument with the position and reason.
struct ParsedValues {
    std::vector<int64_t> shape;
    std::vector<double> values;
    std::vector<int64_t> integers;   // exact values when every token is an integer
    bool allIntegers = true;
};
ParsedValues parseNestedList(const std::string& text);

// Dtypes a user may type a constant in, torch_ir spelling.
const std::vector<std::string>& enterableDtypes();

// "1.5 KiB"
std::string formatBytes(size_t bytes);

}  // namespace irscope::exec
