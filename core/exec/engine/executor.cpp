#include "core/exec/engine/executor.h"

#include "core/exec/engine/subclass_values.h"
#include "core/io/tensor_dtype.h"
#include "core/ir/symbol_ranges.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include <ATen/ATen.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include "core/exec/engine/attr_convert.h"
#include "core/exec/engine/exec_error.h"
#include "core/exec/engine/value_precedence.h"
#include "core/ir/tensor_meta.h"

// Out of line and in the cold text section: the code that words messages
// and handles the rare cases, kept away from the run loop's.
#define IRSCOPE_COLD [[gnu::cold, gnu::noinline]]

namespace irscope::exec {
namespace {

std::string shapeText(c10::IntArrayRef s) { return ir::shapeToList(s.vec()); }

std::string dtypeText(c10::ScalarType t) { return io::scalarTypeName(t); }

}  // namespace

std::string torchIrMissingMessage(const std::string& name, const std::string& node) {
    return "Weight/input '" + name + "' not found in registry for node '" + node + "'.";
}

std::string missingValueMessage(const MissingValue& m, const std::string& node) {
    if (!m.refusal.empty()) return m.refusal + " (node '" + node + "' needs it)";
    if (!m.wrongDtype()) return torchIrMissingMessage(m.name, node);
    std::string s = "'";
    s += m.name;
    s += "' is ";
    s += m.haveDtype;
    s += " but the IR says ";
    s += m.irDtype;
    s += " (node '";
    s += node;
    s += "'); cast the weights to the IR's dtypes";
    return s;
}

at::Tensor constantToTensor(const std::string& name, const ir::ConstantValue& value) {
    if (!value.usable()) throw ExecError("", "", "constant '" + name + "' is unusable: " + value.problem);
    auto st = scalarTypeOfIrDtype(value.dtype);
    if (!st)
        throw ExecError("", "",
                        "constant '" + name + "' has dtype '" + value.dtype + "' that libtorch 1.13 cannot hold");
    at::Tensor t = at::empty(value.shape, at::TensorOptions().dtype(*st));
    if (static_cast<size_t>(t.nbytes()) != value.bytes.size())
        throw ExecError("", "",
                        "constant '" + name + "': " + std::to_string(value.bytes.size()) + " bytes for " +
                            std::to_string(t.nbytes()) + " expected");
    if (!value.bytes.empty()) std::memcpy(t.data_ptr(), value.bytes.data(), value.bytes.size());
    return t;
}

namespace {
int8_t planDtypeOf(const std::string& irDtype) {
    auto st = scalarTypeOfIrDtype(irDtype);
    return st ? static_cast<int8_t>(*st) : int8_t{-1};
}
}  // namespace

Executor::Executor(const ir::Graph& graph)
    : graph_(graph), index_(graph), plan_(buildExecutionPlan(graph, index_, &planDtypeOf)) {
    bound_.resize(graph_.nodes.size());
    fast_.resize(graph_.nodes.size());
    values_.resize(static_cast<size_t>(plan_.slotCount));
    registryDtype_.reserve(plan_.registryNames.size());
    for (const auto& name : plan_.registryNames) {
        const auto wi = index_.weightIndex(name);
        registryDtype_.push_back(wi ? planDtypeOf(graph_.weights[static_cast<size_t>(*wi)].dtype) : int8_t{-1});
    }
    resultCount_.assign(graph_.nodes.size(), -1);
    protected_.assign(static_cast<size_t>(plan_.slotCount), 0);
    uint32_t mostInputs = 0;
    for (const auto& step : plan_.steps) mostInputs = std::max(mostInputs, step.inputCount);
    inputScratch_.resize(mostInputs);
    refreshProtected();
    rebuildRegistry();
}

void Executor::setWeights(const io::TensorMap& m) {
    // A tensor-subclass weight is stored as its parts; its value is rebuilt
    // for the nodes and the user that read it whole (subclass_values.h).
    weights_ = lacksSubclassValues(m) ? withSubclassValues(m) : m;
    rebuildRegistry();
}
void Executor::setConstants(const io::TensorMap& m) {
    constants_ = m;
    rebuildRegistry();
}
void Executor::setInputs(const io::TensorMap& m) {
    inputs_ = m;
    rebuildRegistry();
}
void Executor::setDtypeCheck(bool on) {
    checkDtypes_ = on;
    rebuildRegistry();
}

// A parameter as the model holds it: a tensor that requires grad (an alias of
// the user's, which stays as it was). PyTorch's kernels choose their path by
// it even with grad off: matmul folds a strided [b, n, k] input into one mm
// only where the weight does not require grad, else it runs a bmm, and the
// two differ in the last bit. Nodes run with grad off (runNode), so nothing
// records a graph.
at::Tensor Executor::asParameter(const at::Tensor& t) {
    if (!t.defined() || !(at::isFloatingType(t.scalar_type()) || at::isComplexType(t.scalar_type())) ||
        t.requires_grad())
        return t;
    return t.detach().requires_grad_(true);
}

void Executor::rebuildRegistry() {
    registry_.clear();
    // 1. state_dict under its keys and, through weight_name_mapping, its placeholders.
    for (const auto& e : weights_) registry_[e.name] = e.tensor;
    for (const auto& [placeholder, original] : graph_.weightNameMapping)
        if (const at::Tensor* t = weights_.find(original))
            registry_[placeholder] = index_.kindOf(placeholder) == ir::TensorKind::Parameter ? asParameter(*t) : *t;
    // 2. Effective constants (value_precedence.h): the IR's, overridden by the
    //    user's; under the original name and every placeholder mapped to it,
    //    whatever its prefix. They win over the state_dict.
    for (const auto& c : effectiveConstants(graph_, constants_).values) {
        registry_[c.name] = c.tensor;
        for (const auto& placeholder : index_.placeholdersOf(c.name)) registry_[placeholder] = c.tensor;
    }
    // 3. Graph inputs by name; one a dynamic-shape program's ranges refuse
    //    is not supplied, and says why.
    refusedInputs_.clear();
    std::map<std::string, int64_t> symbolSizes;
    for (size_t i = 0; i < graph_.graphInputs.size(); ++i) {
        const at::Tensor* t = inputs_.find(graph_.graphInputs[i].name);
        if (t && t->defined() && !graph_.symbolRanges.empty())
            if (auto why = ir::inputShapeRefusal(graph_, graph_.graphInputs[i], t->sizes().vec(), symbolSizes);
                !why.empty()) {
                refusedInputs_[graph_.graphInputs[i].name] = why;
                t = nullptr;
            }
        values_[i] = t ? *t : at::Tensor();
        if (t) registry_[graph_.graphInputs[i].name] = *t;
    }
    // The slots of the registry names the nodes read.
    for (size_t k = 0; k < plan_.registryNames.size(); ++k) {
        auto it = registry_.find(plan_.registryNames[k]);
        at::Tensor value = it == registry_.end() ? at::Tensor() : it->second;
        // A value in another dtype than the IR's stays out of its slot: the
        // node reading it stops as for a missing one (no check in the run loop).
        if (checkDtypes_ && value.defined() && registryDtype_[k] >= 0 &&
            static_cast<int8_t>(value.scalar_type()) != registryDtype_[k])
            value = at::Tensor();
        values_[static_cast<size_t>(plan_.registryBase) + k] = std::move(value);
    }
    if (aliasesKnown_) freshenWrittenRoots();
}

// The slots an in-place op may write through to (alias_classes.h) get a copy
// of the user's tensor; the tensor itself is kept to copy again per run.
void Executor::freshenWrittenRoots() {
    const at::NoGradGuard noGrad;  // the copies of parameters record no graph
    rootOriginals_.clear();
    rootOriginals_.reserve(aliases_.writtenRoots.size());
    for (int32_t slot : aliases_.writtenRoots) {
        at::Tensor& v = values_[static_cast<size_t>(slot)];
        rootOriginals_.push_back(v);
        if (v.defined()) v = v.clone();
    }
}

MissingValue Executor::describeMissing(const std::string& name) const {
    MissingValue m;
    m.name = name;
    if (const std::string* orig = index_.originalName(name)) m.originalName = *orig;
    switch (index_.kindOf(name)) {
    case ir::TensorKind::GraphInput: m.kind = "input"; break;
    case ir::TensorKind::Parameter: m.kind = "parameter"; break;
    case ir::TensorKind::Buffer: m.kind = "buffer"; break;
    case ir::TensorKind::Constant: m.kind = "constant"; break;
    case ir::TensorKind::OtherWeight: m.kind = "weight"; break;
    default: m.kind = "value"; break;
    }
    if (auto it = refusedInputs_.find(name); it != refusedInputs_.end()) m.refusal = it->second;
    for (const io::TensorMap* loaded : {&weights_, &constants_, &inputs_})
        for (const auto& skipped : loaded->skipped())
            if (skipped.name == name || (!m.originalName.empty() && skipped.name == m.originalName))
                m.unreadable = "in " + skipped.source + " but " + skipped.reason;
    if (auto it = registry_.find(name); it != registry_.end() && it->second.defined()) {
        const auto wi = index_.weightIndex(name);
        const auto irType = wi ? scalarTypeOfIrDtype(graph_.weights[static_cast<size_t>(*wi)].dtype) : std::nullopt;
        if (irType && *irType != it->second.scalar_type()) {
            m.haveDtype = dtypeText(it->second.scalar_type());
            m.irDtype = dtypeText(*irType);
        }
    }
    return m;
}

std::vector<MissingValue> Executor::preflight() const {
    std::vector<MissingValue> out;
    std::unordered_map<std::string, size_t> at;
    auto add = [&](const std::string& name, const std::string& node, size_t nodeIndex = SIZE_MAX) {
        auto it = at.find(name);
        if (it == at.end()) {
            it = at.emplace(name, out.size()).first;
            out.push_back(describeMissing(name));
        }
        MissingValue& m = out[it->second];
        if (m.kind == "value" && m.namedProducer.empty() && nodeIndex != SIZE_MAX)
            for (const auto& in : graph_.nodes[nodeIndex].inputs)
                if (in.name == name && in.producerNode && !index_.nodeIndex(*in.producerNode) &&
                    *in.producerNode != name) {
                    m.namedProducer = *in.producerNode;
                    break;
                }
        auto& nodes = out[it->second].nodes;
        if (!node.empty() && (nodes.empty() || nodes.back() != node)) nodes.push_back(node);
    };
    for (size_t g = 0; g < graph_.graphInputs.size(); ++g)
        if (!values_[g].defined()) {
            add(graph_.graphInputs[g].name, "");
            for (const auto& use : index_.consumersOfGraphInput(static_cast<int64_t>(g)))
                add(graph_.graphInputs[g].name, graph_.nodes[use.node].name);
        }
    for (size_t i = 0; i < graph_.nodes.size(); ++i) {
        const auto& step = plan_.steps[i];
        for (uint32_t k = 0; k < step.inputCount; ++k) {
            const int32_t slot = plan_.inputSlots[step.inputBegin + k];
            if (plan_.isRegistry(slot) && !values_[static_cast<size_t>(slot)].defined())
                add(graph_.nodes[i].inputs[k].name, graph_.nodes[i].name, i);
        }
    }
    return out;
}

// The values go with the array that held them: a fresh array first, then
// the old one freed after its tensors. Freeing that large block next to the
// tensors' small ones makes glibc merge them into one free region, and the
// next run allocates from it in order; resetting the slots in place left
// tens of thousands of small free chunks in the bins, and keeping every
// intermediate of a 30,000-node chain ran 1.7x slower after a reset.
void Executor::reset() {
    {
        std::vector<at::Tensor> fresh(values_.size());
        std::copy(values_.begin(), values_.begin() + plan_.nodeOutputBase, fresh.begin());
        fresh.swap(values_);
    }  // the old values go here, then their array
    std::fill(resultCount_.begin(), resultCount_.end(), -1);
    fallbacks_.clear();
    takenBranches_.clear();
    iterations_.clear();
    calls_.clear();
    unrecordedCalls_.clear();
    recordedBytes_.clear();
    castSaved_.clear();
    // The last run may have written into the copies of the user's tensors.
    for (size_t j = 0; j < rootOriginals_.size(); ++j) {
        const at::Tensor& original = rootOriginals_[j];
        values_[static_cast<size_t>(aliases_.writtenRoots[j])] = original.defined() ? original.clone() : at::Tensor();
    }
    shown_.clear();
}

const at::Tensor& Executor::resolve(int64_t node, uint32_t input) const {
    const int32_t slot = plan_.inputSlots[plan_.steps[static_cast<size_t>(node)].inputBegin + input];
    const at::Tensor& t = values_[static_cast<size_t>(slot)];
    if (!t.defined()) throwUnavailable(node, input);
    return t;
}

// Words why an input has no value; off the hot path.
IRSCOPE_COLD void Executor::throwUnavailable(int64_t node, uint32_t input) const {
    const ir::OpNode& n = graph_.nodes[static_cast<size_t>(node)];
    const int32_t slot = plan_.inputSlots[plan_.steps[static_cast<size_t>(node)].inputBegin + input];
    const std::string& name = n.inputs[input].name;
    if (!plan_.isNodeOutput(slot)) {
        MissingValue m = describeMissing(name);
        m.nodes.push_back(n.name);
        throw MissingInputError(n.name, n.opType, std::move(m));
    }
    const int32_t p = plan_.producer[static_cast<size_t>(slot)];
    const int64_t k = slot - static_cast<int64_t>(plan_.steps[static_cast<size_t>(p)].outputBegin);
    const std::string& producer = graph_.nodes[static_cast<size_t>(p)].name;
    const int32_t returned = resultCount_[static_cast<size_t>(p)];
    if (returned < 0)
        throw ExecError(n.name, n.opType, "input '" + name + "' comes from node '" + producer + "', which has not run");
    throw ExecError(n.name, n.opType,
                    "input '" + name + "' (output " + std::to_string(k) + " of node '" + producer +
                        "') is not available" +
                        (k < returned ? " (freed by the retention policy)" : ": the op returned fewer outputs"));
}

c10::SmallVector<at::Tensor, 4> Executor::outputsOf(int64_t node) const {
    const auto& step = plan_.steps[static_cast<size_t>(node)];
    const int32_t returned = resultCount_[static_cast<size_t>(node)];
    c10::SmallVector<at::Tensor, 4> out;
    if (returned <= 0) return out;
    const size_t n = std::min<size_t>(step.outputCount, static_cast<size_t>(returned));
    for (size_t k = 0; k < n; ++k) out.push_back(shown(step.outputBegin + k));
    return out;
}

// The run loop's hot path: a node bound to a typed call reads its step, its
// FastCall and its argument slots, calls, and stores the result. Every other
// node (getitem, not bound yet, boxed, in-place, ignored attrs) takes
// runGeneral; everything that words a message is out of line (IRSCOPE_COLD),
// so that the loop's code stays small next to libtorch's (execution_plan.h).
bool Executor::runNode(int64_t i, std::vector<std::string>& diags) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    if (!diags.empty()) diags.clear();
    const at::NoGradGuard noGrad;  // as a model runs under torch.no_grad(): parameters require grad
    try {
        if (!overrides_.empty()) [[unlikely]] {
            runOverridden(i, diags);
        } else if (autocast_) [[unlikely]] {
            runAutocast(i, diags);
        } else if (const FastCall& fast = fast_[static_cast<size_t>(i)]; fast.fn) [[likely]] {
            const at::Tensor** in = inputScratch_.data();
            for (uint32_t k = 0; k < step.inputCount; ++k) {
                const at::Tensor& t = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
                if (!t.defined()) [[unlikely]]
                    throwUnavailable(i, k);
                in[k] = &t;
            }
            at::Tensor r;
            try {
                r = fast.fn(fast.handle, in, fast.slots, fast.ints);
            } catch (const c10::Error& e) {
                failNode(i, e.what_without_backtrace());
            } catch (const std::exception& e) {
                failNode(i, e.what());
            }
            resultCount_[static_cast<size_t>(i)] = 1;
            if (step.outputCount > 0) [[likely]] {
                values_[step.outputBegin] = std::move(r);
                for (uint32_t k = 1; k < step.outputCount; ++k) values_[step.outputBegin + k].reset();
            }
        } else {
            runGeneral(i, diags);
        }
    } catch (const ExecError& e) {
        // This libtorch has no kernel for the node's float16 / bfloat16
        // inputs: float32 on the rounded inputs, rounded back (widened_run.cpp).
        if (autocast_ || !overrides_.empty() || !lacksReducedPrecisionKernel(e.reason())) throw;
        runWidened(i, diags, std::current_exception(), at::kFloat);
    }

