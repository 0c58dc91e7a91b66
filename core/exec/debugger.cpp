#include "core/exec/debugger.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <functional>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "core/exec/attr_convert.h"
#include "core/exec/executor.h"
#include "core/exec/session.h"
#include "core/exec/verify.h"
#include "core/io/tensor_file.h"
#include "core/io/tensor_map.h"
#include "core/io/weight_binding.h"
#include "core/ir/graph_index.h"

namespace irscope::exec {

std::string irDtypeName(c10::ScalarType t);   // verify.cpp

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string listText(const std::vector<int64_t>& shape) { return indexText(shape); }

std::string canonicalDtype(const std::string& irDtype) {
    auto st = scalarTypeOfIrDtype(irDtype);
    return st ? irDtypeName(*st) : irDtype;
}

bool shapeKnown(const std::vector<int64_t>& shape) {
    return std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d >= 0; });
}

char prefixKind(const std::string& placeholder) {
    if (placeholder.size() > 2 && placeholder[1] == '_' &&
        (placeholder[0] == 'p' || placeholder[0] == 'b' || placeholder[0] == 'c'))
        return placeholder[0];
    return '?';
}

// A view of the tensor as [lead..., rows, cols].
at::Tensor as2d(const at::Tensor& t, const std::vector<int64_t>& lead) {
    at::Tensor x = t;
    if (x.dim() == 0) return x.reshape({1, 1});
    if (x.dim() == 1) return x.unsqueeze(1);
    size_t k = 0;
    while (x.dim() > 2) {
        const int64_t size = x.size(0);
        int64_t i = k < lead.size() ? lead[k] : 0;
        i = std::clamp<int64_t>(i, 0, std::max<int64_t>(size - 1, 0));
        if (size == 0) return x.reshape({0, 0});
        x = x.select(0, i);
        ++k;
    }
    return x;
}

at::Tensor realOf(const at::Tensor& t) { return t.is_complex() ? t.abs() : t; }

// Floating copy for statistics: float for <= 32-bit floats, double otherwise.
at::Tensor statsView(const at::Tensor& t) {
    at::Tensor x = realOf(t);
    if (x.scalar_type() == at::kFloat || x.scalar_type() == at::kDouble) return x;
    if (at::isFloatingType(x.scalar_type())) return x.to(at::kFloat);
    return x.to(at::kDouble);
}

at::Tensor makeTensor(const ParsedValues& p, c10::ScalarType st) {
    at::Tensor t;
    if (p.allIntegers && (at::isIntegralType(st, true))) {
        t = at::tensor(p.integers.empty() ? std::vector<int64_t>{} : p.integers, at::kLong);
    } else {
        t = at::tensor(p.values.empty() ? std::vector<double>{} : p.values, at::kDouble);
    }
    t = t.reshape(p.shape);
    if (st == at::kBool) return t.ne(0);
    return t.to(st).clone();
}

}  // namespace

const char* weightStatusName(WeightStatus s) {
    switch (s) {
    case WeightStatus::Loaded: return "loaded";
    case WeightStatus::FromIr: return "IR constant";
    case WeightStatus::FromConstants: return "constants file";
    case WeightStatus::Entered: return "entered";
    case WeightStatus::Missing: return "missing";
    case WeightStatus::ShapeMismatch: return "shape mismatch";
    case WeightStatus::DTypeMismatch: return "dtype mismatch";
    case WeightStatus::UnusedInFile: return "unused in file";
    }
    return "?";
}

const char* inputSourceName(InputSource s) {
    switch (s) {
    case InputSource::Random: return "random";
    case InputSource::Zeros: return "zeros";
    case InputSource::Ones: return "ones";
    case InputSource::File: return "file";
    }
    return "?";
}

const std::vector<std::string>& enterableDtypes() {
    static const std::vector<std::string> d{"float32", "float64", "float16", "bfloat16", "int64",
                                            "int32",   "int16",   "int8",    "uint8",    "bool"};
    return d;
}

std::string formatBytes(size_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    if (u == 0) std::snprintf(buf, sizeof buf, "%zu B", bytes);
    else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
    return buf;
}

// ------------------------------------------------------------------ parsing

