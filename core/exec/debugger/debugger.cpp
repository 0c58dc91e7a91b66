#include "core/exec/debugger/debugger.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <unordered_set>

#include "core/exec/debugger/debugger_impl.h"
#include "core/exec/engine/attr_convert.h"
#include "core/exec/engine/executor.h"
#include "core/exec/engine/session.h"
#include "core/exec/numerics/tensor_probes.h"
#include "core/exec/reference/divergence_kind.h"
#include "core/exec/values/value_sources.h"
#include "core/exec/values/value_tables.h"
#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/tensor_dtype.h"
#include "core/io/tensor_file.h"
#include "core/io/tensor_map.h"
#include "core/ir/graph_index.h"

namespace irscope::exec {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr double kReadShare = 0.7;  // of a value file's load: the rest binds what was read

io::TensorMap readOrThrow(const std::string& path, const io::ReadOptions& options = {}) {
    try {
        return io::readTensorFile(path, options);
    } catch (const io::ReadCancelled&) {
        throw;
    } catch (const std::exception& e) {
        std::string w = e.what();
        if (w.find(path) == std::string::npos) w = path + ": " + w;
        throw std::runtime_error(w);
    }
}

void writeOrThrow(const io::TensorMap& tensors, const std::string& path) {
    try {
        io::writeTensorFile(tensors, path);
    } catch (const std::exception& e) {
        throw std::runtime_error(e.what());
    }
}

}  // namespace

at::Tensor tensorFromText(const ParsedValues& p, c10::ScalarType st) {
    at::Tensor t = p.allIntegers && at::isIntegralType(st, true)
                       ? at::tensor(p.integers.empty() ? std::vector<int64_t>{} : p.integers, at::kLong)
                       : at::tensor(p.values.empty() ? std::vector<double>{} : p.values, at::kDouble);
    t = t.reshape(p.shape);
    if (st == at::kBool) return t.ne(0);
    return t.to(st).clone();
}

// ------------------------------------------------------------------ values in

Debugger::Debugger(const ir::Graph& graph, RetentionPolicy policy) : d_(std::make_unique<Impl>(graph, policy)) {
    d_->overlays.reset(graph.nodes.size());
    applyInputs();
}

Debugger::~Debugger() = default;

const ir::Graph& Debugger::graph() const { return d_->graph; }
Session& Debugger::session() { return d_->session; }

void Debugger::valuesChanged() {
    {
        std::lock_guard lock(d_->m);
        d_->overlays.reset(d_->graph.nodes.size());
        d_->refreshMissing();
    }
    rebuildChecks();  // a reference run starts from the new values
}

void Debugger::load(ValueFile kind, const std::string& path, const LoadProgress& progress) {
    // Reading is 0-70% and may be cancelled; binding what was read (70-95%)
    // may not: the values would be half changed.
    io::ReadOptions options;
    if (progress)
        options.progress = [&progress](size_t done, size_t total) {
            return progress(total ? kReadShare * static_cast<double>(done) / static_cast<double>(total) : kReadShare);
        };
    auto reached = [&progress](double fraction) {
        if (progress) progress(fraction);  // no longer a chance to cancel
    };
    if (kind == ValueFile::Inputs) io::selectInputsOf(path, options);  // a .pt2: its example inputs
    io::TensorMap tensors = readOrThrow(path, options);
    {
        std::lock_guard lock(d_->m);
        d_->sources.setFile(kind, std::move(tensors), path);
    }
    reached(0.75);
    if (kind == ValueFile::Expected || kind == ValueFile::ReferenceIntermediates) {
        if (!d_->checks.runsReference()) rebuildChecks();  // a second run does not read them
        reached(0.95);
        return;
    }
    switch (kind) {
    case ValueFile::Weights:
        d_->session.setWeights(d_->sources.weightsForRun());
        reached(0.85);
        valuesChanged();
        break;
    case ValueFile::Constants: applyConstants(); break;
    case ValueFile::Inputs: applyInputs(); break;
    default: break;
    }
    reached(0.95);
}

void Debugger::loadRenamedReference(const std::string& path,
                                    const std::vector<std::pair<std::string, std::string>>& renames) {
    const io::TensorMap file = readOrThrow(path);
    io::TensorMap renamed;
    for (const auto& [theirs, ours] : renames)
        if (const io::NamedTensor* e = file.entry(theirs)) renamed.insert(ours, e->tensor, e->source);
    if (renamed.empty())
        throw std::runtime_error(path + ": none of its tensors is a value of a node both graphs share");
    {
        std::lock_guard lock(d_->m);
        d_->sources.setFile(ValueFile::ReferenceIntermediates, std::move(renamed), path);
    }
    if (!d_->checks.runsReference()) rebuildChecks();
}