    // Compare with the IR's TensorMeta: a mismatch means the graph and the op
    // disagree (e.g. attrs lost on the way).
    const auto returned = static_cast<uint32_t>(resultCount_[static_cast<size_t>(i)]);
    if (returned < step.listedOutputs) [[unlikely]]
        reportShortResult(i, diags);
    const uint32_t compared = std::min(returned, step.listedOutputs);
    for (uint32_t k = 0; k < compared; ++k) {
        const at::Tensor& t = values_[step.outputBegin + k];
        if (!t.defined()) continue;
        const auto& check = plan_.checks[step.outputBegin + k - static_cast<uint32_t>(plan_.nodeOutputBase)];
        bool agrees = check.dtype < 0 || t.scalar_type() == static_cast<c10::ScalarType>(check.dtype);
        if (check.rank >= 0) {
            const c10::IntArrayRef sizes = t.sizes();
            agrees = agrees && sizes.size() == static_cast<size_t>(check.rank);
            for (size_t d = 0; agrees && d < sizes.size(); ++d) agrees = sizes[d] == plan_.dims[check.dimsBegin + d];
        }
        if (!agrees) [[unlikely]]
            reportMismatch(i, k, diags);
    }
    bool stop = false;
    if (!inspectors_.empty()) [[unlikely]] {
        std::span<at::Tensor> outs(values_.data() + step.outputBegin, compared);
        const bool guarded = aliasesKnown_ && guardInspected(step, compared);
        if (guarded) outs = {inspected_.data(), compared};
        try {
            for (NodeInspector* inspector : inspectors_)
                if (inspector) stop = inspector->afterNode(i, outs) || stop;
        } catch (const ExecError&) {
            throw;  // names its node already (a reference run's failure)
        } catch (const c10::Error& e) {
            failNode(i, std::string("checking its results: ") + e.what_without_backtrace());
        } catch (const std::exception& e) {
            failNode(i, std::string("checking its results: ") + e.what());
        }
        // An inspector that replaced a value (local mode feeds the
        // reference forward) replaced it for the run.
        if (guarded)
            for (uint32_t k = 0; k < compared; ++k)
                if (!inspected_[k].is_same(inspectedGiven_[k])) values_[step.outputBegin + k] = inspected_[k];
    }
    releaseAfter(i);
    return stop;
}