ParsedValues parseNestedList(const std::string& text) {
    ParsedValues out;
    size_t pos = 0;
    auto fail = [&](const std::string& why) {
        throw std::invalid_argument("at character " + std::to_string(pos + 1) + ": " + why);
    };
    auto skip = [&] {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
    };
    std::vector<int64_t> shape;   // discovered from the first path down
    bool shapeFixed = false;
    // Returns the length of the list parsed at `depth`.
    std::function<void(size_t)> value = [&](size_t depth) {
        skip();
        if (pos < text.size() && (text[pos] == '[' || text[pos] == '(')) {
            const char close = text[pos] == '[' ? ']' : ')';
            ++pos;
            int64_t n = 0;
            skip();
            if (pos < text.size() && text[pos] == close) {
                ++pos;
            } else {
                while (true) {
                    value(depth + 1);
                    ++n;
                    skip();
                    if (pos < text.size() && text[pos] == ',') {
                        ++pos;
                        skip();
                        if (pos < text.size() && text[pos] == close) {   // trailing comma
                            ++pos;
                            break;
                        }
                        continue;
                    }
                    if (pos < text.size() && text[pos] == close) {
                        ++pos;
                        break;
                    }
                    fail(pos < text.size() ? std::string("expected ',' or '") + close + "', found '" + text[pos] + "'"
                                           : std::string("missing '") + close + "'");
                }
            }
            if (n == 0 && !shapeFixed) {
                shapeFixed = true;
                shape.resize(depth + 1, -1);
            }
            if (depth >= shape.size()) fail("ragged list: a list where a number was expected");
            if (shape[depth] < 0) shape[depth] = n;
            else if (shape[depth] != n)
                fail("ragged list: " + std::to_string(n) + " elements where " + std::to_string(shape[depth]) +
                     " were expected");
            return;
        }
        // A number.
        if (!shapeFixed) {
            shapeFixed = true;
            shape.resize(depth, -1);
        }
        if (depth != shape.size()) fail("ragged list: a number where a list was expected");
        const size_t start = pos;
        while (pos < text.size() && (std::isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '.' ||
                                     text[pos] == '-' || text[pos] == '+' || text[pos] == '_'))
            ++pos;
        std::string tok = text.substr(start, pos - start);
        if (tok.empty()) {
            pos = start;
            fail(start < text.size() ? std::string("unexpected '") + text[start] + "'" : "a value is missing");
        }
        std::string low = tok;
        std::transform(low.begin(), low.end(), low.begin(), [](unsigned char c) { return std::tolower(c); });
        double v;
        bool isInt = false;
        int64_t iv = 0;
        if (low == "true") { v = 1; isInt = true; iv = 1; }
        else if (low == "false") { v = 0; isInt = true; iv = 0; }
        else if (low == "nan" || low == "+nan" || low == "-nan") v = kNaN;
        else if (low == "inf" || low == "+inf" || low == "infinity") v = std::numeric_limits<double>::infinity();
        else if (low == "-inf" || low == "-infinity") v = -std::numeric_limits<double>::infinity();
        else {
            std::string clean;
            for (char c : tok)
                if (c != '_') clean += c;
            char* end = nullptr;
            errno = 0;
            long long ll = std::strtoll(clean.c_str(), &end, 10);
            if (end && *end == 0 && errno == 0 && !clean.empty()) {
                isInt = true;
                iv = ll;
                v = static_cast<double>(ll);
            } else {
                end = nullptr;
                v = std::strtod(clean.c_str(), &end);
                if (!end || *end != 0) {
                    pos = start;
                    fail("'" + tok + "' is not a number");
                }
            }
        }
        out.values.push_back(v);
        if (isInt) out.integers.push_back(iv);
        else out.allIntegers = false;
    };
    value(0);
    skip();
    if (pos != text.size()) fail(std::string("unexpected '") + text[pos] + "' after the value");
    for (auto& d : shape)
        if (d < 0) d = 0;
    out.shape = shape;
    if (!out.allIntegers) out.integers.clear();
    return out;
}

// ------------------------------------------------------------------ Impl

struct Debugger::Impl {
    Impl(const ir::Graph& g, RetentionPolicy p) : graph(g), session(g, p) {}

    const ir::Graph& graph;
    Session session;
    mutable std::mutex m;   // everything below

    io::TensorMap weights, constantsFile, inputsFile, expected, intermediates;
    std::string weightsPath, constantsPath, inputsPath, expectedPath, intermediatesPath;
    std::map<std::string, at::Tensor> entered;   // original name -> typed value
    std::vector<std::string> enteredOrder;
    io::TensorMap userConstants;                 // constantsFile overridden by entered
    std::vector<InputSource> inputSources;
    int64_t seed = 0;
    io::TensorMap effectiveInputs;
    Tolerance tol{1e-5, 1e-8};

    std::vector<MissingValue> missing;
    std::unordered_set<std::string> missingNodes;
    // Per node, filled as nodes run: max |x| over outputs, NaN/Inf present.
    std::vector<double> maxAbs, nanInf;
    mutable std::vector<double> diff;
    mutable std::vector<char> diffKnown;

    const ir::GraphIndex& index() const { return session.executor().index(); }

    std::string originalOf(const std::string& name) const {
        if (const std::string* o = index().originalName(name)) return *o;
        return name;
    }

    // Before any state_dict is loaded, every parameter would be "missing": the
    // nodes are marked only for values a state_dict cannot supply.
    bool awaitsStateDict(const MissingValue& mv) const {
        return weightsPath.empty() && (mv.kind == "parameter" || mv.kind == "buffer" || mv.kind == "weight");
    }

    void refreshMissing() {
        missing = session.preflight();
        missingNodes.clear();
        for (const auto& mv : missing)
            if (!awaitsStateDict(mv))
                for (const auto& n : mv.nodes) missingNodes.insert(n);
    }
    void clearStats() {
        const size_t n = graph.nodes.size();
        maxAbs.assign(n, kNaN);
        nanInf.assign(n, kNaN);
        diff.assign(n, kNaN);
        diffKnown.assign(n, 0);
    }

    // Actual value: the session's (node outputs, inputs, registry), else any loaded file entry.
    at::Tensor actual(const std::string& name) const {
        at::Tensor t;
        if (session.value(name, t)) return t;
        std::lock_guard lock(m);
        auto it = entered.find(name);
        if (it != entered.end()) return it->second;
        for (const io::TensorMap* map : {&userConstants, &weights, &inputsFile})
            if (const at::Tensor* f = map->find(name)) return *f;
        return {};
    }
    at::Tensor reference(const std::string& name) const {
        std::lock_guard lock(m);
        if (const at::Tensor* f = intermediates.find(name)) return *f;
        if (const at::Tensor* f = expected.find(name)) return *f;
        return {};
    }
    at::Tensor get(const std::string& name, ValueSide side) const {
        if (side == ValueSide::Actual) return actual(name);
        if (side == ValueSide::Reference) return reference(name);
        at::Tensor a = actual(name), r = reference(name);
        if (!a.defined() || !r.defined() || !a.sizes().equals(r.sizes())) return {};
        at::NoGradGuard g;
        return realOf(a).to(at::kDouble) - realOf(r).to(at::kDouble);
    }