size_t Debugger::setCastWeights(bool on) {
    size_t cast = 0;
    io::TensorMap weights;
    {
        std::lock_guard lock(d_->m);
        if (d_->sources.castWeights() == on) return d_->sources.castCount();
        cast = d_->sources.setCastWeights(on);
        weights = d_->sources.weightsForRun();
    }
    d_->session.setWeights(weights);
    valuesChanged();
    return cast;
}

bool Debugger::castWeights() const {
    std::lock_guard lock(d_->m);
    return d_->sources.castWeights();
}

std::string Debugger::path(ValueFile kind) const {
    std::lock_guard lock(d_->m);
    return d_->sources.path(kind);
}

void Debugger::applyConstants() {
    io::TensorMap merged;
    {
        std::lock_guard lock(d_->m);
        merged = d_->sources.userConstants();
    }
    d_->session.setConstants(merged);
    valuesChanged();
}

void Debugger::applyInputs() {
    io::TensorMap inputs;
    {
        std::lock_guard lock(d_->m);
        d_->effectiveInputs = d_->sources.effectiveInputs();
        inputs = d_->effectiveInputs;
    }
    d_->session.setInputs(inputs);
    valuesChanged();
}

std::string Debugger::enterConstant(const std::string& name, const std::string& text, const std::string& dtype) {
    std::string warning = typeConstant(name, text, dtype);
    return warning;
}

// Parses and records a typed constant without handing it to the session, so
// that restore() rebuilds the executor's registry once for all of them.
std::string Debugger::typeConstant(const std::string& name, const std::string& text, const std::string& dtype) {
    const std::string original = d_->originalOf(name);
    auto st = scalarTypeOfIrDtype(dtype);
    if (!st) throw std::invalid_argument("unknown dtype '" + dtype + "'");
    const ParsedValues parsed = parseNestedList(text);
    at::Tensor t;
    try {
        t = tensorFromText(parsed, *st);
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("cannot make a ") + dtype + " tensor: " + e.what());
    }
    std::string warning;
    const auto weightIndex = d_->index().weightIndex(original);
    if (const ir::TensorMeta* meta = weightIndex ? &d_->graph.weights[static_cast<size_t>(*weightIndex)] : nullptr) {
        const auto irType = scalarTypeOfIrDtype(meta->dtype);
        const std::string irDtype = irType ? io::scalarTypeName(*irType) : meta->dtype;
        const bool shapeKnown = std::all_of(meta->shape.begin(), meta->shape.end(), [](int64_t d) { return d >= 0; });
        if (shapeKnown && meta->shape != t.sizes().vec())
            warning = "'" + original + "' has shape " + indexText(meta->shape) + " in the IR; the value entered has " +
                      indexText(t.sizes().vec());
        else if (meta->hasDtype() && irDtype != io::scalarTypeName(*st))
            warning =
                "'" + original + "' is " + irDtype + " in the IR; the value entered is " + io::scalarTypeName(*st);
    } else if (!d_->index().constant(original) && d_->index().originalName(name) == nullptr) {
        warning = "the IR has no weight or constant named '" + original + "'";
    }
    {
        std::lock_guard lock(d_->m);
        d_->sources.enter({original, text, dtype}, t);
    }
    applyConstants();
    return warning;
}

void Debugger::clearEnteredConstant(const std::string& name) {
    {
        std::lock_guard lock(d_->m);
        if (!d_->sources.clearEntered(d_->originalOf(name))) return;
    }
    applyConstants();
}

std::vector<std::string> Debugger::enteredConstants() const {
    std::lock_guard lock(d_->m);
    return d_->sources.enteredNames();
}

void Debugger::saveConstants(const std::string& path) const {
    io::TensorMap m;
    {
        std::lock_guard lock(d_->m);
        for (const auto& e : d_->sources.userConstants()) m.insert(e.name, e.tensor.contiguous());
    }
    if (m.empty()) throw std::runtime_error("no constants to save: load a constants file or enter values first");
    writeOrThrow(m, path);
}