// A node while some value is overridden: computed as usual, then its
// overridden outputs replaced. A node whose every output is overridden may
// fail to compute (the bug the user is stepping past): the override stands in.
IRSCOPE_COLD void Executor::runOverridden(int64_t i, std::vector<std::string>& diags) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    bool all = step.outputCount > 0;
    for (uint32_t k = 0; k < step.outputCount; ++k) all = all && overrides_.count(step.outputBegin + k);
    try {
        if (autocast_)
            runAutocast(i, diags);
        else
            runGeneral(i, diags);
    } catch (const ExecError& e) {
        if (!all) throw;
        resultCount_[static_cast<size_t>(i)] = static_cast<int32_t>(step.outputCount);
        diags.push_back("its own computation failed (" + e.reason() + "); the overridden value stands in");
    }
    applyOverrides(step);
}

IRSCOPE_COLD void Executor::applyOverrides(const ExecutionPlan::Step& step) {
    for (uint32_t k = 0; k < step.outputCount; ++k)
        if (const auto it = overrides_.find(step.outputBegin + k); it != overrides_.end())
            values_[step.outputBegin + k] = it->second.clone();  // a later in-place op writes the copy
}

void Executor::setOverride(int64_t node, size_t output, at::Tensor value) {
    const auto& step = plan_.steps.at(static_cast<size_t>(node));
    if (output >= step.outputCount) throw std::out_of_range("no such output");
    overrides_[step.outputBegin + static_cast<uint32_t>(output)] = std::move(value);
}