    // The 2-D slice at `lead` that `side` shows, cut down by `cut` (narrow /
    // stride) before anything is converted: a Difference block subtracts the
    // two cut slices, never the whole tensors.
    at::Tensor slice(const std::string& name, ValueSide side, const std::vector<int64_t>& lead,
                     const std::function<at::Tensor(const at::Tensor&)>& cut) const {
        if (side != ValueSide::Difference) {
            at::Tensor t = get(name, side);
            return t.defined() ? cut(as2d(t, lead)) : t;
        }
        at::Tensor a = actual(name), r = reference(name);
        if (!a.defined() || !r.defined() || !a.sizes().equals(r.sizes())) return {};
        at::NoGradGuard g;
        return realOf(cut(as2d(a, lead))).to(at::kDouble) - realOf(cut(as2d(r, lead))).to(at::kDouble);
    }

    void recordStats(int64_t node) {
        const auto& outs = session.executor().outputsOf(node);
        double mx = kNaN, bad = 0;
        for (const auto& o : outs) {
            if (!o.defined() || o.numel() == 0) continue;
            at::NoGradGuard g;
            at::Tensor x = realOf(o);
            if (x.scalar_type() == at::kBool) x = x.to(at::kByte);
            if (at::isFloatingType(x.scalar_type())) {
                if (!x.isfinite().all().item<bool>()) bad = 1;
                at::Tensor a = x.abs();
                at::Tensor fin = bad ? a.masked_select(a.isfinite()) : a;
                if (fin.numel()) {
                    double v = fin.max().item<double>();
                    mx = std::isnan(mx) ? v : std::max(mx, v);
                }
            } else {
                double v = x.abs().max().item<double>();
                mx = std::isnan(mx) ? v : std::max(mx, v);
            }
        }
        std::lock_guard lock(m);
        if (node >= 0 && node < static_cast<int64_t>(maxAbs.size())) {
            maxAbs[node] = mx;
            nanInf[node] = outs.empty() ? kNaN : bad;
        }
    }

    io::TensorMap randomInputs() const {
        // Exactly `irscope run --random-inputs SEED`.
        at::manual_seed(static_cast<uint64_t>(seed));
        io::TensorMap m;
        for (const auto& in : graph.graphInputs) {
            auto st = scalarTypeOfIrDtype(in.dtype).value_or(at::kFloat);
            std::vector<int64_t> shape = in.shape;
            for (auto& d : shape) d = std::max<int64_t>(d, 1);
            at::Tensor t;
            if (st == at::kBool) t = at::randint(0, 2, shape).to(at::kBool);
            else if (at::isIntegralType(st, false)) t = at::randint(0, 10, shape, at::TensorOptions().dtype(st));
            else t = at::randn(shape).to(st);
            m.insert(in.name, t, "random");
        }
        return m;
    }
};

// ------------------------------------------------------------------ Debugger

Debugger::Debugger(const ir::Graph& graph, RetentionPolicy policy) : d_(std::make_unique<Impl>(graph, policy)) {
    d_->inputSources.assign(graph.graphInputs.size(), InputSource::Random);
    d_->clearStats();
    applyInputs();
}

Debugger::~Debugger() = default;

const ir::Graph& Debugger::graph() const { return d_->graph; }
Session& Debugger::session() { return d_->session; }

namespace {
io::TensorMap readOrThrow(const std::string& path) {
    try {
        return io::readTensorFile(path);
    } catch (const std::exception& e) {
        std::string w = e.what();
        if (w.find(path) == std::string::npos) w = path + ": " + w;
        throw std::runtime_error(w);
    }
}
}  // namespace

void Debugger::invalidateCaches() {
    done_ = 0;
    cursor_ = 0;
    std::lock_guard lock(d_->m);
    d_->clearStats();
}

void Debugger::loadWeights(const std::string& path) {
    io::TensorMap m = readOrThrow(path);
    {
        std::lock_guard lock(d_->m);
        d_->weights = std::move(m);
        d_->weightsPath = path;
    }
    d_->session.setWeights(d_->weights);
    invalidateCaches();
    std::lock_guard lock(d_->m);
    d_->refreshMissing();
}

void Debugger::loadConstants(const std::string& path) {
    io::TensorMap m = readOrThrow(path);
    {
        std::lock_guard lock(d_->m);
        d_->constantsFile = std::move(m);
        d_->constantsPath = path;
    }
    applyConstants();
}

void Debugger::loadInputs(const std::string& path) {
    io::TensorMap m = readOrThrow(path);
    {
        std::lock_guard lock(d_->m);
        d_->inputsFile = std::move(m);
        d_->inputsPath = path;
        std::fill(d_->inputSources.begin(), d_->inputSources.end(), InputSource::File);
    }
    applyInputs();
}

void Debugger::loadExpected(const std::string& path) {
    io::TensorMap m = readOrThrow(path);
    std::lock_guard lock(d_->m);
    d_->expected = std::move(m);
    d_->expectedPath = path;
    std::fill(d_->diffKnown.begin(), d_->diffKnown.end(), 0);
}

void Debugger::loadReferenceIntermediates(const std::string& path) {
    io::TensorMap m = readOrThrow(path);
    std::lock_guard lock(d_->m);
    d_->intermediates = std::move(m);
    d_->intermediatesPath = path;
    std::fill(d_->diffKnown.begin(), d_->diffKnown.end(), 0);
}