void Debugger::setInputSource(const std::string& input, InputSource source) {
    {
        std::lock_guard lock(d_->m);
        d_->sources.setInputSource(input, source);
    }
    applyInputs();
}

void Debugger::setAllInputSources(InputSource source) {
    {
        std::lock_guard lock(d_->m);
        d_->sources.setAllInputSources(source);
    }
    applyInputs();
}

void Debugger::setRandomSeed(int64_t seed) {
    {
        std::lock_guard lock(d_->m);
        d_->sources.setSeed(seed);
    }
    applyInputs();
}

int64_t Debugger::randomSeed() const {
    std::lock_guard lock(d_->m);
    return d_->sources.seed();
}

ValueSettings Debugger::settings() const {
    std::lock_guard lock(d_->m);
    return d_->sources.settings();
}

std::vector<std::string> Debugger::restore(const ValueSettings& s) {
    std::vector<std::string> errors;
    {
        std::lock_guard lock(d_->m);
        d_->sources.setCastWeights(s.castWeights);  // before the state_dict loads, so it loads cast
    }
    for (const auto& [kind, file] : s.files) {
        try {
            load(kind, file);
        } catch (const std::exception& e) {
            errors.push_back(e.what());
        }
    }
    for (const auto& c : s.entered) {
        try {
            typeConstant(c.name, c.text, c.dtype);
        } catch (const std::exception& e) {
            errors.push_back("constant '" + c.name + "': " + e.what());
        }
    }
    if (!s.entered.empty()) applyConstants();
    {
        std::lock_guard lock(d_->m);
        for (const auto& [input, source] : s.inputSources)
            if (source != InputSource::File || !d_->sources.path(ValueFile::Inputs).empty())
                d_->sources.setInputSource(input, source);
        d_->sources.setSeed(s.seed);
    }
    applyInputs();
    return errors;
}

// ------------------------------------------------------------------ tables

std::vector<WeightRow> Debugger::weightRows() const {
    std::lock_guard lock(d_->m);
    return exec::weightRows(d_->graph, d_->index(), d_->sources);
}

std::vector<InputRow> Debugger::inputRows() const {
    std::lock_guard lock(d_->m);
    return exec::inputRows(d_->graph, d_->sources, d_->effectiveInputs);
}

std::vector<MissingRow> Debugger::missing() const {
    std::lock_guard lock(d_->m);
    return missingRows(d_->missing, d_->sources);
}

// ------------------------------------------------------------------ run control

void Debugger::reset() {
    d_->frames.leave();
    d_->session.reset();
    std::lock_guard lock(d_->m);
    d_->overlays.reset(d_->graph.nodes.size());
}

RunStatus Debugger::finish(const RunResult& r) { return describeStop(d_->graph, r, d_->session.cursor()); }

RunStatus Debugger::step() {
    if (d_->frames.frame()) {
        if (d_->frames.step(d_->session)) return inFrame(StopReason::Stepped, "stepped");
        RunStatus st;
        st.reason = StopReason::Stepped;
        st.message = "stepped out: stopped before " +
                     (d_->session.finished() ? std::string("the end") : "'" + d_->graph.nodes[cursor()].name + "'");
        return st;
    }
    return finish(d_->session.step([this](int64_t node) { d_->recordRun(node); }));
}
RunStatus Debugger::runTo(int64_t node) { return runWithSubgraphBreakpoints(node); }
RunStatus Debugger::runToEnd() { return runWithSubgraphBreakpoints(nodeCount() - 1); }
void Debugger::cancel() { d_->session.cancel(); }
void Debugger::setBreakpoint(int64_t node, bool on) { d_->session.setBreakpoint(node, on); }
bool Debugger::hasBreakpoint(int64_t node) const { return d_->session.hasBreakpoint(node); }
std::vector<int64_t> Debugger::breakpoints() const { return d_->session.breakpoints(); }
void Debugger::setRetention(RetentionPolicy policy) {
    d_->session.setRetention(policy);
    rebuildChecks();  // a reference run and local mode keep what the run keeps
}
RetentionPolicy Debugger::retention() const { return d_->session.retention(); }
void Debugger::setPinned(const std::string& tensor, bool pinned) { d_->session.setPinned(tensor, pinned); }

int64_t Debugger::nodesDone() const { return d_->session.progress(); }
int64_t Debugger::cursor() const { return d_->session.progress(); }
int64_t Debugger::nodeCount() const { return d_->session.nodeCount(); }
bool Debugger::finished() const { return d_->session.finished(); }
size_t Debugger::bytesHeld() const { return d_->session.bytesHeld(); }
double Debugger::totalSeconds() const { return d_->session.totalSeconds(); }
std::optional<NodeError> Debugger::error() const { return d_->session.error(); }