void Executor::clearOverride(int64_t node, size_t output) {
    const auto& step = plan_.steps.at(static_cast<size_t>(node));
    overrides_.erase(step.outputBegin + static_cast<uint32_t>(output));
}

bool Executor::isOverridden(int64_t node, size_t output) const {
    const auto& step = plan_.steps.at(static_cast<size_t>(node));
    return output < step.outputCount && overrides_.count(step.outputBegin + static_cast<uint32_t>(output));
}

// What inspectors may keep and read later (a reference check measures on a
// worker thread) must not change under them: a value a later in-place op
// writes into goes to them as a copy, and memory nobody has written yet
// (alias_classes.h) goes as no value, since there is nothing to measure.
// Returns false, touching nothing, for the usual node that needs neither.
bool Executor::guardInspected(const ExecutionPlan::Step& step, uint32_t count) {
    bool needed = false;
    for (uint32_t k = 0; k < count; ++k) {
        const size_t slot = step.outputBegin + k;
        needed = needed || aliases_.written[slot] || aliases_.uninitialized[slot];
    }
    if (!needed) return false;
    inspected_.assign(count, at::Tensor());
    inspectedGiven_.assign(count, at::Tensor());
    for (uint32_t k = 0; k < count; ++k) {
        const size_t slot = step.outputBegin + k;
        const at::Tensor& v = values_[slot];
        if (aliases_.uninitialized[slot] || !v.defined()) continue;
        inspected_[k] = aliases_.written[slot] ? v.clone() : v;
        inspectedGiven_[k] = inspected_[k];
    }
    return true;
}