std::string Debugger::weightsPath() const { std::lock_guard l(d_->m); return d_->weightsPath; }
std::string Debugger::constantsPath() const { std::lock_guard l(d_->m); return d_->constantsPath; }
std::string Debugger::inputsPath() const { std::lock_guard l(d_->m); return d_->inputsPath; }
std::string Debugger::expectedPath() const { std::lock_guard l(d_->m); return d_->expectedPath; }
std::string Debugger::intermediatesPath() const { std::lock_guard l(d_->m); return d_->intermediatesPath; }

void Debugger::applyConstants() {
    io::TensorMap merged;
    {
        std::lock_guard lock(d_->m);
        for (const auto& e : d_->constantsFile) merged.insert(e.name, e.tensor, e.source);
        for (const auto& name : d_->enteredOrder) merged.insert(name, d_->entered.at(name), "entered");
        d_->userConstants = merged;
    }
    d_->session.setConstants(merged);
    invalidateCaches();
    std::lock_guard lock(d_->m);
    d_->refreshMissing();
}

void Debugger::applyInputs() {
    io::TensorMap eff;
    {
        std::lock_guard lock(d_->m);
        const auto& g = d_->graph;
        const bool anyRandom = std::find(d_->inputSources.begin(), d_->inputSources.end(), InputSource::Random) !=
                               d_->inputSources.end();
        io::TensorMap random = anyRandom ? d_->randomInputs() : io::TensorMap{};
        for (size_t i = 0; i < g.graphInputs.size(); ++i) {
            const auto& in = g.graphInputs[i];
            auto st = scalarTypeOfIrDtype(in.dtype).value_or(at::kFloat);
            std::vector<int64_t> shape = in.shape;
            for (auto& dd : shape) dd = std::max<int64_t>(dd, 1);
            switch (d_->inputSources[i]) {
            case InputSource::Random: eff.insert(in.name, *random.find(in.name), "random"); break;
            case InputSource::Zeros: eff.insert(in.name, at::zeros(shape, at::TensorOptions().dtype(st)), "zeros"); break;
            case InputSource::Ones: eff.insert(in.name, at::ones(shape, at::TensorOptions().dtype(st)), "ones"); break;
            case InputSource::File:
                if (const auto* e = d_->inputsFile.entry(in.name)) eff.insert(in.name, e->tensor, e->source);
                break;
            }
        }
        d_->effectiveInputs = eff;
    }
    d_->session.setInputs(eff);
    invalidateCaches();
    std::lock_guard lock(d_->m);
    d_->refreshMissing();
}

std::string Debugger::enterConstant(const std::string& name, const std::string& text, const std::string& dtype) {
    const std::string original = d_->originalOf(name);
    auto st = scalarTypeOfIrDtype(dtype);
    if (!st) throw std::invalid_argument("unknown dtype '" + dtype + "'");
    ParsedValues p = parseNestedList(text);
    at::Tensor t;
    try {
        t = makeTensor(p, *st);
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("cannot make a ") + dtype + " tensor: " + e.what());
    }
    std::string warning;
    const auto weightIndex = d_->index().weightIndex(original);
    if (const ir::TensorMeta* meta = weightIndex ? &d_->graph.weights[static_cast<size_t>(*weightIndex)] : nullptr) {
        if (shapeKnown(meta->shape) && meta->shape != t.sizes().vec())
            warning = "'" + original + "' has shape " + listText(meta->shape) + " in the IR; the value entered has " +
                      listText(t.sizes().vec());
        else if (meta->hasDtype() && canonicalDtype(meta->dtype) != irDtypeName(*st))
            warning = "'" + original + "' is " + canonicalDtype(meta->dtype) + " in the IR; the value entered is " +
                      irDtypeName(*st);
    } else if (!d_->index().constant(original) && d_->index().originalName(name) == nullptr) {
        warning = "the IR has no weight or constant named '" + original + "'";
    }
    {
        std::lock_guard lock(d_->m);
        if (!d_->entered.count(original)) d_->enteredOrder.push_back(original);
        d_->entered[original] = t;
    }
    applyConstants();
    return warning;
}

void Debugger::clearEnteredConstant(const std::string& name) {
    const std::string original = d_->originalOf(name);
    {
        std::lock_guard lock(d_->m);
        if (!d_->entered.erase(original)) return;
        d_->enteredOrder.erase(std::remove(d_->enteredOrder.begin(), d_->enteredOrder.end(), original),
                               d_->enteredOrder.end());
    }
    applyConstants();
}

std::vector<std::string> Debugger::enteredConstants() const {
    std::lock_guard lock(d_->m);
    return d_->enteredOrder;
}

void Debugger::saveConstants(const std::string& path) const {
    io::TensorMap m;
    {
        std::lock_guard lock(d_->m);
        for (const auto& e : d_->userConstants) m.insert(e.name, e.tensor.contiguous());
    }
    if (m.empty()) throw std::runtime_error("no constants to save: load a constants file or enter values first");
    try {
        io::writeTensorFile(m, path);
    } catch (const std::exception& e) {
        throw std::runtime_error(e.what());
    }
}

void Debugger::setInputSource(const std::string& input, InputSource source) {
    {
        std::lock_guard lock(d_->m);
        for (size_t i = 0; i < d_->graph.graphInputs.size(); ++i)
            if (d_->graph.graphInputs[i].name == input) d_->inputSources[i] = source;
    }
    applyInputs();
}

void Debugger::setAllInputSources(InputSource source) {
    {
        std::lock_guard lock(d_->m);
        std::fill(d_->inputSources.begin(), d_->inputSources.end(), source);
    }
    applyInputs();
}