NodeInfo Debugger::nodeInfo(int64_t node) const {
    NodeInfo info;
    const Session& s = d_->session;
    if (node < 0 || node >= s.nodeCount()) return info;
    info.state = s.state(node);
    info.current = s.cursor() == node && info.state != NodeState::Failed;
    info.breakpoint = s.hasBreakpoint(node);
    info.seconds = s.seconds(node);
    info.diagnostics = s.diagnostics(node);
    if (auto e = s.error(); e && e->node == node) info.error = e->message;
    const auto& n = d_->graph.nodes[node];
    info.widened = s.widenedReason(node);
    if (!n.subgraphs.empty()) {
        info.takenSubgraph = s.takenSubgraph(node);
        info.iterations = s.iterations(node);
        const auto calls = s.subgraphCalls(node);
        if (!calls.empty()) {
            info.subgraphRuns.assign(n.subgraphs.size(), 0);
            for (const auto& c : calls)
                if (c.subgraph >= 0 && c.subgraph < static_cast<int32_t>(n.subgraphs.size()))
                    ++info.subgraphRuns[c.subgraph];
            // Calls beyond the recorded ones were the same subgraphs again; the count says how many ran in all.
            if (info.iterations >= 0 && s.unrecordedCalls(node) > 0) info.subgraphRuns.clear();
        }
    }
    for (const auto& o : n.outputs) {
        at::Tensor t;
        if (s.value(o.name, t)) info.outputBytes += t.numel() * t.element_size();
    }
    std::lock_guard lock(d_->m);
    info.needsMissing = d_->missingNodes.count(n.name) != 0;
    return info;
}

std::vector<NodeInfo> Debugger::nodeInfos() const {
    std::vector<NodeInfo> v;
    const int64_t n = nodeCount();
    v.reserve(n);
    for (int64_t i = 0; i < n; ++i) v.push_back(nodeInfo(i));
    return v;
}

// ------------------------------------------------------------------ tensors

bool Debugger::hasValue(const std::string& t) const { return d_->actual(t).defined(); }
bool Debugger::hasReference(const std::string& t) const { return d_->reference(t).defined(); }

std::string Debugger::describe(const std::string& name) const {
    const auto& idx = d_->index();
    if (auto p = idx.producerOfTensor(name)) {
        const auto& n = d_->graph.nodes[p->first];
        return "output " + std::to_string(p->second) + " of node '" + n.name + "' (" + n.opType + ")";
    }
    if (idx.graphInputIndex(name)) return "graph input";
    auto kind = idx.kindOf(name);
    if (!ir::isWeightKind(kind)) return {};
    std::string s = tensorKindName(kind);
    if (const std::string* o = idx.originalName(name)) s += " '" + *o + "'";
    return s;
}

std::optional<TensorSummary> Debugger::summary(const std::string& name, ValueSide side) const {
    at::Tensor t = d_->get(name, side);
    if (!t.defined()) return std::nullopt;
    return io::summarize(t);
}

std::optional<SliceGeometry> Debugger::geometry(const std::string& name, ValueSide side) const {
    // Shape and dtype only: a Difference is not computed here.
    at::Tensor t = d_->get(name, side == ValueSide::Difference ? ValueSide::Actual : side);
    if (!t.defined()) return std::nullopt;
    if (side == ValueSide::Difference) {
        at::Tensor r = d_->reference(name);
        if (!r.defined() || !r.sizes().equals(t.sizes())) return std::nullopt;
    }
    return sliceGeometry(t, side == ValueSide::Difference);
}

std::vector<double> Debugger::block(const std::string& name, const std::vector<int64_t>& lead, int64_t row0,
                                    int64_t col0, int64_t nrows, int64_t ncols, ValueSide side) const {
    at::NoGradGuard g;
    return blockValues(
        d_->slice(name, side, lead, [&](const at::Tensor& s) { return cutBlock(s, row0, col0, nrows, ncols); }));
}

std::optional<Histogram> Debugger::histogram(const std::string& name, int bins, ValueSide side) const {
    at::Tensor t = d_->get(name, side);
    if (!t.defined()) return std::nullopt;
    return histogramOf(t, bins);
}