bool Executor::producedUninitialized(int64_t node, size_t output) const {
    if (!aliasesKnown_) return false;
    const auto& step = plan_.steps[static_cast<size_t>(node)];
    return output < step.outputCount && aliases_.uninitialized[step.outputBegin + output];
}

[[gnu::noinline]] void Executor::runGeneral(int64_t i, std::vector<std::string>& diags) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    resultCount_[static_cast<size_t>(i)] = -1;
    if (step.getitemInput != ExecutionPlan::kNotGetitem) {
        runGetitem(i);
        return;
    }
    if (!graph_.nodes[static_cast<size_t>(i)].subgraphs.empty()) {
        runHigherOrder(i);
        return;
    }
    BoundOp* op = bound_[static_cast<size_t>(i)].get();
    if (!op) op = bind(i);
    const at::Tensor** in = inputScratch_.data();
    for (uint32_t k = 0; k < step.inputCount; ++k) {
        const at::Tensor& t = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
        if (!t.defined()) throwUnavailable(i, k);
        in[k] = &t;
    }
    if (!op->writtenInputs.empty()) snapshotBeforeWrite(i, *op);
    try {
        if (op->unboxed) {
            at::Tensor r = op->unboxed(in, op->slots.data(), op->ints.data());
            resultCount_[static_cast<size_t>(i)] = 1;
            for (uint32_t k = 0; k < step.outputCount; ++k)
                values_[step.outputBegin + k] = k == 0 ? std::move(r) : at::Tensor();
        } else {
            callBoxed(i, *op);
        }
    } catch (const c10::Error& e) {
        failNode(i, e.what_without_backtrace());
    } catch (const ExecError&) {
        stack_.clear();
        throw;
    } catch (const std::exception& e) {
        failNode(i, e.what());
    }
    if (!op->ignoredAttrs.empty()) reportIgnoredAttrs(i, *op, diags);
    if (!op->ambiguity.empty()) diags.push_back(op->ambiguity);
}