void Debugger::setRandomSeed(int64_t seed) {
    {
        std::lock_guard lock(d_->m);
        d_->seed = seed;
    }
    applyInputs();
}

int64_t Debugger::randomSeed() const {
    std::lock_guard lock(d_->m);
    return d_->seed;
}

// ------------------------------------------------------------------ tables

std::vector<WeightRow> Debugger::weightRows() const {
    std::lock_guard lock(d_->m);
    const auto& g = d_->graph;
    const auto& idx = d_->index();
    io::WeightBinding binding = io::bindWeights(g, d_->weights);
    std::unordered_map<std::string, const io::WeightProblem*> problemOf;
    for (const auto& p : binding.problems)
        if (p.kind != io::WeightProblem::Kind::Unexpected && !problemOf.count(p.key)) problemOf[p.key] = &p;
    std::unordered_map<std::string, const io::BoundWeight*> boundOf;
    for (const auto& b : binding.bound) boundOf[b.key] = &b;

    std::vector<std::string> originals;
    std::unordered_set<std::string> seen;
    for (const auto& w : g.weights)
        if (seen.insert(w.name).second) originals.push_back(w.name);
    for (const auto& [ph, orig] : g.weightNameMapping)
        if (seen.insert(orig).second) originals.push_back(orig);

    std::vector<WeightRow> rows;
    for (const auto& orig : originals) {
        WeightRow r;
        r.originalName = orig;
        r.placeholders = idx.placeholdersOf(orig);
        r.placeholder = r.placeholders.empty() ? std::string() : r.placeholders.front();
        r.kind = prefixKind(r.placeholder);
        const auto wi = idx.weightIndex(orig);   // index lookups: linear over 70,000 weights, not quadratic
        if (wi) {
            const ir::TensorMeta& meta = g.weights[static_cast<size_t>(*wi)];
            r.irShape = meta.shape;
            r.irDtype = canonicalDtype(meta.dtype);
            r.used = !idx.usesOfWeight(*wi).empty();
        }
        const bool inFile = boundOf.count(orig) != 0;
        r.constantLike = r.kind == 'c' || idx.constant(orig) != nullptr || (r.kind == 'b' && !inFile);

        // Effective value in torch_ir's order: state_dict, then IR constants < file < entered.
        at::Tensor value;
        auto ent = d_->entered.find(orig);
        const io::NamedTensor* fileConst = d_->constantsFile.entry(orig);
        const ir::ConstantValue* irConst = idx.constant(orig);
        if (ent != d_->entered.end()) {
            value = ent->second;
            r.source = "entered";
            r.status = WeightStatus::Entered;
        } else if (fileConst) {
            value = fileConst->tensor;
            r.source = fileConst->source.empty() ? d_->constantsPath : fileConst->source;
            r.status = WeightStatus::FromConstants;
        } else if (irConst && irConst->usable()) {
            try {
                value = constantToTensor(orig, *irConst);
                r.source = "IR constants";
                r.status = WeightStatus::FromIr;
            } catch (const std::exception& e) {
                r.message = e.what();
            }
        }
        if (!value.defined() && inFile) {
            value = boundOf[orig]->tensor;
            r.source = boundOf[orig]->source;
            r.status = WeightStatus::Loaded;
            if (auto it = problemOf.find(orig); it != problemOf.end()) {
                r.status = it->second->kind == io::WeightProblem::Kind::ShapeMismatch ? WeightStatus::ShapeMismatch
                                                                                      : WeightStatus::DTypeMismatch;
                r.message = it->second->message;
            }
        }
        if (value.defined()) {
            r.loadedShape = value.sizes().vec();
            r.loadedDtype = irDtypeName(value.scalar_type());
            if (r.status != WeightStatus::Loaded && r.status != WeightStatus::ShapeMismatch &&
                r.status != WeightStatus::DTypeMismatch) {
                if (shapeKnown(r.irShape) && !r.irDtype.empty() && r.irShape != r.loadedShape) {
                    r.message = orig + ": shape " + listText(r.irShape) + " in the IR, " + listText(r.loadedShape) +
                                " from " + r.source;
                    r.status = WeightStatus::ShapeMismatch;
                } else if (!r.irDtype.empty() && r.irDtype != r.loadedDtype) {
                    r.message = orig + ": dtype " + r.irDtype + " in the IR, " + r.loadedDtype + " from " + r.source;
                    r.status = WeightStatus::DTypeMismatch;
                }
            }
        } else {
            r.status = WeightStatus::Missing;
            if (r.constantLike)
                r.message = (r.kind == 'b' ? "non-persistent buffer '" : "constant '") + orig +
                            "' has no value: enter it in the Constants dock or load a constants file";
            else
                r.message = "'" + orig + "' is not in the state_dict" +
                            (d_->weightsPath.empty() ? std::string(" (no weights loaded)") : " " + d_->weightsPath);
        }
        rows.push_back(std::move(r));
    }
    for (const auto& p : binding.problems) {
        if (p.kind != io::WeightProblem::Kind::Unexpected) continue;
        WeightRow r;
        r.originalName = p.key;
        r.status = WeightStatus::UnusedInFile;
        r.source = p.source;
        if (const at::Tensor* t = d_->weights.find(p.key)) {
            r.loadedShape = t->sizes().vec();
            r.loadedDtype = irDtypeName(t->scalar_type());
        }
        r.message = p.message;
        rows.push_back(std::move(r));
    }
    for (const auto& e : d_->constantsFile) {
        if (seen.count(e.name) || idx.originalName(e.name)) continue;
        WeightRow r;
        r.originalName = e.name;
        r.constantLike = true;
        r.status = WeightStatus::UnusedInFile;
        r.source = e.source;
        r.loadedShape = e.tensor.sizes().vec();
        r.loadedDtype = irDtypeName(e.tensor.scalar_type());
        r.message = "'" + e.name + "' in " + e.source + " is not a constant of the IR";
        rows.push_back(std::move(r));
    }
    return rows;
}

