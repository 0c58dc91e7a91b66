// DebuggerValues (debugger_values.h) and the core's side of a values change:
// reading a value file in two phases (read, cancellable; bind, not), typed
// constants, the inputs' sources, and the tables' rows.
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
#include "core/exec/engine/runtime_checks.h"
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

}  // namespace

void writeTensorsOrThrow(const io::TensorMap& tensors, const std::string& path) {
    try {
        io::writeTensorFile(tensors, path);
    } catch (const std::exception& e) {
        throw std::runtime_error(e.what());
    }
}
at::Tensor tensorFromText(const ParsedValues& p, c10::ScalarType st) {
    at::Tensor t = p.allIntegers && at::isIntegralType(st, true)
                       ? at::tensor(p.integers.empty() ? std::vector<int64_t>{} : p.integers, at::kLong)
                       : at::tensor(p.values.empty() ? std::vector<double>{} : p.values, at::kDouble);
    t = t.reshape(p.shape);
    if (st == at::kBool) return t.ne(0);
    return t.to(st).clone();
}

void DebuggerCore::valuesChanged() {
    {
        std::lock_guard lock(m);
        overlays.reset(graph.nodes.size());
        refreshMissing();
    }
    rebuildChecks();  // a reference run starts from the new values
}

void DebuggerCore::load(ValueFile kind, const std::string& path, const DebuggerValues::LoadProgress& progress) {
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
        std::lock_guard lock(m);
        sources.setFile(kind, std::move(tensors), path);
    }
    reached(0.75);
    if (kind == ValueFile::Expected || kind == ValueFile::ReferenceIntermediates) {
        if (!checks.runsReference()) rebuildChecks();  // a second run does not read them
        reached(0.95);
        return;
    }
    switch (kind) {
    case ValueFile::Weights:
        session.setWeights(sources.weightsForRun());
        reached(0.85);
        valuesChanged();
        break;
    case ValueFile::Constants: applyConstants(); break;
    case ValueFile::Inputs: applyInputs(); break;
    default: break;
    }
    reached(0.95);
}

void DebuggerCore::applyConstants() {
    io::TensorMap merged;
    {
        std::lock_guard lock(m);
        merged = sources.userConstants();
    }
    session.setConstants(merged);
    valuesChanged();
}

void DebuggerCore::applyInputs() {
    io::TensorMap inputs;
    {
        std::lock_guard lock(m);
        effectiveInputs = sources.effectiveInputs();
        inputs = effectiveInputs;
    }
    session.setInputs(inputs);
    valuesChanged();
}

void DebuggerValues::loadRenamedReference(const std::string& path,
                                          const std::vector<std::pair<std::string, std::string>>& renames) {
    const io::TensorMap file = readOrThrow(path);
    io::TensorMap renamed;
    for (const auto& [theirs, ours] : renames)
        if (const io::NamedTensor* e = file.entry(theirs)) renamed.insert(ours, e->tensor, e->source);
    if (renamed.empty())
        throw std::runtime_error(path + ": none of its tensors is a value of a node both graphs share");
    {
        std::lock_guard lock(core_.m);
        core_.sources.setFile(ValueFile::ReferenceIntermediates, std::move(renamed), path);
    }
    if (!core_.checks.runsReference()) core_.rebuildChecks();
}

size_t DebuggerValues::setCastWeights(bool on) {
    size_t cast = 0;
    io::TensorMap weights;
    {
        std::lock_guard lock(core_.m);
        if (core_.sources.castWeights() == on) return core_.sources.castCount();
        cast = core_.sources.setCastWeights(on);
        weights = core_.sources.weightsForRun();
    }
    core_.session.setWeights(weights);
    core_.valuesChanged();
    return cast;
}

bool DebuggerValues::castWeights() const {
    std::lock_guard lock(core_.m);
    return core_.sources.castWeights();
}

std::string DebuggerValues::path(ValueFile kind) const {
    std::lock_guard lock(core_.m);
    return core_.sources.path(kind);
}

std::string DebuggerValues::enterConstant(const std::string& name, const std::string& text, const std::string& dtype) {
    std::string warning = typeConstant(name, text, dtype);
    return warning;
}