// A node takes the hot path when its op is called unboxed and needs nothing
// else: no input to copy, no attr to report.
static FastCall fastCallOf(const BoundOp& op) {
    if (!op.unboxed || !op.writtenInputs.empty() || !op.ignoredAttrs.empty() || !op.ambiguity.empty()) return {};
    return {op.unboxed.fn, op.unboxed.typedHandle, op.slots.data(), op.ints.data()};
}

void Executor::bindAll() {
    for (size_t i = 0; i < bound_.size(); ++i) {
        if (bound_[i] || plan_.steps[i].getitemInput != ExecutionPlan::kNotGetitem) continue;
        try {
            bound_[i] = std::make_unique<BoundOp>(bindNode(graph_.nodes[i]));
        } catch (const std::exception&) {  // reported when the node runs
        }
    }
    // The fast nodes' argument slots, copied into one array in node order:
    // read front to back by the run, they stream from memory instead of
    // costing a cache miss per node (each BoundOp's own are a separate block).
    size_t total = 0;
    for (const auto& op : bound_)
        if (op && fastCallOf(*op).fn) total += op->slots.size();
    fastSlots_.clear();
    fastSlots_.reserve(total);  // the pointers below stay valid
    for (size_t i = 0; i < bound_.size(); ++i) {
        if (!bound_[i]) continue;
        fast_[i] = fastCallOf(*bound_[i]);
        if (!fast_[i].fn) continue;
        fast_[i].slots = fastSlots_.data() + fastSlots_.size();
        fastSlots_.insert(fastSlots_.end(), bound_[i]->slots.begin(), bound_[i]->slots.end());
    }
    // Every schema is known now: which values share storage, and which of
    // the user's tensors a write would reach.
    if (!aliasesKnown_) {
        aliases_ = computeAliasClasses(plan_, bound_);
        aliasesKnown_ = true;
        freshenWrittenRoots();
    }
}