std::vector<InputRow> Debugger::inputRows() const {
    std::lock_guard lock(d_->m);
    std::vector<InputRow> rows;
    const auto& g = d_->graph;
    for (size_t i = 0; i < g.graphInputs.size(); ++i) {
        const auto& in = g.graphInputs[i];
        InputRow r;
        r.name = in.name;
        r.irShape = in.shape;
        r.irDtype = canonicalDtype(in.dtype);
        r.source = d_->inputSources[i];
        if (const at::Tensor* t = d_->effectiveInputs.find(in.name)) {
            r.loadedShape = t->sizes().vec();
            r.loadedDtype = irDtypeName(t->scalar_type());
            if (shapeKnown(r.irShape) && r.irShape != r.loadedShape)
                r.problem = "shape " + listText(r.loadedShape) + ", the IR expects " + listText(r.irShape);
            else if (!r.irDtype.empty() && r.irDtype != r.loadedDtype)
                r.problem = "dtype " + r.loadedDtype + ", the IR expects " + r.irDtype;
        } else if (r.source == InputSource::File) {
            r.problem = d_->inputsPath.empty() ? "no inputs file loaded" : "not in " + d_->inputsPath;
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

std::vector<MissingRow> Debugger::missing() const {
    std::lock_guard lock(d_->m);
    std::vector<MissingRow> out;
    for (const auto& mv : d_->missing) {
        MissingRow r;
        r.value = mv;
        const std::string what = mv.originalName.empty() ? mv.name : mv.originalName;
        if (mv.kind == "input")
            r.fix = "choose a source for input '" + mv.name + "' in the Inputs dock (random, zeros, ones) or load an inputs file";
        else if (mv.kind == "constant")
            r.fix = "enter the value of constant '" + what +
                    "' in the Constants dock (e.g. [1, 0, 1, 0] float32) or load a constants file";
        else if (mv.kind == "buffer" && !d_->weightsPath.empty() && !d_->weights.contains(what))
            r.fix = "'" + what + "' is a non-persistent buffer (not in the state_dict): enter it in the Constants dock or load a constants file";
        else
            r.fix = "load a state_dict that has '" + what + "' (Weights dock or --weights FILE)";
        r.text = formatMissingValue(mv) + ": " + r.fix;
        r.awaitsStateDict = d_->awaitsStateDict(mv);
        out.push_back(std::move(r));
    }
    return out;
}

// ------------------------------------------------------------------ run control

void Debugger::reset() {
    d_->session.reset();
    invalidateCaches();
}

RunStatus Debugger::finishRun(const RunResult& r) {
    RunStatus s;
    s.reason = r.reason;
    s.lastNode = r.lastNode;
    const int64_t c = d_->session.cursor();
    cursor_ = c;
    done_ = c;
    const auto& nodes = d_->graph.nodes;
    auto nameOf = [&](int64_t i) { return i >= 0 && i < (int64_t)nodes.size() ? nodes[i].name : std::string("?"); };
    switch (r.reason) {
    case StopReason::Finished: s.message = "finished: " + std::to_string(c) + "/" + std::to_string(nodes.size()) + " nodes ran"; break;
    case StopReason::Stepped: s.message = "ran '" + nameOf(r.lastNode) + "'"; break;
    case StopReason::ReachedTarget: s.message = "stopped after '" + nameOf(r.lastNode) + "'"; break;
    case StopReason::Breakpoint: s.message = "breakpoint: stopped before '" + nameOf(c) + "'"; break;
    case StopReason::Cancelled: s.message = "stopped before '" + nameOf(c) + "'"; break;
    case StopReason::Failed:
        s.failed = true;
        if (r.error) s.message = "node '" + r.error->nodeName + "' (" + r.error->opType + ") failed: " + r.error->message;
        else s.message = "failed";
        break;
    }
    return s;
}

RunStatus Debugger::runLoop(int64_t target, StopReason onTarget) {
    cancel_ = false;
    Session& s = d_->session;
    const int64_t n = s.nodeCount();
    const int64_t start = s.cursor();
    RunResult last;
    if (start >= n) {
        last.reason = StopReason::Finished;
        return finishRun(last);
    }
    if (auto e = s.error()) {
        last.reason = StopReason::Failed;
        last.error = e;
        last.lastNode = e->node;
        return finishRun(last);
    }
    while (true) {
        const int64_t c = s.cursor();
        if (c >= n) {
            last.reason = StopReason::Finished;
            break;
        }
        if (c != start && s.hasBreakpoint(c)) {
            last.reason = StopReason::Breakpoint;
            break;
        }
        if (cancel_.exchange(false)) {
            last.reason = StopReason::Cancelled;
            break;
        }
        RunResult r = s.step();
        if (r.reason == StopReason::Failed) {
            last = r;
            break;
        }
        d_->recordStats(r.lastNode);
        cursor_ = s.cursor();
        done_ = s.cursor();
        last.lastNode = r.lastNode;
        if (r.lastNode >= target) {
            last.reason = s.cursor() >= n && onTarget != StopReason::Stepped ? StopReason::Finished : onTarget;
            break;
        }
    }
    return finishRun(last);
}

RunStatus Debugger::step() { return runLoop(d_->session.cursor(), StopReason::Stepped); }
RunStatus Debugger::runTo(int64_t node) { return runLoop(node, StopReason::ReachedTarget); }
RunStatus Debugger::runToEnd() { return runLoop(nodeCount() - 1, StopReason::Finished); }
void Debugger::cancel() {
    cancel_ = true;
    d_->session.cancel();
}
void Debugger::setBreakpoint(int64_t node, bool on) { d_->session.setBreakpoint(node, on); }
bool Debugger::hasBreakpoint(int64_t node) const { return d_->session.hasBreakpoint(node); }
std::vector<int64_t> Debugger::breakpoints() const { return d_->session.breakpoints(); }
void Debugger::setRetention(RetentionPolicy policy) { d_->session.setRetention(policy); }
RetentionPolicy Debugger::retention() const { return d_->session.retention(); }
void Debugger::setPinned(const std::string& tensor, bool pinned) { d_->session.setPinned(tensor, pinned); }

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
    if (ir::isWeightKind(kind)) {
        std::string s = tensorKindName(kind);
        if (const std::string* o = idx.originalName(name)) s += " '" + *o + "'";
        return s;
    }
    return {};
}

std::optional<ValueSummary> Debugger::summary(const std::string& name, ValueSide side) const {
    at::Tensor t = d_->get(name, side);
    if (!t.defined()) return std::nullopt;
    ValueSummary s;
    s.base = summarize(t);
    if (at::isFloatingType(t.scalar_type()) && t.numel()) {
        at::NoGradGuard g;
        const double inf = std::numeric_limits<double>::infinity();
        s.posInfs = t.eq(inf).sum().item<int64_t>();
        s.negInfs = t.eq(-inf).sum().item<int64_t>();
    }
    return s;
}

std::optional<SliceGeometry> Debugger::geometry(const std::string& name, ValueSide side) const {
    // Shape and dtype only: a Difference is not computed here.
    at::Tensor t = d_->get(name, side == ValueSide::Difference ? ValueSide::Actual : side);
    if (!t.defined()) return std::nullopt;
    SliceGeometry g;
    g.shape = t.sizes().vec();
    if (side == ValueSide::Difference) {
        at::Tensor r = d_->reference(name);
        if (!r.defined() || !r.sizes().equals(t.sizes())) return std::nullopt;
        g.dtype = "float64";
    } else {
        g.dtype = irDtypeName(t.scalar_type());
        g.integral = at::isIntegralType(t.scalar_type(), true);
    }
    const int64_t nd = t.dim();
    if (nd == 0) g.rows = g.cols = 1;
    else if (nd == 1) {
        g.rows = g.shape[0];
        g.cols = 1;
    } else {
        g.lead.assign(g.shape.begin(), g.shape.end() - 2);
        g.rows = g.shape[nd - 2];
        g.cols = g.shape[nd - 1];
    }
    return g;
}

std::vector<double> Debugger::block(const std::string& name, const std::vector<int64_t>& lead, int64_t row0,
                                    int64_t col0, int64_t nrows, int64_t ncols, ValueSide side) const {
    at::NoGradGuard g;
    at::Tensor b = d_->slice(name, side, lead, [&](const at::Tensor& s) {
        const int64_t R = s.size(0), C = s.size(1);
        const int64_t r0 = std::clamp<int64_t>(row0, 0, R), c0 = std::clamp<int64_t>(col0, 0, C);
        return s.narrow(0, r0, std::clamp<int64_t>(nrows, 0, R - r0)).narrow(1, c0, std::clamp<int64_t>(ncols, 0, C - c0));
    });
    if (!b.defined() || b.numel() == 0) return {};
    b = realOf(b).to(at::kDouble).contiguous();
    const double* p = b.data_ptr<double>();
    return std::vector<double>(p, p + b.numel());
}

std::optional<Histogram> Debugger::histogram(const std::string& name, int bins, ValueSide side) const {
    at::Tensor t = d_->get(name, side);
    if (!t.defined()) return std::nullopt;
    at::NoGradGuard g;
    bins = std::max(bins, 1);
    Histogram h;
    at::Tensor x = statsView(t).reshape({-1});
    at::Tensor fin = x;
    if (at::isFloatingType(x.scalar_type())) {
        const double inf = std::numeric_limits<double>::infinity();
        h.nans = x.isnan().sum().item<int64_t>();
        h.posInfs = x.eq(inf).sum().item<int64_t>();
        h.negInfs = x.eq(-inf).sum().item<int64_t>();
        if (h.nans + h.posInfs + h.negInfs) fin = x.masked_select(x.isfinite());
    }
    h.finite = fin.numel();
    h.counts.assign(bins, 0);
    if (h.finite == 0) return h;
    if (!at::isFloatingType(fin.scalar_type())) fin = fin.to(at::kDouble);
    h.lo = fin.min().item<double>();
    h.hi = fin.max().item<double>();
    double lo = h.lo, hi = h.hi;
    if (hi <= lo) {
        lo -= 0.5;
        hi += 0.5;
        h.lo = lo;
        h.hi = hi;
    }
    at::Tensor c = at::histc(fin, bins, lo, hi).to(at::kLong).contiguous();
    const int64_t* p = c.data_ptr<int64_t>();
    for (int i = 0; i < bins; ++i) h.counts[i] = p[i];
    return h;
}

std::optional<Heatmap> Debugger::heatmap(const std::string& name, const std::vector<int64_t>& lead, int64_t maxSide,
                                         ValueSide side) const {
    at::NoGradGuard g;
    Heatmap h;
    maxSide = std::max<int64_t>(maxSide, 1);
    at::Tensor sub = d_->slice(name, side, lead, [&](const at::Tensor& s) {
        h.sliceRows = s.size(0);
        h.sliceCols = s.size(1);
        const int64_t big = std::max(h.sliceRows, h.sliceCols);
        h.stride = std::max<int64_t>(1, (big + maxSide - 1) / maxSide);
        return h.stride > 1 ? s.slice(0, 0, h.sliceRows, h.stride).slice(1, 0, h.sliceCols, h.stride) : s;
    });
    if (!sub.defined()) return std::nullopt;
    sub = realOf(sub).to(at::kFloat).contiguous();
    h.rows = sub.size(0);
    h.cols = sub.size(1);
    const float* p = sub.data_ptr<float>();
    h.values.assign(p, p + sub.numel());
    bool any = false;
    for (float v : h.values) {
        if (!std::isfinite(v)) continue;
        if (!any) h.min = h.max = v;
        h.min = std::min<double>(h.min, v);
        h.max = std::max<double>(h.max, v);
        any = true;
    }
    return h;
}

namespace {
DiffReport toReport(const Comparison& c) {
    DiffReport r;
    r.comparable = c.problem.empty();
    r.problem = c.problem;
    r.matched = c.matched;
    r.mismatches = c.mismatches;
    r.numel = c.numel;
    r.maxAbs = c.maxAbsDiff;
    r.maxRel = c.maxRelDiff;
    r.worstIndex = c.worstIndex;
    r.worstActual = c.worstActual;
    r.worstExpected = c.worstExpected;
    return r;
}
}  // namespace

DiffReport Debugger::compare(const std::string& name) const {
    at::Tensor a = d_->actual(name), e = d_->reference(name);
    DiffReport r;
    if (!e.defined()) {
        r.problem = "no reference value for '" + name + "'";
        return r;
    }
    if (!a.defined()) {
        r.problem = "'" + name + "' has no value yet";
        return r;
    }
    Tolerance tol;
    {
        std::lock_guard lock(d_->m);
        tol = d_->tol;
    }
    return toReport(compareTensors(name, a, e, tol));
}

DivergenceInfo Debugger::firstDivergence() const {
    DivergenceInfo info;
    io::TensorMap ref;
    Tolerance tol;
    {
        std::lock_guard lock(d_->m);
        ref = d_->intermediates;
        for (const auto& e : d_->expected)
            if (!ref.contains(e.name)) ref.insert(e.name, e.tensor, e.source);
        tol = d_->tol;
    }
    if (ref.empty()) {
        info.message = "no reference loaded (expected outputs or reference intermediates)";
        return info;
    }
    IntermediateReport rep = compareIntermediates(d_->session, ref, tol);
    info.compared = rep.compared;
    if (rep.first) {
        info.found = true;
        info.node = rep.first->node;
        info.nodeName = rep.first->nodeName;
        info.opType = rep.first->opType;
        info.tensor = rep.first->comparison.name;
        info.diff = toReport(rep.first->comparison);
        char buf[96];
        std::snprintf(buf, sizeof buf, "max abs diff %.3g, max rel diff %.3g", info.diff.maxAbs, info.diff.maxRel);
        info.message = "first divergence at node '" + info.nodeName + "' (" + info.opType + "), tensor '" + info.tensor +
                       "': " + (info.diff.problem.empty() ? std::string(buf) : info.diff.problem);
    } else {
        info.message = std::to_string(rep.compared) + " computed tensors match the reference";
    }
    return info;
}

void Debugger::setTolerance(ReferenceTolerance t) {
    std::lock_guard lock(d_->m);
    d_->tol = Tolerance{t.rtol, t.atol};
    std::fill(d_->diffKnown.begin(), d_->diffKnown.end(), 0);
}

ReferenceTolerance Debugger::tolerance() const {
    std::lock_guard lock(d_->m);
    return {d_->tol.rtol, d_->tol.atol};
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
        v = d_->maxAbs;
        break;
    }
    case OverlayKind::NanInf: {
        std::lock_guard lock(d_->m);
        v = d_->nanInf;
        break;
    }
    case OverlayKind::Difference: {
        for (int64_t i = 0; i < n; ++i) {
            {
                std::lock_guard lock(d_->m);
                if (d_->diffKnown[i]) {
                    v[i] = d_->diff[i];
                    continue;
                }
            }
            if (d_->session.state(i) != NodeState::Done) continue;
            double mx = kNaN;
            bool complete = true;
            for (const auto& o : d_->graph.nodes[i].outputs) {
                at::Tensor a = d_->actual(o.name), e = d_->reference(o.name);
                if (!e.defined()) continue;
                if (!a.defined()) {
                    complete = false;
                    continue;
                }
                DiffReport r = compare(o.name);
                double x = r.comparable ? r.maxAbs : std::numeric_limits<double>::infinity();
                mx = std::isnan(mx) ? x : std::max(mx, x);
            }
            v[i] = mx;
            if (complete) {
                std::lock_guard lock(d_->m);
                d_->diff[i] = mx;
                d_->diffKnown[i] = 1;
            }
        }
        break;
    }
    }
    return v;
}

void Debugger::exportTensor(const std::string& name, const std::string& path, ValueSide side) const {
    at::Tensor t = d_->get(name, side);
    if (!t.defined()) throw std::runtime_error("'" + name + "' has no value to export");
    io::TensorMap m;
    m.insert(name, t.contiguous());
    try {
        io::writeTensorFile(m, path);
    } catch (const std::exception& e) {
        throw std::runtime_error(e.what());
    }
}

}  // namespace irscope::exec