// Parses and records a typed constant without handing it to the session, so
// that restore() rebuilds the executor's registry once for all of them.
std::string DebuggerValues::typeConstant(const std::string& name, const std::string& text, const std::string& dtype) {
    const std::string original = core_.originalOf(name);
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
    const auto weightIndex = core_.index().weightIndex(original);
    if (const ir::TensorMeta* meta = weightIndex ? &core_.graph.weights[static_cast<size_t>(*weightIndex)] : nullptr) {
        const auto irType = scalarTypeOfIrDtype(meta->dtype);
        const std::string irDtype = irType ? io::scalarTypeName(*irType) : meta->dtype;
        if (!ir::sizesFit(meta->shape, t.sizes().vec()))
            warning = "'" + original + "' has shape " + ir::shapeToList(meta->shape) +
                      " in the IR; the value entered has " + indexText(t.sizes().vec());
        else if (meta->hasDtype() && irDtype != io::scalarTypeName(*st))
            warning =
                "'" + original + "' is " + irDtype + " in the IR; the value entered is " + io::scalarTypeName(*st);
    } else if (!core_.index().constant(original) && core_.index().originalName(name) == nullptr) {
        warning = "the IR has no weight or constant named '" + original + "'";
    }
    {
        std::lock_guard lock(core_.m);
        core_.sources.enter({original, text, dtype}, t);
    }
    core_.applyConstants();
    return warning;
}

void DebuggerValues::clearEnteredConstant(const std::string& name) {
    {
        std::lock_guard lock(core_.m);
        if (!core_.sources.clearEntered(core_.originalOf(name))) return;
    }
    core_.applyConstants();
}

std::vector<std::string> DebuggerValues::enteredConstants() const {
    std::lock_guard lock(core_.m);
    return core_.sources.enteredNames();
}

void DebuggerValues::saveConstants(const std::string& path) const {
    io::TensorMap m;
    {
        std::lock_guard lock(core_.m);
        for (const auto& e : core_.sources.userConstants()) m.insert(e.name, e.tensor.contiguous());
    }
    if (m.empty()) throw std::runtime_error("no constants to save: load a constants file or enter values first");
    writeTensorsOrThrow(m, path);
}

void DebuggerValues::setInputSource(const std::string& input, InputSource source) {
    {
        std::lock_guard lock(core_.m);
        core_.sources.setInputSource(input, source);
    }
    core_.applyInputs();
}

void DebuggerValues::setAllInputSources(InputSource source) {
    {
        std::lock_guard lock(core_.m);
        core_.sources.setAllInputSources(source);
    }
    core_.applyInputs();
}

void DebuggerValues::setRandomSeed(int64_t seed) {
    {
        std::lock_guard lock(core_.m);
        core_.sources.setSeed(seed);
    }
    core_.applyInputs();
}

int64_t DebuggerValues::randomSeed() const {
    std::lock_guard lock(core_.m);
    return core_.sources.seed();
}

ValueSettings DebuggerValues::settings() const {
    std::lock_guard lock(core_.m);
    return core_.sources.settings();
}

std::vector<std::string> DebuggerValues::restore(const ValueSettings& s) {
    std::vector<std::string> errors;
    {
        std::lock_guard lock(core_.m);
        core_.sources.setCastWeights(s.castWeights);  // before the state_dict loads, so it loads cast
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
    if (!s.entered.empty()) core_.applyConstants();
    {
        std::lock_guard lock(core_.m);
        for (const auto& [input, source] : s.inputSources)
            if (source != InputSource::File || !core_.sources.path(ValueFile::Inputs).empty())
                core_.sources.setInputSource(input, source);
        core_.sources.setSeed(s.seed);
    }
    core_.applyInputs();
    return errors;
}

std::vector<WeightRow> DebuggerValues::weightRows() const {
    std::lock_guard lock(core_.m);
    return exec::weightRows(core_.graph, core_.index(), core_.sources);
}

std::vector<InputRow> DebuggerValues::inputRows() const {
    std::lock_guard lock(core_.m);
    auto rows = exec::inputRows(core_.graph, core_.sources, core_.effectiveInputs);
    // An input a dynamic-shape program's ranges refuse: the refusal itself.
    for (const auto& m : core_.missing)
        if (!m.refusal.empty())
            for (auto& r : rows)
                if (r.name == m.name && r.problem.empty()) r.problem = m.refusal;
    // The last run stopped at one of the program's own checks: the inputs it
    // reads are what the program refuses, and their rows say so.
    if (const auto error = core_.session.error(); error && error->refusedInput) {
        const auto behind = inputsBehind(core_.index(), error->node);
        for (auto& r : rows)
            if (r.problem.empty() && std::find(behind.begin(), behind.end(), r.name) != behind.end())
                r.problem = "the program's check '" + error->nodeName + "' refuses it: " + error->message;
    }
    return rows;
}

std::vector<MissingRow> DebuggerValues::missing() const {
    std::lock_guard lock(core_.m);
    return missingRows(core_.missing, core_.sources);
}

void DebuggerValues::load(ValueFile kind, const std::string& path, const LoadProgress& progress) {
    core_.load(kind, path, progress);
}

}  // namespace irscope::exec