IRSCOPE_COLD BoundOp* Executor::bind(int64_t i) {
    // The first node to run binds them all: a write must know its aliases.
    if (!aliasesKnown_) {
        bindAll();
        if (BoundOp* op = bound_[static_cast<size_t>(i)].get()) return op;
    }
    auto& bound = bound_[static_cast<size_t>(i)];
    bound = std::make_unique<BoundOp>(bindNode(graph_.nodes[static_cast<size_t>(i)]));
    fast_[static_cast<size_t>(i)] = fastCallOf(*bound);
    return bound.get();
}

IRSCOPE_COLD void Executor::runGetitem(int64_t i) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    const ir::OpNode& node = graph_.nodes[static_cast<size_t>(i)];
    if (step.getitemInput == ExecutionPlan::kBadGetitem)
        throw ExecError(node.name, node.opType, "getitem without an integer 'index' attr");
    if (step.getitemInput == ExecutionPlan::kEmptyGetitem)
        throw ExecError(node.name, node.opType, "getitem without inputs");
    at::Tensor t = resolve(i, static_cast<uint32_t>(step.getitemInput));
    resultCount_[static_cast<size_t>(i)] = 1;
    for (uint32_t k = 0; k < step.outputCount; ++k) values_[step.outputBegin + k] = k == 0 ? t : at::Tensor();
}

// An in-place op is about to write into a set of aliased values: each one
// already produced is kept as it was, once per run, for what the user sees of
// its node (outputsOf, valueOf). The run itself goes on with the written tensors.
IRSCOPE_COLD void Executor::snapshotBeforeWrite(int64_t i, const BoundOp& op) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    for (int32_t k : op.writtenInputs) {
        const int32_t slot = plan_.inputSlots[step.inputBegin + static_cast<uint32_t>(k)];
        const auto it = aliases_.members.find(aliases_.rep[static_cast<size_t>(slot)]);
        if (it == aliases_.members.end()) continue;
        for (int32_t member : it->second) {
            const auto m = static_cast<size_t>(member);
            if (!values_[m].defined() || (!shown_.empty() && shown_[m].defined())) continue;
            if (shown_.empty()) shown_.resize(values_.size());
            shown_[m] = values_[m].clone();
        }
    }
}

const at::Tensor& Executor::shown(size_t slot) const {
    return !shown_.empty() && shown_[slot].defined() ? shown_[slot] : values_[slot];
}

// The boxed path: a stack of IValues, results normalized to tensors.
void Executor::callBoxed(int64_t i, const BoundOp& op) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    auto& results = resultScratch_;
    buildStack(op, inputScratch_.data(), stack_);
    callBound(op, stack_, results);
    stack_.clear();
    const size_t returned = results.size();
    for (uint32_t k = 0; k < step.outputCount; ++k)
        values_[step.outputBegin + k] = k < returned ? std::move(results[k]) : at::Tensor();
    results.clear();
    resultCount_[static_cast<size_t>(i)] = static_cast<int32_t>(std::min<size_t>(returned, INT32_MAX));
}

IRSCOPE_COLD void Executor::failNode(int64_t i, const std::string& why) {
    stack_.clear();
    resultScratch_.clear();
    const ir::OpNode& node = graph_.nodes[static_cast<size_t>(i)];
    // libtorch's words name a kernel ("addmm_impl_cpu_") and a dtype; say
    // what they mean for a half-precision model and what to do.
    for (const char* dtype : {"Half", "BFloat16"}) {
        if (why.find(std::string("not implemented for '") + dtype + "'") == std::string::npos) continue;
        const std::string irDtype = std::string(dtype) == "Half" ? "float16" : "bfloat16";
        throw ExecError(node.name, node.opType,
                        why + " (this libtorch, " + std::to_string(TORCH_VERSION_MAJOR) + "." +
                            std::to_string(TORCH_VERSION_MINOR) + ", has no CPU kernel for " + node.opType + " in " +
                            irDtype +
                            "; build irscope against the libtorch of the PyTorch that exported the model, "
                            "which has it (README: Building against your own PyTorch), or cast the model's weights and "
                            "inputs to float32)");
    }
    throw ExecError(node.name, node.opType, why);
}

IRSCOPE_COLD void Executor::reportIgnoredAttrs(int64_t i, const BoundOp& op, std::vector<std::string>& diags) const {
    for (const auto& attr : op.ignoredAttrs)
        diags.push_back("attr '" + attr + "' is not an argument of " + graph_.nodes[static_cast<size_t>(i)].opType +
                        " in libtorch 1.13's schema and was not passed");
}