std::optional<Heatmap> Debugger::heatmap(const std::string& name, const std::vector<int64_t>& lead, int64_t maxSide,
                                         ValueSide side) const {
    at::NoGradGuard g;
    Heatmap h;
    at::Tensor cut = d_->slice(name, side, lead, [&](const at::Tensor& s) { return cutHeatmap(s, maxSide, h); });
    if (!cut.defined()) return std::nullopt;
    fillHeatmap(cut, h);
    return h;
}

Comparison Debugger::compare(const std::string& name) const {
    at::Tensor actual = d_->actual(name), reference = d_->reference(name);
    // A reference run in another dtype differs in dtype by design: compare the values, in float64.
    if (d_->checks.runsReference() && actual.defined() && reference.defined() &&
        actual.scalar_type() != reference.scalar_type() && at::isFloatingType(actual.scalar_type()) &&
        at::isFloatingType(reference.scalar_type())) {
        at::NoGradGuard guard;
        actual = actual.to(at::kDouble);
        reference = reference.to(at::kDouble);
    }
    return compareWithReference(name, actual, reference, tolerance());
}

DivergenceInfo Debugger::firstDivergence(bool explain) const {
    io::TensorMap refs, weights, constants, inputs;
    Tolerance tol;
    {
        std::lock_guard lock(d_->m);
        refs = d_->sources.references();
        tol = d_->tolerance;
        if (explain) {  // the rerun's values; a query after every stop copies none of 70,000 weights
            weights = d_->sources.weightsForRun();
            constants = d_->sources.userConstants();
            inputs = d_->effectiveInputs;
        }
    }
    // The check's rows: they saw each node's own result (in local mode the
    // run then holds the reference's), and a second run keeps no dump.
    DivergenceInfo info = d_->checks.active() ? firstFailingRow(errorRows(), d_->checks.choice())
                                              : exec::firstDivergence(d_->session, refs, tol);
    // Against a reference file, in cumulative mode: what kind of difference it is.
    const bool fromFiles = !d_->checks.active() || d_->checks.choice().kind == ReferenceChoice::Kind::Files;
    if (!explain || !info.found || !fromFiles || d_->checks.mode() != ErrorMode::Cumulative || refs.empty())
        return info;
    const auto& node = d_->session.graph().nodes[static_cast<size_t>(info.node)];
    size_t output = 0;
    for (size_t k = 0; k < node.outputs.size(); ++k)
        if (node.outputs[k].name == info.tensor) output = k;
    try {
        const DivergenceExplanation e = explainDivergence(
            d_->session.graph(), weights, constants, inputs, info.node, output,
            [&refs](const std::string& name) {
                const at::Tensor* t = refs.find(name);
                return t ? *t : at::Tensor();
            },
            tol);
        info.kind = divergenceKindName(e.kind);
        info.explanation = e.words;
        info.message += "; that is " + e.words;
    } catch (const std::exception&) {
        // Not judged: the rerun could not reach the node (a value since removed).
    }
    return info;
}

void Debugger::setTolerance(Tolerance t) {
    {
        std::lock_guard lock(d_->m);
        d_->tolerance = t;
    }
    rebuildChecks();  // the verdicts depend on it
}

Tolerance Debugger::tolerance() const {
    std::lock_guard lock(d_->m);
    return d_->tolerance;
}

std::vector<double> Debugger::overlay(OverlayKind kind) const {
    const int64_t n = nodeCount();
    std::vector<double> v(n, kNaN);
    switch (kind) {
    case OverlayKind::None: break;
    case OverlayKind::Time:
        for (int64_t i = 0; i < n; ++i)
            if (d_->session.state(i) != NodeState::Pending) v[i] = d_->session.seconds(i);
        break;
    case OverlayKind::MaxAbs: {
        std::lock_guard lock(d_->m);
        v = d_->overlays.maxAbs();
        break;
    }
    case OverlayKind::NanInf: {
        std::lock_guard lock(d_->m);
        v = d_->overlays.nanInf();
        break;
    }
    default: v = errorOverlay(kind); break;
    }
    return v;
}

void Debugger::exportTensor(const std::string& name, const std::string& path, ValueSide side) const {
    at::Tensor t = d_->get(name, side);
    if (!t.defined()) throw std::runtime_error("'" + name + "' has no value to export");
    io::TensorMap m;
    m.insert(name, t.contiguous());
    writeOrThrow(m, path);
}

}  // namespace irscope::exec