IRSCOPE_COLD void Executor::reportShortResult(int64_t i, std::vector<std::string>& diags) const {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    diags.push_back("the op returned " + std::to_string(resultCount_[static_cast<size_t>(i)]) +
                    " tensors, the IR lists " + std::to_string(step.listedOutputs) + " outputs");
}

IRSCOPE_COLD void Executor::reportMismatch(int64_t i, uint32_t k, std::vector<std::string>& diags) const {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    const at::Tensor& t = values_[step.outputBegin + k];
    const auto& check = plan_.checks[step.outputBegin + k - static_cast<uint32_t>(plan_.nodeOutputBase)];
    const auto& meta = graph_.nodes[static_cast<size_t>(i)].outputs[k];
    const c10::IntArrayRef expected(plan_.dims.data() + check.dimsBegin,
                                    static_cast<size_t>(std::max<int16_t>(check.rank, 0)));
    if (check.rank >= 0 && !t.sizes().equals(expected))
        diags.push_back("output '" + meta.name + "' has shape " + shapeText(t.sizes()) + ", the IR says " +
                        shapeText(expected));
    if (check.dtype >= 0 && t.scalar_type() != static_cast<c10::ScalarType>(check.dtype))
        diags.push_back("output '" + meta.name + "' has dtype " + dtypeText(t.scalar_type()) + ", the IR says " +
                        meta.dtype);
}

void Executor::releaseAfter(int64_t i) {
    if (policy_ == RetentionPolicy::KeepAll) return;
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    for (uint32_t k = 0; k < step.releaseCount; ++k) {
        const auto slot = static_cast<size_t>(plan_.releaseSlots[step.releaseBegin + k]);
        if (protected_[slot]) continue;
        values_[slot].reset();
        if (!shown_.empty()) shown_[slot].reset();
    }
}

void Executor::refreshProtected() {
    std::fill(protected_.begin(), protected_.end(), 0);
    auto mark = [&](const std::string& name) {
        if (auto p = index_.producerOfTensor(name))
            if (int32_t slot = plan_.outputSlot(p->first, p->second); slot >= 0)
                protected_[static_cast<size_t>(slot)] = 1;
    };
    for (const auto& o : graph_.graphOutputs) mark(o.name);
    for (const auto& n : pinned_) mark(n);
    for (const auto& n : selected_) mark(n);
}

void Executor::setPinned(const std::string& name, bool pinned) {
    if (pinned)
        pinned_.insert(name);
    else
        pinned_.erase(name);
    refreshProtected();
}

void Executor::setSelected(const std::vector<std::string>& names) {
    selected_ = std::set<std::string>(names.begin(), names.end());
    refreshProtected();
}

at::Tensor Executor::valueOf(const std::string& name) const {
    if (const int32_t slot = plan_.slotOfTensor(index_, name); slot >= 0 && !plan_.isRegistry(slot)) {
        // A graph output is what the graph returns, after any later write.
        const auto s = static_cast<size_t>(slot);
        if (!shown_.empty() && shown_[s].defined())
            for (const auto& o : graph_.graphOutputs)
                if (o.name == name) return values_[s];
        return shown(s);
    }
    if (index_.producerOfTensor(name)) return {};  // a node output past the slots: never a value
    auto it = registry_.find(name);
    if (it == registry_.end()) return {};
    // A parameter leaves as a plain tensor: what a reader computes with it records no graph.
    return it->second.requires_grad() ? it->second.detach() : it->second;
}

bool Executor::graphOutputs(io::TensorMap& out, std::string* missing) const {
    for (const auto& o : graph_.graphOutputs) {
        const int32_t slot = plan_.slotOfTensor(index_, o.name);
        at::Tensor t = slot >= 0 && !plan_.isRegistry(slot) ? values_[static_cast<size_t>(slot)] : valueOf(o.name);
        if (!t.defined()) {
            if (missing) *missing = o.name;
            return false;
        }
        out.insert(o.name, t);
    }
    return true;
}

size_t Executor::bytesHeld() const {
    std::unordered_set<const void*> seen;
    size_t total = 0;
    for (size_t k = static_cast<size_t>(plan_.nodeOutputBase); k < values_.size(); ++k) {
        const at::Tensor& t = values_[k];
        if (!t.defined() || !t.has_storage()) continue;
        const void* impl = t.storage().unsafeGetStorageImpl();
        if (seen.insert(impl).second) total += t.storage().nbytes();
    }
    return total;
}

}  // namespace irscope::exec
